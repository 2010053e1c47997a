"""Fuzz: tool arguments and tool results. Any argument dict a model can send gives the tool's result or a
ModelRetry (validation), never a raw exception from the tool machinery; any returned value becomes text."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import decimal
import enum
import fractions
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

import pytest
from fuzz_settings import awkward_text, count, fuzz, json_values, report_cases
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import BaseModel

from agentcore.context import RunContext
from agentcore.errors import ModelRetry, UserError
from agentcore.prompting import format_result
from agentcore.tools.builtin.calculator import calculator
from agentcore.tools.function import Tool, make_tool
from agentcore.tools.toolset import FunctionToolset


@pytest.fixture(scope="module", autouse=True)
def _cases(request: pytest.FixtureRequest) -> Iterator[None]:
    yield from report_cases(request)


class Point(BaseModel):
    x: int
    y: float
    label: str = ""


# Each body returns its arguments: any exception would come from the tool machinery, not from the tool.


async def add(a: int, b: float = 1.0) -> list[Any]:
    """Add two numbers."""
    return [a, b]


def echo(text: str, upper: bool = False) -> str:
    """Echo a text (a sync tool: it runs in a worker thread)."""
    return f"{text!r} {upper}"


async def convert(unit: Literal["km", "mi"], values: list[int]) -> dict[str, Any]:
    """Tag values with a unit."""
    return {"unit": unit, "values": values}


async def note(text: str | None = None, tags: list[str] | None = None, weight: float | int = 0) -> Any:
    """Optional arguments only."""
    return [text, tags, weight]


async def place(point: Point, points: list[Point] | None = None) -> Point:
    """A pydantic model argument, and one as the result."""
    return point


async def whoami(ctx: RunContext[None], n: int) -> list[Any]:
    """Takes the run context first."""
    return [ctx.run_id, n]


async def ping() -> str:
    """No arguments."""
    return "pong"


TOOLS: dict[str, Tool] = {
    fn.__name__: make_tool(fn, timeout=5) for fn in (add, echo, convert, note, place, whoami, ping)
}
PARAMS = sorted({name for t in TOOLS.values() for name in t.args_model.model_fields} | {"x", "y", "unit"})
CTX: RunContext[None] = RunContext(deps=None, run_id="fuzz", task="fuzz")

big_numbers = st.sampled_from([10**400, -(10**400), 1e308, float("inf"), float("nan"), 2**63, "9" * 5000, "1e999"])
argument_values = st.one_of(
    json_values,
    big_numbers,
    st.sampled_from(["km", "mi", "KM", " km"]),
    st.fixed_dictionaries({"x": json_values | big_numbers, "y": json_values | big_numbers}),
    st.lists(st.integers() | big_numbers | st.text(max_size=3), max_size=5),
)
arguments = st.one_of(
    st.dictionaries(st.sampled_from(PARAMS), argument_values, max_size=4),
    st.dictionaries(awkward_text, json_values, max_size=3),
)


def run_call(tool: Tool, args: dict[str, Any]) -> Any:
    """(True, result) or (False, message) for a ModelRetry; anything else escapes and fails the test."""
    try:
        return True, asyncio.run(tool.call(args, CTX))
    except ModelRetry as exc:
        return False, str(exc)


@fuzz(300)
@given(st.sampled_from(sorted(TOOLS)), arguments)
@example("add", {"a": "9" * 5000})
@example("add", {"a": 1, "b": 10**400})
@example("convert", {"unit": "km", "values": [10**400]})
@example("place", {"point": {"x": 1e308, "y": "nan"}})
@example("ping", {"": None})
@example("whoami", {"ctx": {}, "n": 1})
def test_tool_call_gives_a_result_or_a_model_retry(name: str, args: dict[str, Any]) -> None:
    count("tools.Tool.call")
    ok, value = run_call(TOOLS[name], args)
    assert isinstance(format_result(value) if ok else value, str)
    if not ok:
        assert value.startswith("invalid arguments")


@fuzz(60)
@given(awkward_text | st.sampled_from(sorted(TOOLS)), st.dictionaries(awkward_text, json_values, max_size=2))
def test_toolset_call_of_any_name(name: str, args: dict[str, Any]) -> None:
    count("tools.FunctionToolset.call_tool")
    toolset = FunctionToolset(list(TOOLS.values()))
    with contextlib.suppress(ModelRetry, UserError):
        asyncio.run(toolset.call_tool(name, args, CTX))


# The calculator is the tool small models call most; its contract: a text result, or ValueError with a message
# the model can act on (the loop shows it as a tool error), within milliseconds (it bounds its own work).
expressions = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789+-*/%().,^ xe", max_size=40),
    st.lists(
        st.sampled_from(["9", "99", "0", ".5", "1e308", "**", "*", "/", "//", "%", "+", "-", "(", ")", "^", "×", "÷"])
        | st.sampled_from(["sqrt(", "round(", "abs(", "log(", "factorial(", "pi", "e", ",", "x", "min(", "max("]),
        max_size=25,
    ).map("".join),
)


@fuzz(250)
@given(expressions)
@example("9**9**9**9")
@example("factorial(10**6)")
@example("round(1, -10**8)")
@example("(" * 200 + "1" + ")" * 200)
@example("-" * 400 + "1")
def test_calculator_gives_a_result_or_a_value_error_quickly(expression: str) -> None:
    count("tools.calculator")
    started = time.perf_counter()
    try:
        ok, value = run_call(calculator, {"expression": expression})
    except ValueError:
        ok, value = False, ""
    assert time.perf_counter() - started < 5.0, expression  # milliseconds, with room for a loaded CI machine
    assert isinstance(format_result(value) if ok else value, str)


# --- tool results -----------------------------------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"


@dataclass
class Box:
    content: Any


class Opaque:
    __slots__ = ()


python_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(),
    st.binary(max_size=8),
    st.complex_numbers(),
    st.decimals(),
    st.fractions(),
    st.datetimes(),
    st.dates(),
    st.uuids(),
    st.just(Colour.RED),
    st.just(Opaque()),
    st.just(PurePosixPath("a/b")),
    st.just(Point(x=1, y=2.5)),
    st.just(...),
    st.just(print),
)
python_values: st.SearchStrategy[Any] = st.recursive(
    python_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.frozensets(st.integers() | st.text(max_size=3), max_size=3),
        st.dictionaries(st.text(max_size=4) | st.integers() | st.none() | st.tuples(st.integers()), inner, max_size=3),
        inner.map(Box),
    ),
    max_leaves=8,
)


def _circular() -> list[Any]:
    loop: list[Any] = [1]
    loop.append(loop)
    return loop


@fuzz(250)
@given(python_values)
@example(_circular())
@example({"k": float("nan"), "big": 10**400})
@example(decimal.Decimal("NaN"))
@example(fractions.Fraction(1, 3))
@example(dt.UTC)
@example(uuid.UUID(int=0))
def test_format_result_of_any_value_is_text(value: Any) -> None:
    count("prompting.format_result")
    text = format_result(value)
    assert isinstance(text, str)
    if isinstance(value, str):
        assert text == value


def _deep(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


def test_format_result_of_a_deeply_nested_value_is_text() -> None:
    count("prompting.format_result")
    assert isinstance(format_result(_deep(100_000)), str)


def test_format_result_of_a_huge_integer_is_text() -> None:
    count("prompting.format_result")
    assert isinstance(format_result({"n": 10**5000}), str)


class BadStr:
    def __str__(self) -> str:
        raise RuntimeError("broken __str__")

    __repr__ = __str__


def test_format_result_of_a_value_with_a_broken_str_is_text() -> None:
    count("prompting.format_result")
    assert isinstance(format_result([BadStr()]), str)
