"""How many portions a whole holds, asked as a count and written as a product.

"How many 330 ml glasses can I fill from a 2 gallon jug?" after the glass came back as 0.087177 gal, run as
`0.087177 * 2` (independent12's cd32), and "A 5 lb bag of coffee beans, 18 g per espresso shot. How many shots is
that?" after the bag came back as 2267.96185 g, run as `2267.96185 * 18` (independent10's cc34). A product of two
masses, or two volumes, in one unit is never a count of things. So where the task asks "how many" of a thing that
is none of its units, such a product runs as the quotient of the larger by the smaller: the whole over the
portion. Two lengths are left (their product is an area), as are temperatures, numbers in two different units
(the larger is not known without converting), and a product where either number has no unit that the task
writes after it or a conversion gives it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unit_names import unit_kind, unit_name

_NUM = r"\d+(?:\.\d+)?"
# "how many shots", "how many 330 ml glasses": the counted thing, after an optional quantity of one portion
_HOW_MANY = re.compile(rf"\bhow\s+many\s+(?:{_NUM}\s*[A-Za-z]+\s+)?(?P<thing>[A-Za-z]+)", re.IGNORECASE)
_NOT_THINGS = frozenset({"more", "fewer", "less", "extra", "of", "square", "cubic"})  # a difference, an area
_PRODUCT = re.compile(rf"\s*\(?\s*({_NUM})\s*\*\s*({_NUM})\s*\)?\s*")
_QUANTITY = re.compile(rf"(?<![\w.])({_NUM})\s*-?\s*([A-Za-z]+)\b")
_COUNTABLE = ("[mass]", "[length] ** 3")  # kinds whose product with themselves means nothing to count


def asks_how_many(task: str) -> bool:
    """Whether the task asks "how many": the one cheap test before the conversions are read."""
    return _HOW_MANY.search(task) is not None


def as_fit_count(arguments: dict[str, Any], task: str, converted: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """`arguments` with a product of two masses or volumes in one unit written as the larger over the smaller,
    where the task asks how many of a thing that is none of its units; `converted` is each conversion's (result,
    the unit it is in). The same dict when nothing changes."""
    asked = _HOW_MANY.search(task)
    if asked is None or asked.group("thing").lower() in _NOT_THINGS:
        return arguments
    quantities = [(number, unit_name(unit), unit) for number, unit in [*_QUANTITY.findall(task), *converted]]
    written = {name for _, name, _ in quantities if name is not None}
    if unit_name(asked.group("thing")) in written:
        return arguments  # "how many grams": a unit asked for, which a product may well be
    units = {round(float(n), 9): name for n, name, unit in quantities if name and unit_kind(unit) in _COUNTABLE}
    fixed = {key: _quotient(value, units) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _quotient(value: Any, units: dict[float, str]) -> Any:
    match = _PRODUCT.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return value
    first, second = match.groups()
    unit = units.get(round(float(first), 9))
    if unit is None or unit != units.get(round(float(second), 9)) or float(first) == float(second):
        return value
    whole, portion = (first, second) if float(first) > float(second) else (second, first)
    return f"{whole} / {portion}"
