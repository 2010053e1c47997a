"""A time goes in the layout its argument's docs name, its half of the day taken from the task where the value
has none (`agentcore.times`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.times import Layout, as_task_time, documented_time, in_documented_time
from agentcore.tools.function import tool

HM = "The pick-up time in the format 'HH:MM'."
STAMP = "The start of the period, in the format 'YYYY-MM-DD HH:mm:ss'."
TWELVE = "The time in the format 'HH:MM AM/PM'."


@pytest.mark.parametrize(
    ("docs", "layout"),
    [
        (HM, Layout(seconds=False, twelve_hour=False)),
        (STAMP, Layout(seconds=True, twelve_hour=False)),
        (TWELVE, Layout(seconds=False, twelve_hour=True)),
        ("The time of day.", None),
        ("Either 'HH:MM' or 'HH:MM:SS'.", None),  # two layouts: not judged
    ],
)
def test_documented_time(docs: str, layout: Layout | None) -> None:
    assert documented_time(docs) == layout


@pytest.mark.parametrize(
    ("value", "docs", "task", "fixed"),
    [
        ("10:00 AM", HM, "", "10:00"),
        ("7 pm", HM, "", "19:00"),
        ("15:00", HM, "", "15:00"),  # already in the layout
        ("2024-03-19 12:00", STAMP, "at 12:00", "2024-03-19 12:00:00"),  # the date kept, seconds added
        ("2024-03-25 02:30 PM", STAMP, "", "2024-03-25 14:30:00"),
        ("2024-03-04 03:00", STAMP, "from 3:00 p.m. onwards", "2024-03-04 15:00:00"),  # the task's half of the day
        ("04:30", HM, "at 4:30 in the afternoon", "16:30"),  # the half of the day in words
        ("10:00", HM, "at 10 o'clock in the morning", "10:00"),
        ("03:00", HM, "at 3 am or 3 pm", "03:00"),  # both halves written: as written
        ("10:00", TWELVE, "at 10 am", "10:00 AM"),
        ("2024-03-22", STAMP, "", "2024-03-22"),  # a date alone: no time to write
        ("2021-08-15 20:00", HM, "at 8 in the evening", "20:00"),  # a time argument's date goes
        ("2021-08-15T20:00", HM, "", "20:00"),
        ("12", HM, "", "12"),  # a bare number is no time
        ("25:00", HM, "", "25:00"),
    ],
)
def test_in_documented_time(value: str, docs: str, task: str, fixed: str) -> None:
    parameters = {"properties": {"time": {"type": "string", "description": docs}}}
    assert in_documented_time({"time": value}, parameters, task) == {"time": fixed}


@tool
def book_cleaner(start: str) -> str:
    """Book a cleaner.

    Args:
        start: When to start, in the format 'YYYY-MM-DD HH:mm:ss'.
    """
    return f"booked for {start}"


async def test_a_time_runs_in_its_documented_layout() -> None:
    model = ScriptedModel([call("book_cleaner", start="2024-03-04 03:00"), "Booked."])
    result = await Agent(model, tools=[book_cleaner]).run("Book a cleaner for March 4, 2024, from 3:00 p.m.")
    assert [step.result for step in result.steps if step.call] == ["booked for 2024-03-04 15:00:00"]


TABLE = {
    "type": "object",
    "properties": {
        "time": {"type": "string", "description": "The reservation time, in 24-hour format 'HH:MM'."},
        "note": {"type": "string", "description": "A note."},
    },
}


@pytest.mark.parametrize(
    ("task", "arguments", "expected"),
    [
        ("A table at 13:30 for 4 people on the 14th of March 2023", {"time": "14:30"}, {"time": "13:30"}),
        ("A table at 1:30 pm, please", {"time": "11:30"}, {"time": "13:30"}),
        ("An alarm for 5 in the afternoon labeled 'Grocery run'", {"time": "14:05"}, {"time": "17:00"}),
        ("Set an alarm for 11 PM", {"time": "11:00"}, {"time": "23:00"}),  # the half the task writes
        # the task's time in any half of the day, two times, none, or an argument that takes no time: unchanged
        ("A table at 1:30, please", {"time": "13:30"}, {"time": "13:30"}),
        ("A table at 13:30 or 14:30", {"time": "15:00"}, {"time": "15:00"}),
        ("A table for 4 on the 14th", {"time": "19:00"}, {"time": "19:00"}),
        ("A table at 13:30", {"note": "14:30"}, {"note": "14:30"}),
    ],
)
def test_a_time_the_task_does_not_write_goes_as_its_one_time(
    task: str, arguments: dict[str, Any], expected: dict[str, Any]
) -> None:
    assert as_task_time(arguments, TABLE, task) == expected


DATED = {
    "type": "object",
    "properties": {
        "when": {"type": "string", "description": "The new date and time, in ISO-8601 format."},
        "start_date": {"type": "string", "description": "The start, in the format 'YYYY-MM-DD HH:mm:ss'."},
        "end_date": {"type": "string", "description": "The end, in the format 'YYYY-MM-DD HH:mm:ss'."},
        "note": {"type": "string", "description": "A note."},
    },
}


@pytest.mark.parametrize(
    ("task", "arguments", "expected"),
    [
        (
            "Move 'Bob-123' to November 1, 2023 at 4pm",
            {"when": "2023-11-01T14:00:00Z"},
            {"when": "2023-11-01T16:00:00Z"},
        ),
        ("A flight on 20 June 2022 at 5 in the afternoon", {"when": "20/06/2022 15:00"}, {"when": "20/06/2022 17:00"}),
        (
            "A cleaner on March 23 at 3:00 p.m.",
            {"start_date": "2024-03-23 12:00:00"},
            {"start_date": "2024-03-23 15:00:00"},
        ),
        # one value holds the task's time: the other is another time ("for 3 hours"), so both stay
        (
            "A housekeeper on 20/3/2024, time 9:00, for 3 hours",
            {"start_date": "2024-03-20 09:00:00", "end_date": "2024-03-20 12:00:00"},
            {"start_date": "2024-03-20 09:00:00", "end_date": "2024-03-20 12:00:00"},
        ),
        ("Move it to November 1 at 4pm", {"note": "2023-11-01 14:00"}, {"note": "2023-11-01 14:00"}),  # no date arg
        ("Set it for 11 PM", {"when": "2023-10-01 11:00:00"}, {"when": "2023-10-01 23:00:00"}),  # its half written
        ("Set it for 11", {"when": "2023-10-01 23:00:00"}, {"when": "2023-10-01 23:00:00"}),  # either half
        ("Set it for 11 PM", {"when": "2023-10-01 11:00 PM"}, {"when": "2023-10-01 11:00 PM"}),  # a 12-hour clock
        ("Move it to November 1", {"when": "2023-11-01T14:00:00"}, {"when": "2023-11-01T14:00:00"}),  # no time said
    ],
)
def test_the_clock_of_a_date_and_time_goes_as_the_tasks_one_time(
    task: str, arguments: dict[str, Any], expected: dict[str, Any]
) -> None:
    assert as_task_time(arguments, DATED, task) == expected
