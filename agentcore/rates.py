"""A percentage the task gives, sent to an argument that takes a rate as a fraction.

Asked for the future value of an investment "at an annual return of 7%", a 0.5B model writes
`annual_return=7`: the number as written. A rate argument whose docs say nothing of percentages takes a
fraction, 0.07; on BFCL's dev ground truth every such argument did (9 of 9: `discount_rate`, `annual_yield`,
`rate_of_return`, "The annual interest rate in decimal form"), and every argument whose name or docs say
"percent" took the whole number (`annual_rate`: "The interest rate for a year as a percentage"). The loop sends
the fraction in place of the model's number and records a notice; nothing else is judged, so an argument that
names no rate, or a value that is no percentage of the task, runs as written.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from agentcore.misfit import argument_words
from agentcore.unfinished import PERCENT_SIGN

_PERCENT = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?){PERCENT_SIGN}", re.I)
# The words of an argument that takes a rate, and of one that says it takes the fraction outright.
_RATE = frozenset({"rate", "rates", "ratio", "return", "returns", "yield", "yields"})
_FRACTION = frozenset({"fraction", "decimal", "proportion"})
_PERCENTAGE = frozenset({"percent", "percentage", "percentages", "pct", "percentile"})


def percentages(text: str) -> list[Decimal]:
    """The numbers `text` writes as percentages ("7%", "3.5 percent")."""
    return [Decimal(number) for number in _PERCENT.findall(text)]


def _takes_fraction(name: str, schema: dict[str, Any]) -> bool:
    """A number argument named or documented as a rate, or as a fraction, and never as a percentage."""
    words = argument_words(name, schema)
    types = schema.get("type")
    number = types == "number" or (isinstance(types, list) and "number" in types)
    return number and not words & _PERCENTAGE and bool(words & (_RATE | _FRACTION))


def as_fractions(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each top-level rate argument whose value is a percentage of `task`, written as the
    whole number, replaced by its fraction (7 -> 0.07). The same dict when nothing changes."""
    given = percentages(task)
    properties = parameters.get("properties") or {}
    fixed = dict(arguments)
    for name, value in arguments.items():
        schema = properties.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not isinstance(schema, dict):
            continue
        number = Decimal(str(value))
        if number in given and _takes_fraction(name, schema):
            fixed[name] = float(number / 100)
    return fixed if fixed != arguments else arguments
