"""A flat expression of the task's numbers, in the task's order, goes with the parentheses its back-reference asks
for (`agentcore.said_order`, a form of `call_forms`)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.said_order import in_said_order
from agentcore.testing import ScriptedModel, call
from agentcore.tools.builtin.calculator import calculator

LEFT = "Take 86,420, subtract 39,875, and multiply what's left by 13. What number do you end up with?"


@pytest.mark.parametrize(
    ("task", "expression", "meant"),
    [
        (LEFT, "86420 - 39875 * 13", "(86420 - 39875) * 13"),
        ("Add 64 and 20, then halve the result by 2.", "64 + 20 / 2", "(64 + 20) / 2"),
        ("What is 20 minus 3 times 4?", "20 - 3 * 4", "20 - 3 * 4"),  # no reference back: precedence is meant
        ("Subtract 39,875 times 13 from 86,420.", "86420 - 39875 * 13", "86420 - 39875 * 13"),  # another order
        (LEFT, "(86420 - 39875) * 13", "(86420 - 39875) * 13"),  # already grouped
        (LEFT, "86420 - 39875 * 12", "86420 - 39875 * 12"),  # a number the task does not write
    ],
)
def test_a_result_referred_back_to_groups_the_earlier_operation(task: str, expression: str, meant: str) -> None:
    assert in_said_order({"expression": expression}, {}, task) == {"expression": meant}


async def test_the_loop_runs_the_grouped_expression() -> None:
    model = ScriptedModel([call("calculator", expression="86420 - 39875 * 13"), "605085"])
    result = await Agent(model, tools=[calculator]).run(LEFT)
    assert result.steps[0].call is not None
    assert result.steps[0].call.arguments == {"expression": "(86420 - 39875) * 13"}
    assert result.steps[0].result == "605085"
