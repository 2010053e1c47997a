"""Units the task names, read against a converter's enum (issue #12): "What is 25 pounds in kilograms, plus 3?"
called as `unit_convert(value=25, from_unit="kg", to_unit="m")`, and "How much is 40 meters in feet, less 10?"
answered `40 - 10` with no conversion at all.

A converter is a tool with two parameters that share one enum of unit symbols (`from_unit`, `to_unit`; declared
in that order). pint's registry reads both the symbols ("lb", "ml") and the task's words ("pounds",
"milliliters") as units, so a task word names an enum value when both read as the same unit; no list of unit
words is kept here. Two uses:
- `as_named`: a conversion of a number the task writes with its unit ("25 pounds") runs from that unit to the
  next unit of the same kind the task names ("kilograms"), whatever pair the model wrote;
- `unconverted`: the unit the task names last ("express the rest in meters") that no conversion has reached yet,
  while the task names another unit of its kind.

pint (about 0.4 s to load its registry) is imported only when a tool has such a pair of parameters.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from agentcore.function_words import FUNCTION_WORDS

_TOKEN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)|([A-Za-z]+)")
MIN_VALUES = 3  # an enum of fewer values is a choice, not a unit table
# Words that qualify the unit after a number ("55 US gallons": independent1's ar32 read the gallons as the unit
# asked for, with no number of their own).
# Only words that keep the unit's kind and size: "square feet" is an area and "fluid ounces" a volume, not the
# converter's feet and ounces.
_QUALIFIERS = frozenset({"us", "metric"})


@dataclass(frozen=True)
class Converter:
    """A tool's value parameter, its two unit parameters (source first) and their shared enum."""

    value: str
    source: str
    target: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class Named:
    """An enum unit the task names: its value, the task's word for it, where, and the number written before."""

    unit: str
    word: str
    at: int
    number: float | None


@dataclass(frozen=True)
class Due:
    """A conversion still to do: to `unit` (the task's `word`), of `number` (None: the latest result) in `source`."""

    unit: str
    word: str
    number: float | None
    source: str


def converter(parameters: dict[str, Any]) -> Converter | None:
    """The converter shape of a tool's parameters: two string enums with the same values, all read as units by
    pint, and one number parameter. None for any other tool (pint is not loaded for those)."""
    properties = parameters.get("properties") or {}
    enums = {
        name: tuple(schema["enum"])
        for name, schema in properties.items()
        if isinstance(schema, dict) and isinstance(schema.get("enum"), list) and len(schema["enum"]) >= MIN_VALUES
    }
    pair = [name for name in enums if list(enums.values()).count(enums[name]) == 2]
    numbers = [n for n, s in properties.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    if len(pair) != 2 or len(numbers) != 1:
        return None
    units = enums[pair[0]]
    if not all(isinstance(u, str) and _unit(u) is not None for u in units):
        return None
    return Converter(numbers[0], pair[0], pair[1], units)


def named_units(task: str, spec: Converter) -> list[Named]:
    """The enum units the task names, in order. A word of three or more letters, or a symbol of two, that is no
    function word counts anywhere ("kilograms", "cm"); any symbol counts right after a number ("12 in", "5 l")."""
    by_unit = {_unit(value): value for value in spec.units}
    found: list[Named] = []
    number: float | None = None
    for match in _TOKEN.finditer(task):
        if match.group(1):
            number = float(match.group(1))
            continue
        word = match.group(2)
        free = word.lower() not in FUNCTION_WORDS and (len(word) >= 3 or (len(word) == 2 and word in spec.units))
        value = by_unit.get(_unit(word)) if free or (number is not None and word in spec.units) else None
        if value is not None:
            found.append(Named(value, word, match.start(), number))
        if value is None and word.lower() in _QUALIFIERS:
            continue  # "55 US gallons", "3 fluid ounces": the number is the unit's after the qualifier
        if value is not None or _kind(word) != "dimensionless":  # "100 degrees Fahrenheit": the number stays
            number = None
    return found


def as_named(
    arguments: dict[str, Any], spec: Converter, task: str, converted: Collection[float] = ()
) -> dict[str, Any]:
    """`arguments` converting from the unit the task writes its number in to the next unit of that kind the task
    names ("25 pounds in kilograms": lb -> kg); the same dict where the task writes the number with no unit, or
    names no second unit of its kind."""
    value = arguments.get(spec.value)
    if not isinstance(value, int | float):
        return arguments
    named = named_units(task, spec)
    source = next((n for n in named if n.number == float(value)), None)
    if source is None:
        return _the_measured_one(arguments, spec, task, named, converted)
    other = _the_other_quantity(named, source)
    if other is not None:  # the number is in the unit asked for already: the other quantity is the one to convert
        fixed = {**arguments, spec.value: other.number, spec.source: other.unit, spec.target: source.unit}
        return fixed if fixed != arguments else arguments
    target = _next_of_kind(named, source)
    if target is None:
        return arguments
    fixed = {**arguments, spec.source: source.unit, spec.target: target}
    return fixed if fixed != arguments else arguments


def _the_measured_one(
    arguments: dict[str, Any], spec: Converter, task: str, named: Sequence[Named], converted: Collection[float]
) -> dict[str, Any]:
    """A count of the task converted, where the task writes one quantity of the unit converted from and no call
    converted it yet: "Each shelf is 36 inches long and I need 7 of them" converted 7 inches (independent5's
    bx31). The quantity runs instead; the same dict where the value is no number of the task, or the unit
    measures no single quantity, or that one was converted already ("14 miles on Saturday and 9 on Sunday":
    the 9 after the 14 is the second distance, independent1's ar34)."""
    value, unit = float(arguments[spec.value]), arguments.get(spec.source)
    written = {float(match.group(1)) for match in _TOKEN.finditer(task) if match.group(1)}
    measured = [n.number for n in named if n.number is not None and n.unit == unit]
    if value not in written or len(measured) != 1 or measured[0] == value or measured[0] in converted:
        return arguments
    number = measured[0]
    return {**arguments, spec.value: int(number) if number.is_integer() else number}


def _the_other_quantity(named: Sequence[Named], source: Named) -> Named | None:
    """The one other quantity of the source's kind in another unit, when the task asks its answer in the source's
    own unit (named once more with no number, after it): "holds 55 US gallons and we've drawn off 80 litres. How
    many litres are left?" converted the 80 litres to gallons (independent1's ar32; ar35 the same with "6 ft" and
    "140 cm ... in cm"). None otherwise."""
    kind = _kind(source.unit)
    asked = [n for n in named if n.number is None and _kind(n.unit) == kind]
    others = [n for n in named if n.number is not None and _kind(n.unit) == kind and n.unit != source.unit]
    # one unit asked, after the source: "How many miles is 10 km, and how many km is 6 miles?" asks two conversions
    if len({n.unit for n in asked}) != 1 or asked[-1].at < source.at or asked[-1].unit != source.unit:
        return None
    if len(others) != 1:
        return None
    return others[0]


def _next_of_kind(named: Sequence[Named], source: Named) -> str | None:
    """The first unit of the source's kind named after it, else the last one named before it; units named with
    no number of their own ("in kilograms") first, as those are the ones asked for."""
    kind = _kind(source.unit)
    others = [n for n in named if n.unit != source.unit and _kind(n.unit) == kind]
    asked = [n for n in others if n.number is None] or others
    after = [n for n in asked if n.at > source.at]
    if after:
        return after[0].unit
    return asked[-1].unit if asked else None


def unconverted(task: str, spec: Converter, done: Sequence[dict[str, Any]]) -> Due | None:
    """The conversion due when the last unit the task asks for (named
    with no number of its own) has been reached by no conversion in `done`, while the task names another unit of
    its kind: "express the rest in meters" after mi -> km is due to "m" from "km", of the latest result;
    "40 meters in feet, less 10" with no conversion to "ft" from "m", of 40. None when it is reached or
    the task needs no conversion ("How many kilometers is 26.2 miles?" after mi -> km)."""
    named = named_units(task, spec)
    asked = [n for n in named if n.number is None]
    if not asked:
        return None
    last = asked[-1]
    kind = _kind(last.unit)
    others = [n for n in named if _kind(n.unit) == kind and n.unit != last.unit]
    if not others or last.unit in {call.get(spec.target) for call in done}:
        return None
    earlier = [call for call in done if _kind(str(call.get(spec.target))) == kind]
    if earlier:
        return Due(last.unit, last.word, None, str(earlier[-1].get(spec.target)))
    given = next((n for n in others if n.number is not None), None)
    return None if given is None else Due(last.unit, last.word, given.number, given.unit)


def is_unit(word: str) -> bool:
    """Whether pint reads `word` as a unit of measure ("kilometers", "km", "days"): a number before it is a
    quantity of that unit, not a count of things."""
    return _unit(word) is not None


def unit_name(unit: str) -> str | None:
    """pint's name of a unit ("gallon" for "gal" and "gallons"), or None for no unit."""
    parsed = _unit(unit)
    return None if parsed is None else parsed[0]


def unit_kind(unit: str) -> str | None:
    """pint's dimensionality of a unit ("[length]"), or None for no unit."""
    return _kind(unit)


def _kind(unit: str) -> str | None:
    parsed = _unit(unit)
    return None if parsed is None else parsed[1]


@cache
def _unit(word: str) -> tuple[str, str] | None:
    """(pint's name of the unit, its dimensionality) for a symbol or word, or None. A one-letter symbol that pint
    reads as no temperature is tried as a degree scale too ("C" is coulomb to pint, "degC" Celsius)."""
    registry = _registry()
    names = [word, f"deg{word}"] if len(word) == 1 and word.isupper() else [word]
    for name in reversed(names):
        unit = _parsed(registry, name)
        if unit is None and len(name) > 3:
            unit = _parsed(registry, name.lower())  # "Celsius": pint's names are lower case
        if unit is None:
            continue
        if len(names) == 1 or "temperature" in str(unit.dimensionality):
            return str(unit), str(unit.dimensionality)
    return None


def _parsed(registry: Any, name: str) -> Any:
    try:
        return registry.parse_units(name)
    except Exception:  # pint raises several types for a word that is no unit
        return None


@cache
def _registry() -> Any:
    import pint

    return pint.UnitRegistry()


# "5.443108 lb + 1.133981 oz": a number and the unit it is in, written into arithmetic.
_QUANTITY = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([A-Za-z]+)\b")


def without_unit_words(expression: str, returned: set[float]) -> str:
    """`expression` with each unit word written straight after a number a tool returned left out, where every
    word in it is such a unit: the calculator takes numbers only, and a model that converted both weights wrote
    `5.443108 lb + 1.133981 oz` (independent12's cd20). The checks then read the numbers (a sum of two units is
    still held). The same string where it has another word ("price + 20"), none, or a unit after a number no tool
    returned ("12 feet * 4" is a conversion still due: `ToolTurn`'s failed-call repair reads it)."""
    words = re.findall(r"[A-Za-z_]+", expression)
    found = _QUANTITY.findall(expression)
    if not words or len(found) != len(words) or not all(is_unit(unit) for _, unit in found):
        return expression
    if not all(round(float(number), 9) in returned for number, _ in found):
        return expression
    return _QUANTITY.sub(lambda match: match.group(1), expression)
