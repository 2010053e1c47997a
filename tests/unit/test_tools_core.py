"""`@tool` and toolsets: schemas from hints and docstrings, sync/async calls, RunContext, composition."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Literal

import pytest

from agentcore.context import RunContext
from agentcore.errors import ModelRetry, UserError
from agentcore.tools.function import Tool, parse_docstring, tool
from agentcore.tools.toolset import CombinedToolset, FilteredToolset, FunctionToolset, as_toolset


@dataclass
class Deps:
    greeting: str


def ctx(deps: object = None) -> RunContext[object]:
    return RunContext(deps=deps, run_id="r1", task="t")


@tool
def weather(city: str, unit: Literal["c", "f"] = "c", days: int = 1) -> str:
    """Get the weather forecast.

    Args:
        city: Name of the city.
        unit (str): Temperature unit.
        days: How many days ahead.
    """
    return f"{city}:{unit}:{days}"


@tool(name="shout", description="Upper-case text.", timeout=1.5, max_retries=4)
async def loud(text: str) -> str:
    await asyncio.sleep(0)
    return text.upper()


@tool
def greet(ctx: RunContext[Deps], name: str) -> str:
    """Greet someone with the app's greeting."""
    return f"{ctx.deps.greeting}, {name} (run {ctx.run_id})"


# --- schemas ------------------------------------------------------------------------------------------------


def test_schema_from_hints_and_docstring() -> None:
    assert isinstance(weather, Tool)
    assert weather.name == "weather" and weather.description == "Get the weather forecast."
    params = weather.parameters
    assert params["required"] == ["city"]
    props = params["properties"]
    assert list(props) == ["city", "unit", "days"]
    assert props["city"]["type"] == "string" and props["city"]["description"] == "Name of the city."
    assert props["unit"]["enum"] == ["c", "f"] and props["unit"]["default"] == "c"
    assert props["unit"]["description"] == "Temperature unit."
    assert props["days"] == {
        "default": 1,
        "description": "How many days ahead.",
        "title": "Days",
        "type": "integer",
    }
    spec = weather.spec()
    assert (spec.name, spec.description, spec.parameters) == ("weather", weather.description, params)


def test_decorator_options() -> None:
    assert loud.name == "shout" and loud.description == "Upper-case text."
    assert (loud.timeout, loud.max_retries) == (1.5, 4)
    assert FunctionToolset([loud]).tool_settings("shout") == (1.5, 4)


def test_run_context_parameter_is_injected_not_in_schema() -> None:
    assert greet.takes_ctx and not weather.takes_ctx
    assert list(greet.parameters["properties"]) == ["name"]


def test_missing_annotation_is_a_user_error() -> None:
    def bad(x, y: int) -> int:  # type: ignore[no-untyped-def]
        return y

    with pytest.raises(UserError, match="'x' needs a type annotation"):
        tool(bad)


def test_description_falls_back_to_the_name() -> None:
    def nodoc(x: int) -> int:
        return x

    assert tool(nodoc).description == "nodoc"


def test_parse_docstring_summary_and_args() -> None:
    summary, params = parse_docstring(
        """Find files.

        Longer explanation
        over two lines.

        Args:
            pattern: A glob.
            limit (int): At most this many.
        """
    )
    assert summary == "Find files. Longer explanation over two lines."
    assert params == {"pattern": "A glob.", "limit": "At most this many."}
    assert parse_docstring("Sum.\n\nReturns:\n    the sum\n") == ("Sum.", {})


@pytest.mark.parametrize("section", ["Returns:\n    the sum\n", "Example:\n    add(1, 2)\n"])
def test_sections_after_args_are_not_part_of_the_description(section: str) -> None:
    summary, params = parse_docstring("Add numbers.\n\nArgs:\n    a: first\n\n" + section)
    assert params == {"a": "first"}
    assert summary == "Add numbers."


# --- calling ------------------------------------------------------------------------------------------------


async def test_sync_tool_runs_in_a_worker_thread() -> None:
    seen: list[int] = []

    @tool
    def where(x: int) -> int:
        """Record the thread."""
        seen.append(threading.get_ident())
        return x * 2

    assert await where.call({"x": 21}, ctx()) == 42
    assert seen and seen[0] != threading.get_ident()


async def test_async_tool_and_argument_coercion() -> None:
    assert await loud.call({"text": "hi"}, ctx()) == "HI"
    assert await weather.call({"city": "Oslo", "days": "3"}, ctx()) == "Oslo:c:3"  # lax pydantic coercion


async def test_run_context_is_passed_to_the_tool() -> None:
    result = await greet.call({"name": "Ada"}, ctx(Deps("Hello")))
    assert result == "Hello, Ada (run r1)"


async def test_validation_errors_become_model_retry_with_the_field() -> None:
    with pytest.raises(ModelRetry, match=r"invalid arguments: days: .*integer"):
        await weather.call({"city": "Oslo", "days": "many"}, ctx())
    with pytest.raises(ModelRetry, match="city: Field required"):
        await weather.call({}, ctx())


async def test_tool_timeout_raises_timeout_error() -> None:
    @tool(timeout=0.05)
    async def slow() -> str:
        """Sleep."""
        await asyncio.sleep(5)
        return "late"

    with pytest.raises(TimeoutError):
        await slow.call({}, ctx())


# --- toolsets -----------------------------------------------------------------------------------------------


async def test_function_toolset_lists_and_calls() -> None:
    def plain(n: int) -> int:
        """A plain function becomes a tool."""
        return n + 1

    toolset = FunctionToolset([weather, plain])
    assert [s.name for s in await toolset.list_tools()] == ["weather", "plain"]
    assert await toolset.call_tool("plain", {"n": 1}, ctx()) == 2
    with pytest.raises(UserError, match="no tool named 'nope'"):
        await toolset.call_tool("nope", {}, ctx())


def test_duplicate_names_are_a_user_error() -> None:
    def weather(city: str) -> str:  # same name as the module-level tool
        return city

    with pytest.raises(UserError, match="two tools are named 'weather'"):
        FunctionToolset([globals()["weather"], weather])


async def test_duplicate_names_across_combined_toolsets_are_a_user_error() -> None:
    def other_weather(city: str) -> str:
        return city

    combined = FunctionToolset([weather]) | FunctionToolset([tool(name="weather")(other_weather)])
    with pytest.raises(UserError, match="both provide a tool named 'weather'"):
        await combined.list_tools()


async def test_or_composes_toolsets() -> None:
    combined = FunctionToolset([weather]) | FunctionToolset([loud])
    assert isinstance(combined, CombinedToolset)
    assert [s.name for s in await combined.list_tools()] == ["weather", "shout"]
    assert await combined.call_tool("shout", {"text": "a"}, ctx()) == "A"
    assert combined.tool_settings("shout") == (1.5, 4)
    with pytest.raises(UserError, match="no tool named 'x'"):
        await combined.call_tool("x", {}, ctx())


async def test_combined_toolset_calls_before_listing() -> None:
    combined = FunctionToolset([weather]) | FunctionToolset([loud])
    assert await combined.call_tool("weather", {"city": "Rome"}, ctx()) == "Rome:c:1"


async def test_filtered_hides_and_refuses() -> None:
    full = FunctionToolset([weather, loud, greet])
    only = full.filtered(names=["shout"])
    assert isinstance(only, FilteredToolset)
    assert [s.name for s in await only.list_tools()] == ["shout"]
    assert await only.call_tool("shout", {"text": "x"}, ctx()) == "X"
    with pytest.raises(UserError, match="filtered out"):
        await only.call_tool("weather", {"city": "Oslo"}, ctx())


async def test_filtered_refuses_even_before_listing_and_with_a_predicate() -> None:
    full = FunctionToolset([weather, loud])
    with pytest.raises(UserError, match="filtered out"):
        await full.filtered(names=["shout"]).call_tool("weather", {"city": "Oslo"}, ctx())
    no_weather = full.filtered(predicate=lambda spec: "weather" not in spec.description)
    assert [s.name for s in await no_weather.list_tools()] == ["shout"]


async def test_as_toolset_accepts_lists_of_tools_functions_and_toolsets() -> None:
    def plain(n: int) -> int:
        return n

    assert isinstance(as_toolset(None), FunctionToolset)
    existing = FunctionToolset([loud])
    assert as_toolset(existing) is existing
    mixed = as_toolset([weather, plain, existing])
    assert sorted(s.name for s in await mixed.list_tools()) == ["plain", "shout", "weather"]
