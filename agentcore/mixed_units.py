"""A number the task writes in one unit, combined with a converter's result in another unit of its kind.

"Our daughter weighed 7 lb 8 oz at birth. What's that in grams?" ran `unit_convert(7 lb -> g)` = 3175.14659 and
then `3175.14659 + 8`: the ounces added as grams (independent1's ar36, written by an author who saw no code). When
an expression takes a conversion's result, in the unit that conversion reached, beside a number the task writes
with another unit of the same kind that no conversion took, the call is held once and the model is shown the
conversion still to do (`unit_convert(8 oz -> g)`). Units are read as pint reads them (agentcore.unit_names).
A number written after "and" with no unit of its own, straight after a quantity with one and followed by when
or where, has that unit: "Cycled 14 miles on Saturday and 9 on Sunday" (ar34).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolCall
from agentcore.unfinished import argument_values, leaves, values_in
from agentcore.unit_names import Converter, Named, named_units, unit_kind

Conversion = tuple[dict[str, Any], str]  # a converter call's arguments and its result


def unconverted_term(
    arguments: dict[str, Any], task: str, spec: Converter, conversions: Sequence[Conversion]
) -> tuple[float, str, str, str] | None:
    """(the number, its unit, the conversion's result, the unit that result is in) for the first such pair in an
    expression of `arguments`; None when there is none."""
    numbers = {v for leaf in leaves(arguments) if isinstance(leaf, str) for v in argument_values(leaf)}
    converted = {float(v) for done, _ in conversions for v in [done.get(spec.value)] if isinstance(v, int | float)}
    named = [
        n for n in with_elided(task, named_units(task, spec)) if n.number is not None and n.number not in converted
    ]
    for done, result in conversions:
        target = done.get(spec.target)
        taken = values_in(result) & numbers
        if not taken or not isinstance(target, str):
            continue
        for item in named:
            if item.number in numbers - taken and item.unit != target and unit_kind(item.unit) == unit_kind(target):
                return item.number, item.unit, result.strip(), target
    return None


# "... and 9 on Sunday": a number joined by "and" to the quantity before it, followed by a phrase of when or where
# (not "plus 3", not "and 3 more": an operation on the quantity, not another one in its unit).
_JOINED = re.compile(r"\s+and\s+(\d+(?:\.\d+)?)(?=\s+(?:on|in|at|during|last|next|this|that)\s+[A-Za-z])")


def with_elided(task: str, named: list[Named]) -> list[Named]:
    """`named`, and each number that shares the unit of the quantity before it (`_JOINED`)."""
    found = list(named)
    for item in named:
        if item.number is None:
            continue
        end = re.search(r"[.?!](?:\s|$)", task[item.at :])  # within the sentence of the quantity's unit word
        match = _JOINED.search(task, item.at, item.at + end.start() + 1 if end else len(task))
        if match is not None and not re.search(r"\d", task[item.at : match.start(1)]):
            found.append(Named(item.unit, item.word, match.start(1), float(match.group(1))))
    return found


def conversion_of(name: str, spec: Converter, number: float, source: str, target: str) -> ToolCall:
    """The converter call that takes `number` from `source` to `target`, as the notice shows it."""
    value: float | int = int(number) if number.is_integer() else number
    return ToolCall(name, {spec.value: value, spec.source: source, spec.target: target})
