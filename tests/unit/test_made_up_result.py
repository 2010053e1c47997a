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
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
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
