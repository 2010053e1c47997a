"""A date the task writes, copied into a call with another day of its month, goes as the task's
(`agentcore.date_slips`, a form of `call_forms`)."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.date_slips import on_task_dates
from agentcore.dates import task_dates
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

LEASE = "We signed on the 5th of May 1995 and it runs until the 30th of September 2030. How many days is that?"


def test_task_dates_reads_dates_in_words_and_digits_in_order() -> None:
    assert task_dates(LEASE) == [(1995, 5, 5), (2030, 9, 30)]
    assert task_dates("From 2024-01-01 to March 4th, 2024.") == [(2024, 1, 1), (2024, 3, 4)]
    assert task_dates("From 1 June to 21 June.") == []  # no year: no full date


def test_the_one_date_copied_with_another_day_goes_as_the_tasks() -> None:
    fixed = on_task_dates({"start": "1995-05-01", "end": "2030-09-30"}, {}, LEASE)
    assert fixed == {"start": "1995-05-05", "end": "2030-09-30"}


def test_dates_of_the_models_own_stand() -> None:
    right = {"start": "1995-05-05", "end": "2030-09-30"}
    assert on_task_dates(right, {}, LEASE) is right
    other_month = {"start": "1995-06-05", "end": "2030-09-30"}
    assert on_task_dates(other_month, {}, LEASE) is other_month
    one_date = {"date": "1995-05-06"}  # "the day after": one date of the call may be the model's own
    assert on_task_dates(one_date, {}, "What is the day after 5 May 1995?") is one_date
    both_slipped = {"start": "1995-05-01", "end": "2030-09-01"}  # two slips: no one task date left to take
    assert on_task_dates(both_slipped, {}, LEASE) is both_slipped


@tool
def date_diff(start: str, end: str) -> str:
    """Count the days between two dates.

    Args:
        start: First date, as YYYY-MM-DD.
        end: Second date, as YYYY-MM-DD.
    """
    from datetime import date

    return str(abs((date.fromisoformat(end) - date.fromisoformat(start)).days))


async def test_the_loop_runs_the_call_on_the_tasks_date() -> None:
    model = ScriptedModel([call("date_diff", start="1995-05-01", end="2030-09-30"), "12932"])
    result = await Agent(model, tools=[date_diff]).run(LEASE)
    assert result.steps[0].call is not None
    assert result.steps[0].call.arguments["start"] == "1995-05-05"
    assert result.steps[0].result == "12932"
