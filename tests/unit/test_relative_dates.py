"""The day a task asks about, against a today it states (agentcore.relative_dates)."""

from __future__ import annotations

import datetime

import pytest

from agentcore.agent import Agent
from agentcore.relative_dates import asked_day, on_asked_day
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

D = datetime.date


@pytest.mark.parametrize(
    ("task", "day"),
    [
        ("The weather in New York tomorrow? today is 2023.10.1", D(2023, 10, 2)),
        ("Something the day after tomorrow. Today is 2023-10-01", D(2023, 10, 3)),
        ("Something Tuesday next week in NY. Today is tuesday 2023.10.10", D(2023, 10, 17)),
        ("The weather in Seattle on the 4th of march 2023? today is 2023.10.1", D(2023, 3, 4)),
        # the weekday the user gives for today counts over the calendar's (2023-04-25 was a Tuesday)
        ("The forecast on the upcoming Wednesday, today is Monday April 25th 2023?", D(2023, 4, 27)),
        ("The forecast for the upcoming Monday, assuming today is April 4th, 2023?", D(2023, 4, 10)),
        ("Events next Monday. today is 2023-10-1 monday", D(2023, 10, 8)),  # never today itself
        ("A music event on the 25th of march 2023? today is march 15th", D(2023, 3, 25)),  # its year from the task
        # a month and day alone are in today's year, or the next where the task says so
        ("The forecast for Philadelphia on April 13th of next year? today is 2023.10.1", D(2024, 4, 13)),
        ("The weather in Miami on March 3rd? today is 2023.10.1", D(2023, 3, 3)),
    ],
)
def test_asked_day(task: str, day: datetime.date) -> None:
    found = asked_day(task)
    assert found is not None and found[1] == day


@pytest.mark.parametrize(
    "task",
    [
        "Concerts this weekend? Today is friday 2023-10-01",  # no one day
        "Tomorrow or next Friday? Today is 2023-10-01",  # two days
        "The weather tomorrow in Paris",  # no today stated
        "Today is 2023-02-30, what about tomorrow?",  # no such date
    ],
)
def test_no_one_day_asked(task: str) -> None:
    assert asked_day(task) is None


# Optional strings: a date in two documented layouts, and a note that takes no date.
_DOCS = {"city": "", "date": "The date, in the format 'YYYY-MM-DD'.", "on": "The day, MM/DD/YYYY.", "note": "A note."}
DATED = {"type": "object", "properties": {name: {"type": "string", "description": d} for name, d in _DOCS.items()}}


def test_today_or_a_day_word_becomes_the_asked_day_in_the_documented_layout() -> None:
    task = "The weather in New York tomorrow? today is 2023.10.1"
    assert on_asked_day({"city": "NY", "date": "2023.10.1"}, DATED, task) == {"city": "NY", "date": "2023-10-02"}
    assert on_asked_day({"on": "tomorrow"}, DATED, task) == {"on": "10/02/2023"}
    # a past date the task never writes, in the only date argument, stands in for the asked day too
    assert on_asked_day({"date": "2023-09-01"}, DATED, task) == {"date": "2023-10-02"}
    # not a later one, nor one beside another date, nor in an argument that takes no date
    assert on_asked_day({"date": "2023-10-05"}, DATED, task) == {"date": "2023-10-05"}
    assert on_asked_day({"date": "2023-09-01", "on": "10/09/2023"}, DATED, task) == {
        "date": "2023-09-01", "on": "10/09/2023"
    }  # fmt: skip
    assert on_asked_day({"note": "2023.10.1"}, DATED, task) == {"note": "2023.10.1"}


@tool
def get_weather(city: str, date: str = "today") -> str:
    """The weather forecast.

    Args:
        city: The city.
        date: The date of the forecast, in the format 'YYYY-MM-DD'.
    """
    return f"{city} on {date}: sunny"


async def test_the_call_runs_on_the_day_asked() -> None:
    model = ScriptedModel([call("get_weather", city="New York", date="2023.10.1"), "Sunny."])
    result = await Agent(model, tools=[get_weather]).run("The weather in New York tomorrow? today is 2023.10.1")
    assert result.steps[0].result == "New York on 2023-10-02: sunny"
