"""A count added to a value of another kind is held, and shown multiplied (agentcore.mixed_kinds)."""

from __future__ import annotations

import pytest

from agentcore import Agent
from agentcore.messages import ToolSpec
from agentcore.mixed_kinds import count_summed, counted
from agentcore.testing import ScriptedModel, call

COUNTS = {"date_diff": "days"}
STEPS = [("date_diff", "75"), ("lookup", "7.25")]


@pytest.mark.parametrize(
    ("description", "what"),
    [("Count the days between two dates.", "days"), ("Count the words in a text.", "words"), ("Look up a key.", None)],
)
def test_what_a_tool_counts_is_read_from_its_docs(description: str, what: str | None) -> None:
    assert counted(ToolSpec("t", description, {})) == what


@pytest.mark.parametrize(
    ("expression", "held"),
    [
        ("75 + 7.25", True),
        ("7.25 - 75", True),
        ("(75 + 7.25) * 2", True),  # the sum means nothing, whatever it is multiplied by
        ("75 * 7.25", False),
        ("2 * 75 + 7.25", False),  # 75 is a factor, not a term
        ("175 + 7.25", False),
    ],
)
def test_a_count_and_a_value_of_another_tool_added(expression: str, held: bool) -> None:
    found = count_summed({"expression": expression}, STEPS, COUNTS)
    assert (found == ("75", "days", "7.25", "lookup")) is held


def test_two_counts_of_one_kind_add() -> None:
    """Two projects' day counts add up: both are days (independent8's ca20)."""
    steps = [("date_diff", "136"), ("date_diff", "141")]
    assert count_summed({"expression": "136 + 141"}, steps, COUNTS) is None


async def test_a_day_count_added_to_a_price_is_held_and_shown_multiplied() -> None:
    """independent10's cc24: `75 + 7.25` after the days and the mug's price."""
    from bench import toolbox

    task = "I buy one coffee mug every day. How much will I have spent on mugs from 2024-03-01 to 2024-05-15?"
    days = call("date_diff", start="2024-03-01", end="2024-05-15")
    mug = call("lookup", table="prices", key="coffee mug")
    script = [days, mug, call("calculator", expression="75 + 7.25"), call("calculator", expression="75 * 7.25")]
    model = ScriptedModel([*script, "543.75"])
    result = await Agent(model, tools=toolbox.agent_tools(["date_diff", "lookup", "calculator"])).run(task)
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not run: 75 is a number of days and 7.25 is a value from lookup")
    assert '"expression": "75 * 7.25"' in notice
    assert [t.name for t in model.requests[3].tools] == ["calculator"]
    assert result.output == "543.75"
