"""Formula tools are offered after the tools that fetch their numbers (agentcore.tool_order)."""

from __future__ import annotations

from typing import Literal

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.messages import ToolSpec
from agentcore.testing import ScriptedModel, call
from agentcore.tool_order import computes, in_flow_order
from agentcore.tools.function import tool


def spec(name: str, **properties: str) -> ToolSpec:
    schema = {"type": "object", "properties": {k: {"type": t} for k, t in properties.items()}}
    return ToolSpec(name, "", {**schema, "required": list(properties)})


@tool(read_only=True)
def lookup(table: Literal["prices"], key: str) -> str:
    """Look up a price in dollars."""
    return {"desk": "240"}[key]


def test_a_tool_whose_one_argument_is_a_formula_computes() -> None:
    assert computes(spec("calculator", expression="string"))
    assert computes(spec("math", math_expression="string"))
    assert computes(spec("solve", equation="string"))


def test_tools_that_only_sound_like_arithmetic_do_not() -> None:
    """BFCL's functions are named calculate_*, with numbers as their arguments: they fetch, they are no formula."""
    assert not computes(spec("calculate_triangle_area", base="integer", height="integer"))
    assert not computes(spec("calculator", expression="integer"))
    assert not computes(spec("regex_match", expression="string", text="string"))


def test_the_order_is_a_stable_partition() -> None:
    calc, a, b = spec("calculator", expression="string"), spec("a", x="string"), spec("b", y="string")
    assert [s.name for s in in_flow_order([calc, a, b])] == ["a", "b", "calculator"]
    assert [s.name for s in in_flow_order([b, calc, a])] == ["b", "a", "calculator"]
    assert in_flow_order([a, b]) == (a, b)


async def test_the_model_is_shown_the_calculator_last_whatever_the_registration_order() -> None:
    model = ScriptedModel([call("lookup", table="prices", key="desk"), call("calculator", expression="240 / 5"), "48"])
    result = await Agent(model, tools=[calculator, lookup]).run("The desk's price divided among 5 people?")
    assert result.output == "48"
    assert [t.name for t in model.requests[0].tools] == ["lookup", "calculator"]
    system = model.requests[0].messages[0].content
    assert system.index("lookup") < system.index("calculator")


async def test_the_given_order_stays_when_the_agent_asks_for_it() -> None:
    model = ScriptedModel([call("calculator", expression="240 / 5"), "48"])
    agent = Agent(model, tools=[calculator, lookup])
    agent.flow_order = False
    await agent.run("What is 240 / 5?")
    assert [t.name for t in model.requests[0].tools] == ["calculator", "lookup"]


def test_every_operand_in_the_task_and_no_other_tool_named_keeps_the_given_order() -> None:
    """The demo: "A gizmo costs 7.25 dollars. What do 24 gizmos cost?" beside file tools read `gizmos.txt`."""
    calc = spec("calculator", expression="string")
    read = ToolSpec("read_file", "Read a text file from the workspace.", {"properties": {"path": {"type": "string"}}})
    assert [s.name for s in in_flow_order([calc, read], "A gizmo costs 7.25 dollars. What do 24 gizmos cost?")] == [
        "calculator",
        "read_file",
    ]
    task = "Read stock.txt and multiply the number in it by 3 and by 4."  # "read" names the file tool
    assert [s.name for s in in_flow_order([calc, read], task)] == ["read_file", "calculator"]
    assert [s.name for s in in_flow_order([calc, read], "What do 3 gizmos cost?")] == ["read_file", "calculator"]


def test_a_converter_or_a_date_tool_the_task_needs_counts_as_named() -> None:
    from bench import toolbox

    convert, dates, calc = (toolbox.agent_tools([n])[0].spec() for n in ("unit_convert", "date_diff", "calculator"))
    task = "My fish tank holds 20 US gallons. How many 500 ml bottles would fill it?"
    assert [s.name for s in in_flow_order([calc, convert], task)] == ["unit_convert", "calculator"]
    task = "From 2024-06-03 to 2024-06-17 at $135 a night: the stay's cost?"
    assert [s.name for s in in_flow_order([calc, dates], task)] == ["date_diff", "calculator"]
