"""A power the task asks for that no call took (issue #12): "What is the square of the price of a mouse?" was
answered with the price, 19.95, and "multiply the price by itself" with the price alone.

English writes a square or a cube with a handful of words ("square of", "square it", "squared", "cubed",
"multiplied by itself", "times that same price"); the words read here are those, in the places where they name an
operation on a value ("square of the price", "the result squared"), not a unit ("12 square meters", "5 feet
squared") or a root.
A call used the power when an expression raises a known number to it (`19.95 ** 2`, `19.95^2`, `pow(19.95, 2)`)
or multiplies one by itself (`19.95 * 19.95`); `2 * 2`, on a number no one gave, used nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agentcore.unfinished import argument_values, given_numbers, leaves, values_in

# "square of the price", "square it", "square the result": the power, then what it applies to (not a number:
# "the square of 3" is a number the model writes itself, and not a unit noun: "square meters").
_BEFORE = re.compile(r"\b(square|cube)\s+(?:of|it|that|this|the|them|its|each)\b", re.IGNORECASE)
# "the result squared", "that price cubed": a value word, then the power (not "5 feet squared", an area).
_AFTER = re.compile(r"\b(?:it|that|this|result|total|sum|value|price|number|count)\s+(squared|cubed)\b", re.I)
# "The word count of "...", squared.", and a letter named for a value: "If m is the monitor's price, what's m squared
# minus m?" (independent1's ar11 and ar26: both answered without a power).
_SET_OFF = re.compile(r"(?:,|[\"'\u201d])\s*(squared|cubed)\b|(?<![\w'])(?<!\d\s)[a-z]\s+(squared|cubed)\b", re.I)
# "multiplied by itself", "times itself", and the value named again: "multiplied by that same price" (compose25's
# af15), "times the same amount".
_SAME = r"(?:itself|(?:that|the)\s+same\b)"
_ITSELF = re.compile(rf"\b(?:multipl(?:y|ied)|times)\b[^.,;]*?\bby\s+{_SAME}|\btimes\s+{_SAME}", re.IGNORECASE)
_EXPONENT = {"square": 2, "squared": 2, "cube": 3, "cubed": 3}
_NUM = r"\d+(?:\.\d+)?"
_BASES = (
    re.compile(rf"(?<![\d.])({_NUM})\s*(?:\*\*|\^)"),
    re.compile(rf"\bpow\s*\(\s*({_NUM})", re.IGNORECASE),
    re.compile(rf"(?<![\d.])({_NUM})\s*\*\s*\1(?![\d.])"),
)


# "My room is a square, 4.2 m on each side. What's its floor area?" (independent10's cc28 answered the side): the
# area of a square and the volume of a cube are its side to the power.
_SHAPE = re.compile(r"\b(?:an?|the)\s+(square|cube)\b(?!\s+(?:root|of)\b)", re.IGNORECASE)
_MEASURE = {"square": re.compile(r"\barea\b", re.IGNORECASE), "cube": re.compile(r"\bvolume\b", re.IGNORECASE)}


def named_power(task: str) -> int | None:
    """The exponent the task applies to a value (2 for "the square of the price", 3 for "cubed"), or None."""
    for pattern in (_BEFORE, _AFTER, _SET_OFF):
        match = pattern.search(task)
        if match is not None:
            return _EXPONENT[next(g for g in match.groups() if g).lower()]
    shape = _SHAPE.search(task)
    if shape is not None and _MEASURE[shape.group(1).lower()].search(task):
        return _EXPONENT[shape.group(1).lower()]
    return 2 if _ITSELF.search(task) else None


def power_used(calls: Sequence[Any], known: set[float]) -> bool:
    """Whether some call's expression raises one of the `known` numbers (the task's, the results') to a power or
    multiplies it by itself."""
    bases = (float(m.group(1)) for text in _texts(calls) for pattern in _BASES for m in pattern.finditer(text))
    return any(round(base, 12) in known for base in bases)


def powered(value: str, exponent: int) -> str:
    """The expression that takes `value` to `exponent`, written as a product ("19.95 * 19.95"): every calculator
    reads that, where `**` and `^` differ."""
    return " * ".join([value.strip()] * exponent)


_RAISED = re.compile(rf"(?<![\d.])({_NUM})\s*(?:\*\*|\^)\s*({_NUM})(?![\d.])")


def without_unasked_powers(
    arguments: dict[str, Any], task: str, results: Sequence[str], counts: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """`arguments` with each power of a returned value dropped where the task names no power and neither the task
    nor a result gives the exponent: `3 * 8.75**2` for "3 usb cables" runs as `3 * 8.75` (compose24's ae07, where
    `5 + 3 * 3.5**2` came first). Nor does another item's count among `counts` (the task's counts of items, each
    with its item's fetched value): `2 * 215 + 5 * 8.75**2` for "2 monitors and 5 usb cables" runs as `2 * 215 +
    5 * 8.75` (compose27's ah07), where "3 cube-shaped boxes" of 0.5 each still gives `0.5 ** 3`. The same dict
    when nothing changes."""
    if named_power(task) is not None:
        return arguments
    returned = {n for result in results for n in values_in(result)}
    given = given_numbers(task)
    items = [(round(float(count), 12), round(abs(float(value)), 12)) for count, value in (counts or {}).items()]

    def bare(match: re.Match[str]) -> str:
        base, exponent = (round(abs(float(g)), 12) for g in match.groups())
        foreign = any(exponent == count and base != value for count, value in items)
        unasked = exponent not in returned and (exponent not in given or foreign)
        return match.group(1) if base in returned and unasked else match.group()

    fixed = {key: _RAISED.sub(bare, value) if isinstance(value, str) else value for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def grounded(steps: Sequence[tuple[Any, str]], task: str) -> list[tuple[Any, str]]:
    """The (arguments, result) steps whose numbers all come from the task or an earlier grounded result: not
    `2 * 2` made up twice (`unfinished.made_up_steps` counts a call's own inputs as known for the next)."""
    known = given_numbers(task)
    kept = []
    for arguments, result in steps:
        if argument_values(arguments) <= known:
            kept.append((arguments, result))
            known |= values_in(result)
    return kept


def _texts(calls: Sequence[Any]) -> Iterable[str]:
    for arguments in calls:
        yield from (value for value in leaves(arguments) if isinstance(value, str))
