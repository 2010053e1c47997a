"""A repeated call on the task's dates runs on the dates written after them (fortieth stop; independent14's cg21:
"how many days from 2024-01-01 to 2024-03-15, how many from 2024-03-15 to 2024-12-25, and the difference")."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.still_to_use import next_dates
from agentcore.testing import ScriptedModel, call
from bench import toolbox

TASK = (
    "For a school project: how many days are there from 2024-01-01 to 2024-03-15, how many from 2024-03-15 to"
    " 2024-12-25, and what is the difference between those two counts?"
)


def test_the_next_dates_follow_the_ones_a_call_took_in_the_same_order() -> None:
    first = {"start": "2024-01-01", "end": "2024-03-15"}
    assert next_dates(TASK, first) == {"start": "2024-03-15", "end": "2024-12-25"}
    assert next_dates(TASK, {"end": "2024-03-15", "start": "2024-01-01"}) == {
        "end": "2024-12-25",
        "start": "2024-03-15",
    }
    assert next_dates(TASK, {"start": "2024-03-15", "end": "2024-12-25"}) is None  # no dates after the last ones
    assert next_dates(TASK, {"start": "2023-01-01", "end": "2024-03-15"}) is None  # a date the task never wrote
    assert next_dates("What weekday is 2024-01-01, and 2024-05-05?", {"date": "2024-01-01"}) == {"date": "2024-05-05"}
    assert next_dates("Days from 1/2/2024 to 2024-03-01", {"start": "2024-01-02", "end": "2024-03-01"}) is None


async def test_a_repeated_count_of_days_runs_on_the_next_pair_of_dates() -> None:
    first = call("date_diff", start="2024-01-01", end="2024-03-15")
    script = [first, first, call("calculator", expression="285 - 74"), "211"]
    tools = toolbox.agent_tools(["calculator", "date_diff"])
    result = await Agent(ScriptedModel(script), tools=tools, max_steps=8).run(TASK)
    counted = [s.call.arguments for s in result.steps if s.call is not None and s.call.name == "date_diff"]
    assert counted == [first.arguments, {"start": "2024-03-15", "end": "2024-12-25"}]
    assert result.steps[1].result == "285"
    assert result.output == "211"


async def test_an_answer_that_repeats_one_of_two_counts_whose_difference_is_asked_is_sent_back() -> None:
    first = call("date_diff", start="2024-01-01", end="2024-03-15")
    second = call("date_diff", start="2024-03-15", end="2024-12-25")
    script = [first, second, "285", call("calculator", expression="285 - 74"), "211"]
    model = ScriptedModel(script)
    tools = toolbox.agent_tools(["calculator", "date_diff"])
    result = await Agent(model, tools=tools, max_steps=8).run(TASK)
    notice = str(model.requests[3].messages[-1].content)
    assert "74" in notice and "285" in notice
    assert result.output == "211"
