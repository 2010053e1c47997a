"""A date goes in the layout its argument's docs name (agentcore.dates)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.dates import documented_layout, in_documented_layout
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


def _params(description: str) -> dict[str, object]:
    return {"type": "object", "properties": {"date": {"type": "string", "description": description}}}


@pytest.mark.parametrize(
    ("description", "layout"),
    [
        ("The date (month-day-year) you want the index for.", ("mdy", "-")),
        ("Date in YYYY-MM-DD format.", ("ymd", "-")),
        ("The start date, mm/dd/yyyy.", ("mdy", "/")),
        ("Date as DD.MM.YYYY", ("dmy", ".")),
        ("A date in YYYY-MM-DD or MM/DD/YYYY form.", None),  # two layouts: nothing to follow
        ("The date to look up.", None),
    ],
)
def test_documented_layout(description: str, layout: tuple[str, str] | None) -> None:
    assert documented_layout(description) == layout


@pytest.mark.parametrize(
    ("description", "value", "fixed"),
    [
        ("The date (month-day-year).", "2022/08/16", "08-16-2022"),
        ("Date in YYYY-MM-DD format.", "03/17/1915", "1915-03-17"),
        ("Date in YYYY-MM-DD format.", "17/03/1915", "1915-03-17"),  # 17 can only be the day
        ("Date in YYYY-MM-DD format.", "03/04/2022", "2022-03-04"),  # a US task writes the month first
        ("Date as DD-MM-YYYY.", "03/04/2022", "03/04/2022"),  # which is the day is unclear: left alone
        ("Date in YYYY-MM-DD format.", "2022-5-1", "2022-05-01"),
        ("Date in YYYY-MM-DD format.", "2023-11-01T20:00:00", "2023-11-01T20:00:00"),  # a time too
        ("Date in YYYY-MM-DD format.", "next Friday", "next Friday"),
        ("Date in YYYY-MM-DD format.", "2022-13-01", "2022-13-01"),  # no month 13
    ],
)
def test_in_documented_layout(description: str, value: str, fixed: str) -> None:
    assert in_documented_layout({"date": value}, _params(description)) == {"date": fixed}


@pytest.mark.parametrize(
    ("value", "fixed"),
    [
        ("21 June 2024", "2024-06-21"),
        ("March 4th, 2024", "2024-03-04"),
        ("Sept 3 2024", "2024-09-03"),
        ("1 June", "2024-06-01"),  # the task's one year (independent1's ar28)
        ("June", "June"),  # a month alone
        ("31 June 2024", "31 June 2024"),  # no such day: left as written
    ],
)
def test_a_month_in_words_goes_in_the_layout(value: str, fixed: str) -> None:
    task = "Days from 1 June to 21 June 2024?"
    assert in_documented_layout({"date": value}, _params("Date in YYYY-MM-DD format."), task) == {"date": fixed}


def test_a_date_without_its_year_waits_where_the_task_writes_none_or_two() -> None:
    params = _params("Date in YYYY-MM-DD format.")
    assert in_documented_layout({"date": "1 June"}, params, "Days from 1 June to 21 June?") == {"date": "1 June"}
    task = "From 1 June 2023 to 1 June 2024?"
    assert in_documented_layout({"date": "1 June"}, params, task) == {"date": "1 June"}


def test_a_year_is_not_taken_across_a_year_or_from_a_price() -> None:
    params = _params("Date in YYYY-MM-DD format.")
    assert in_documented_layout({"date": "Dec 20"}, params, "Days from Dec 20 to Jan 5 2025?") == {"date": "Dec 20"}
    task = "From 1 February to 1 March? The trip costs 1800."
    assert in_documented_layout({"date": "1 February"}, params, task) == {"date": "1 February"}
    assert in_documented_layout({"date": "30 February 2023"}, params) == {"date": "30 February 2023"}  # no such day


def test_unchanged_arguments_are_the_same_object() -> None:
    arguments = {"date": "2022-08-16"}
    assert in_documented_layout(arguments, _params("Date in YYYY-MM-DD format.")) is arguments


@tool(read_only=True)
def air_quality(location: str, date: str) -> str:
    """Air quality index of a city on a day.

    Args:
        location: The city.
        date: The date (month-day-year).
    """
    return f"{location} {date}: 42"


@tool(read_only=True)
def project(name: str, start_date: str = "") -> str:
    """Details of a project.

    Args:
        name: The project's name.
        start_date: Only work from this date on, YYYY-MM-DD.
    """
    return f"{name} from {start_date or 'the start'}"


async def test_the_call_runs_with_the_documented_layout_and_no_invented_optional_date() -> None:
    model = ScriptedModel([call("air_quality", location="London", date="2022/08/16"), "42"])
    result = await Agent(model, tools=[air_quality]).run("What is the air quality index in London 2022/08/16?")
    assert result.steps[0].result == "London 08-16-2022: 42"
    model = ScriptedModel([call("project", name="car-rental", start_date="2021-06-15"), "done"])
    result = await Agent(model, tools=[project]).run("Give me the details of the 'car-rental' project.")
    assert result.steps[0].result == "car-rental from the start"
