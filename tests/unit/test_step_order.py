"""Two steps written as one flat expression in an order its precedence breaks (agentcore.step_order)."""

from __future__ import annotations

import pytest
from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.step_order import current_step_only
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("expression", "step", "results", "later", "fixed"),
    [
        ("64 + 20 / 2", "add 20", ["64"], ["halve the total"], "64 + 20"),
        ("3 + 10 * 3", "add 10", ["3"], ["multiply the sum by 3"], "3 + 10"),  # 3 is the count and the factor
        ("64 + 20 / 2", "add 20", ["64"], [], "64 + 20 / 2"),  # no later step: the expression is the step
        ("64 + 20 / 4", "add 20 divided by 4", ["64"], ["halve it"], "64 + 20 / 4"),  # the step writes both
        ("159 + 159 * 0.10", "add a tenth of it", ["159"], ["halve it"], "159 + 159 * 0.10"),  # a portion
        ("7.25 + 3 * 7.25", "add 3 times it", ["7.25"], ["halve it"], "7.25 + 3 * 7.25"),  # ... of the result
        ("64 + 20 / 2", "add 20", ["12"], ["halve the total"], "64 + 20 / 2"),  # not on the latest result
        ("64 * 20 + 2", "multiply by 20", ["64"], ["add 2"], "64 * 20 + 2"),  # precedence follows the order
        ("7 + 4**2", "add 4", ["7"], ["square the result"], "7 + 4"),  # compose13 b12: a power too
        ("7 + 4 ** 2", "add 4 squared", ["7"], ["halve it"], "7 + 4 ** 2"),  # the step names the power
        # independent1's ar21: the last step done before the halving between
        ("104 + 10 - 3", "add 10", ["104"], ["halve the result", "subtract 3"], "104 + 10"),
        ("104 + 10 - 3", "add 10", ["104"], ["subtract 3", "halve it"], "104 + 10 - 3"),  # the next step's 3
        ("104 + 10 - 3", "add 10 less 3", ["104"], ["halve it", "subtract 3"], "104 + 10 - 3"),  # ... the current's
    ],
)
def test_current_step_only(expression: str, step: str, results: list[str], later: list[str], fixed: str) -> None:
    assert current_step_only(expression, step, results, later) == fixed


@tool(read_only=True)
def price(product: str) -> str:
    """Price of a product in dollars."""
    return {"webcam": "64"}[product]


async def test_a_later_steps_operation_waits_for_its_step() -> None:
    script = [call("price", product="webcam"), call("calculator", expression="64 + 20 / 2")]
    model = ScriptedModel([*script, call("calculator", expression="84 / 2"), "42"])
    result = await Agent(model, tools=[price, calculator]).run(
        "Look up the price of a webcam, add 20, and halve the total."
    )
    ran = [s.call.arguments for s in result.steps if s.call is not None and s.call.name == "calculator"]
    assert ran == [{"expression": "64 + 20"}, {"expression": "84 / 2"}]
    assert result.output == "42"


async def test_a_step_after_the_next_waits_for_its_turn() -> None:
    """independent1's ar21, as it ran: `104 + 10 - 3` right after the conversion."""
    from bench import toolbox

    script = [call("unit_convert", value=40, from_unit="C", to_unit="F"), call("calculator", expression="104 + 10 - 3")]
    script += [call("calculator", expression="114 / 2"), call("calculator", expression="57 - 3"), "54"]
    task = "Take 40 °C, convert it to Fahrenheit, add 10, halve the result and subtract 3."
    result = await Agent(ScriptedModel(script), tools=toolbox.agent_tools(["unit_convert", "calculator"])).run(task)
    ran = [s.call.arguments for s in result.steps if s.call is not None and s.call.name == "calculator"]
    assert ran[0] == {"expression": "104 + 10"} and result.output == "54"
