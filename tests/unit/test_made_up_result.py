"""A call that takes the result of a call on made-up inputs is held back once (loop_checks.made_up_result_call)."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product."""
    return {"laptop": "899", "chair": "45"}[key]


TASK = "What is the price of a laptop less one tenth of itself?"


async def test_a_made_up_result_taken_again_is_held_and_the_call_written_out_with_the_fetched_value() -> None:
    model = ScriptedModel(
        [
            call("calculator", expression="100 - 0.1 * 100"),  # the price made up
            "90",
            call("lookup", key="laptop"),
            call("calculator", expression="90 - 0.1 * 899"),  # the made-up 90 taken on: held back
            call("calculator", expression="899 - 0.1 * 899"),
            "809.1",
        ]
    )
    agent: Agent[None, str] = Agent(model, tools=[lookup, calculator])
    agent.fetch_first = False  # the made-up call runs, as where nothing held it back (agentcore.fetch_first)
    result = await agent.run(TASK)
    notice = model.requests[4].messages[-1].content
    assert notice.startswith('Not run: 90 came from calculator({"expression": "100 - 0.1 * 100"}), whose inputs')
    assert notice.endswith('{"tool": "calculator", "arguments": {"expression": "899 - 0.1 * 899"}}')
    assert [t.name for t in model.requests[4].tools] == ["calculator"]
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert {"expression": "90 - 0.1 * 899"} not in ran and result.output == "809.1"


async def test_a_result_of_real_inputs_is_taken_on_freely() -> None:
    model = ScriptedModel(
        [
            call("lookup", key="laptop"),
            call("calculator", expression="899 * 0.1"),
            call("calculator", expression="899 - 89.9"),
            "809.1",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert all(not s.tool_error for s in result.steps if s.call is not None) and result.output == "809.1"


async def test_a_result_of_a_line_the_conversion_started_again_is_held_and_redone_on_the_converted_value() -> None:
    from bench import toolbox

    model = ScriptedModel(
        [
            call("calculator", expression="12 * 3 * 1000"),  # kilograms worked as grams, before any conversion
            "36000",  # sent back: the task asks for pounds
            call("unit_convert", value=12, from_unit="kg", to_unit="lb"),
            call("calculator", expression="36000 * 26.455471"),  # the superseded 36000 taken on: held back
            call("calculator", expression="26.455471 * 3"),
            "79.366413",
        ]
    )
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    result = await Agent(model, tools=tools).run("A crate weighs 12 kilograms. What do 3 crates weigh in pounds?")
    notice = model.requests[4].messages[-1].content
    assert notice.startswith('Not run: 36000 came from calculator({"expression": "12 * 3 * 1000"}), which a later')
    assert notice.endswith('{"tool": "calculator", "arguments": {"expression": "26.455471 * 3"}}')  # 1000 left out
    assert result.output == "79.366413"


async def test_an_answer_from_a_line_the_conversion_started_again_goes_back_with_that_line_on_the_result() -> None:
    from bench import toolbox

    model = ScriptedModel(
        [
            call("calculator", expression="12 * 3 * 1000"),  # kilograms worked as grams, before any conversion
            "36000",  # sent back: the task asks for pounds
            call("unit_convert", value=12, from_unit="kg", to_unit="lb"),
            "36000",  # the superseded line again: the notice writes it on 26.455471, the own 1000 left out
            call("calculator", expression="79.4"),  # worked out in the head: the call written out runs
            "36000",  # the old line's result again: the redo's result wins
        ]
    )
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    result = await Agent(model, tools=tools).run("A crate weighs 12 kilograms. What do 3 crates weigh in pounds?")
    notice = model.requests[4].messages[-1].content
    assert notice.startswith('Not done yet: 36000 came from calculator({"expression": "12 * 3 * 1000"}), but')
    assert notice.endswith('{"tool": "calculator", "arguments": {"expression": "26.455471 * 3"}}')
    assert [t.name for t in model.requests[4].tools] == ["calculator"]
    assert result.steps[-2].call == call("calculator", expression="26.455471 * 3")
    assert result.output == "79.366413"
    assert any(e["kind"] == "notice" and "replaced by its redo" in str(e["message"]) for e in result.trace)
