"""The benchmark toolbox: small typed functions, the same for every system under test.

Docstrings are what a 0.5B model reads, so they stay short. Every function is plain Python (the raw loop and
the peers call them directly); `agent_tools(names)` wraps them as agentcore tools with `make_tool`.
Functions raise ValueError with a message the model can act on; frameworks show it as a tool error.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from agentcore.tools.builtin.calculator import calculator as _calculator_tool
from agentcore.tools.builtin.calculator import format_number

if TYPE_CHECKING:
    from agentcore.tools.function import Tool

TABLES_DIR = Path(__file__).resolve().parent / "tables"

Unit = Literal["km", "m", "cm", "mm", "mi", "yd", "ft", "in", "kg", "g", "lb", "oz", "l", "ml", "gal", "C", "F", "K"]
Table = Literal["capitals", "elements", "prices"]

# Each unit as (dimension, factor to the dimension's base unit: metre, kilogram, litre). Temperatures are affine.
_UNITS: dict[str, tuple[str, float]] = {
    "km": ("length", 1000.0),
    "m": ("length", 1.0),
    "cm": ("length", 0.01),
    "mm": ("length", 0.001),
    "mi": ("length", 1609.344),
    "yd": ("length", 0.9144),
    "ft": ("length", 0.3048),
    "in": ("length", 0.0254),
    "kg": ("mass", 1.0),
    "g": ("mass", 0.001),
    "lb": ("mass", 0.45359237),
    "oz": ("mass", 0.028349523125),
    "l": ("volume", 1.0),
    "ml": ("volume", 0.001),
    "gal": ("volume", 3.785411784),  # US gallon
}
_TEMPERATURES = ("C", "F", "K")


def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression with numbers, + - * / ** and parentheses.

    Args:
        expression: The expression to evaluate.
    """
    return str(_calculator_tool.function(expression))


def unit_convert(value: float, from_unit: Unit, to_unit: Unit) -> str:
    """Convert a value between units of length, mass, volume or temperature.

    Args:
        value: The number to convert.
        from_unit: Unit of the value: km m cm mm mi yd ft in, kg g lb oz, l ml gal, C F K.
        to_unit: Unit to convert to, of the same kind.
    """
    if from_unit in _TEMPERATURES or to_unit in _TEMPERATURES:
        if from_unit not in _TEMPERATURES or to_unit not in _TEMPERATURES:
            raise ValueError(f"cannot convert {from_unit} to {to_unit}: only C, F and K are temperatures")
        kelvin = _to_kelvin(value, from_unit)
        return str(format_number(round(_from_kelvin(kelvin, to_unit), 6)))
    source, target = _unit(from_unit), _unit(to_unit)
    if source[0] != target[0]:
        raise ValueError(f"cannot convert {from_unit} ({source[0]}) to {to_unit} ({target[0]})")
    return str(format_number(round(value * source[1] / target[1], 6)))


def _unit(name: str) -> tuple[str, float]:
    if name not in _UNITS:
        known = " ".join([*_UNITS, *_TEMPERATURES])
        raise ValueError(f"unknown unit {name!r}; known units: {known}")
    return _UNITS[name]


def _to_kelvin(value: float, unit: str) -> float:
    if unit == "C":
        return value + 273.15
    if unit == "F":
        return (value - 32) * 5 / 9 + 273.15
    return value


def _from_kelvin(kelvin: float, unit: str) -> float:
    if unit == "C":
        return kelvin - 273.15
    if unit == "F":
        return (kelvin - 273.15) * 9 / 5 + 32
    return kelvin


def date_diff(start: str, end: str) -> str:
    """Count the days between two dates.

    Args:
        start: First date, as YYYY-MM-DD.
        end: Second date, as YYYY-MM-DD.
    """
    return str(abs((_parse_date(end) - _parse_date(start)).days))  # unsigned: the order of the dates is moot


def _parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date; write it as YYYY-MM-DD, for example 2024-03-01") from None


def lookup(table: Table, key: str) -> str:
    """Look up a key in a table: capitals (country -> capital), elements (element -> symbol),
    prices (product -> price in dollars).

    Args:
        table: capitals, elements or prices.
        key: The country, element or product name.
    """
    rows = load_table(table)
    wanted = " ".join(key.lower().split())
    for candidate in (wanted, wanted.removesuffix("s"), wanted.removeprefix("the ")):
        if candidate in rows:
            value = rows[candidate]
            return str(format_number(value)) if isinstance(value, int | float) else str(value)
    raise ValueError(f"no {key!r} in {table}; keys: {', '.join(rows)}")


@cache
def load_table(name: str) -> dict[str, Any]:
    path = TABLES_DIR / f"{name}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in TABLES_DIR.glob("*.json")))
        raise ValueError(f"no table {name!r}; tables: {known}")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def word_count(text: str) -> str:
    """Count the words in a text.

    Args:
        text: The text.
    """
    return str(len(text.split()))


def reverse_string(text: str) -> str:
    """Reverse a string, character by character.

    Args:
        text: The string to reverse.
    """
    return text[::-1]


FUNCTIONS: dict[str, Callable[..., str]] = {
    "calculator": calculator,
    "unit_convert": unit_convert,
    "date_diff": date_diff,
    "lookup": lookup,
    "word_count": word_count,
    "reverse_string": reverse_string,
}
TOOL_NAMES = tuple(FUNCTIONS)


def check_names(names: Sequence[str]) -> None:
    unknown = [name for name in names if name not in FUNCTIONS]
    if unknown:
        raise ValueError(f"unknown tool(s) {', '.join(unknown)}; the toolbox has {', '.join(TOOL_NAMES)}")


def agent_tools(names: Sequence[str]) -> list[Tool]:
    """The named toolbox functions as agentcore tools, in the order given."""
    check_names(names)
    return [_agent_tool(name) for name in names]


@cache
def _agent_tool(name: str) -> Tool:
    from agentcore.tools.function import make_tool

    return make_tool(FUNCTIONS[name], timeout=10.0, read_only=True)  # pure functions, every one


def call(name: str, arguments: dict[str, Any]) -> str:
    """Call a toolbox function by name with JSON arguments (for loops without a tool layer)."""
    check_names([name])
    return FUNCTIONS[name](**arguments)
