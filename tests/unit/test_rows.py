"""An answer taken from the wrong line of a many-line result goes back once, quoting the line the task names."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.rows import wrong_row
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

PRICES = "widget: 4.25 dollars\ngadget: 12.50 dollars\ngizmo: 7.00 dollars"
TASK = "How much does a gizmo cost? The prices are in prices.txt."


def test_wrong_row() -> None:
    assert wrong_row(TASK, "widget: 4.25 dollars", PRICES) == "gizmo: 7.00 dollars"
    assert wrong_row(TASK, "The gizmo costs 7 dollars.", PRICES) is None  # the named line
    assert wrong_row(TASK, "I do not know.", PRICES) is None  # no number of any line
    assert wrong_row("What costs most?", "gadget: 12.50", PRICES) is None  # the task names no line
    assert wrong_row("A gizmo or a gadget?", "widget: 4.25", PRICES) is None  # two named lines: no one right row
    assert wrong_row(TASK, "4.25", "widget: 4.25 dollars") is None  # one line is no table


@tool
def read_prices() -> str:
    """The price list."""
    return PRICES


async def test_an_answer_from_the_wrong_row_goes_back_once() -> None:
    model = ScriptedModel([call("read_prices"), "widget: 4.25 dollars", "gizmo: 7.00 dollars"])
    result = await Agent(model, tools=[read_prices]).run(TASK)
    assert result.output == "gizmo: 7.00 dollars"
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not done yet: widget: 4.25 dollars is taken from a line the task does not ask about.")
    assert "The line it asks about is: gizmo: 7.00 dollars" in notice


async def test_the_row_check_fires_once() -> None:
    model = ScriptedModel([call("read_prices"), "widget: 4.25 dollars", "widget: 4.25 dollars"])
    result = await Agent(model, tools=[read_prices]).run(TASK)
    assert result.output == "widget: 4.25 dollars" and len(model.requests) == 3
