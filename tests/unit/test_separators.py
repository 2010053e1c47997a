"""A number the task writes with thousands separators goes into an expression without them
(`agentcore.separators`, a form of `call_forms`)."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.separators import without_separators
from agentcore.testing import ScriptedModel, call
from agentcore.tools.builtin.calculator import calculator

TASK = "(73,415 + 28,906) minus 9,877 = ?"


def test_the_tasks_separated_numbers_go_plain_in_an_expression() -> None:
    fixed = without_separators({"expression": "(73,415 + 28,906) - 9,877"}, {}, TASK)
    assert fixed == {"expression": "(73415 + 28906) - 9877"}


def test_other_commas_stand() -> None:
    args = {"expression": "max(1,234)"}
    assert without_separators(args, {}, TASK) is args  # the task never writes 1,234
    text = {"text": "73,415"}
    assert without_separators(text, {}, TASK) is text  # no operator: no expression
    assert without_separators(args, {}, "What is max of 1 and 234?") is args  # nothing separated in the task


async def test_the_loop_runs_the_plain_expression() -> None:
    model = ScriptedModel([call("calculator", expression="(73,415 + 28,906) - 9,877"), "92444"])
    result = await Agent(model, tools=[calculator]).run(TASK)
    assert result.steps[0].result == "92444"
