"""A portion of a value added to it as the bare fraction: "the price plus half of it" called as
`calculator("85 + 0.5")`.

The 0.5B model turns "half of it", "a tenth of that price" or "15% of it" into the fraction alone and adds it to
the value, a well-formed call with the wrong sum. Where the task names such a portion, and an expression adds or
subtracts exactly that fraction to a number a tool returned, the expression runs with the portion of that number
("85 + 85 * 0.5"). A fraction the task writes in digits itself ("minus 0.5 kilograms") is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import numbers_in

_NAMED = {"half": 1 / 2, "third": 1 / 3, "quarter": 1 / 4, "fourth": 1 / 4, "fifth": 1 / 5, "sixth": 1 / 6,
          "eighth": 1 / 8, "tenth": 1 / 10, "hundredth": 1 / 100}  # fmt: skip
# "half of it", "a tenth of that price", "15% of the total": a portion, then "of".
_PORTION = re.compile(
    r"\b(?:(half)|an?\s+(third|quarter|fourth|fifth|sixth|eighth|tenth|hundredth)|(\d+(?:\.\d+)?)\s*(?:%|percent))"
    r"\s+of\b",
    re.IGNORECASE,
)
_NUM = r"\d+(?:\.\d+)?|\.\d+"
_SUM = re.compile(rf"\s*({_NUM})\s*([-+])\s*({_NUM})\s*")
_CLOSE = 0.01  # "0.33" for a third


def named_portions(task: str) -> list[float]:
    """The fractions that the task names as portions of something ("half of it" -> 0.5, "15% of" -> 0.15)."""
    found = []
    for match in _PORTION.finditer(task):
        half, named, percent = match.groups()
        found.append(float(percent) / 100 if percent else _NAMED[(half or named).lower()])
    return found


def of_results(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with each expression "R + f" (or "R - f") whose f is a portion the task names, and whose R a
    tool returned, written as "R + R * f". The same dict when nothing changes."""
    portions = named_portions(task)
    if not portions:
        return arguments
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    written = {round(n, 9) for n in numbers_in(task)}
    fixed = {key: _with_portion(value, portions, returned, written) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _with_portion(value: Any, portions: list[float], returned: set[float], written: set[float]) -> Any:
    match = _SUM.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return value
    whole, sign, part = match.groups()
    fraction = float(part)
    if round(float(whole), 9) not in returned or round(fraction, 9) in written or fraction >= 1:
        return value
    if not any(abs(fraction - p) <= _CLOSE * max(p, 0.01) for p in portions):
        return value
    return f"{whole} {sign} {whole} * {part}"
