"""An answer in the unit of time its tool counts in, where the task asks for another, goes back once
(`agentcore.asked_units`, `answer_checks.unit_check`)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.asked_units import asked_unit, with_time_factor
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from bench import toolbox

DAYS = "Count the days between two dates. Second date, as YYYY-MM-DD."  # "Second": an ordinal, no unit


@pytest.mark.parametrize(
    ("task", "docs", "units"),
    [
        ("How many weeks are there between 2024-05-01 and 2024-08-28?", DAYS, ("weeks", "days")),
        ("What is the time from 2024-03-01 to 2024-03-04 in hours?", DAYS, ("hours", "days")),
        ("How many days are in one week?", DAYS, None),  # the unit the tool counts in
        ("How many days between 2024-05-01 and 2024-08-28?", DAYS, None),
        ("How many weeks are there?", "Convert a value between units.", None),  # the docs fix no unit
        ("Hours between 2025-01-06 and 2025-03-17, minus 12, halved.", DAYS, ("hours", "days")),  # ar20
        ("Days from 2025-01-06 to 2025-03-17?", DAYS, None),  # the unit counted
        ("How many weeks, and how many months, is that?", DAYS, None),  # two asked: not one to convert to
        # the counted unit asked, and one more: that one is due last (independent5's bx04)
        ("How many days between 2025-03-03 and 2025-06-19, and how many hours is that?", DAYS, ("hours", "days")),
        ("How many weeks?", "Count the weeks or the days.", None),  # the tool names the asked unit
        # independent12's cd06: "into hours"
        ("Work out the days between 2023-11-15 and 2024-01-09 and turn that into hours?", DAYS, ("hours", "days")),
    ],
)
def test_asked_unit(task: str, docs: str, units: tuple[str, str] | None) -> None:
    assert asked_unit(task, docs) == units


@tool
def date_diff(start: str, end: str) -> str:
    """Count the days between two dates.

    Args:
        start: First date, as YYYY-MM-DD.
        end: Second date, as YYYY-MM-DD.
    """
    return "119"


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression.

    Args:
        expression: The expression.
    """
    return "17"


async def test_an_answer_in_the_tools_unit_goes_back_once_naming_both_units() -> None:
    script = [
        call("date_diff", start="2024-05-01", end="2024-08-28"),
        "119",
        call("calculator", expression="119 / 7"),
        "17",
    ]
    model = ScriptedModel(script)
    task = "How many weeks are there between 2024-05-01 and 2024-08-28?"
    result = await Agent(model, tools=[date_diff, calculator]).run(task)
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not done yet: 119 is in days (date_diff counts days), but the task asks for weeks.")
    assert {t.name for t in model.requests[2].tools} == {"date_diff", "calculator"} and not model.requests[
        2
    ].allow_final
    assert result.output == "17" and len(model.requests) == 4


async def test_a_calculation_that_restates_the_count_goes_back_too() -> None:
    """independent1's ar02: `224 - 112` = 112 after 112 days, and 112 answered for "how many weeks"."""

    @tool
    def restating(expression: str) -> str:
        """Evaluate an arithmetic expression.

        Args:
            expression: The expression.
        """
        return {"238 - 119": "119", "119 / 7": "17"}[expression]

    script = [call("date_diff", start="2024-05-01", end="2024-08-28"), call("restating", expression="238 - 119")]
    model = ScriptedModel([*script, "119", call("restating", expression="119 / 7"), "17"])
    task = "Count the days between 2024-05-01 and 2024-08-28 and tell me how many weeks that is."
    result = await Agent(model, tools=[date_diff, restating]).run(task)
    assert model.requests[3].messages[-1].content.startswith("Not done yet: 119 is in days (date_diff counts days)")
    assert result.output == "17"


async def test_an_answer_in_the_asked_unit_is_accepted() -> None:
    model = ScriptedModel([call("date_diff", start="2024-05-01", end="2024-08-28"), "119"])
    result = await Agent(model, tools=[date_diff, calculator]).run("How many days from 2024-05-01 to 2024-08-28?")
    assert result.output == "119" and len(model.requests) == 2


@pytest.mark.parametrize(
    ("expression", "counted", "asked", "fixed"),
    [
        ("119 * 60", "days", "minutes", "119 * 1440"),  # j09: the minutes in an hour, for days
        ("60 * 119", "days", "minutes", "1440 * 119"),
        ("119 * 24", "days", "hours", "119 * 24"),  # already right
        ("119 * 24 * 60", "days", "minutes", "119 * 24 * 60"),  # two factors that make the right one
        ("119 / 24", "days", "weeks", "119 / 7"),
        ("119 * 7", "days", "months", "119 * 7"),  # a month has no fixed length
        ("119 * 5", "days", "minutes", "119 * 5"),  # no factor between units of time: another step
        ("1119 * 60", "days", "minutes", "1119 * 60"),  # not the count
        ("119 / 119", "days", "weeks", "119 / 7"),  # the count for its own factor (independent12's cd18)
        ("119 * 119", "days", "hours", "119 * 24"),
    ],
)
def test_a_wrong_time_factor_on_the_count_goes_as_the_right_one(
    expression: str, counted: str, asked: str, fixed: str
) -> None:
    assert with_time_factor(expression, "119", counted, asked, "How many? 2024-05-01") == fixed
    assert with_time_factor("119 * 60", "119", "days", "minutes", "at 60 per hour") == "119 * 60"  # the task's 60


async def test_a_count_of_days_converted_with_the_wrong_factor_runs_with_the_right_one() -> None:
    script = [call("date_diff", start="2024-05-01", end="2024-08-28"), call("calculator", expression="119 * 60")]
    model = ScriptedModel([*script, "17"])
    task = "How many minutes are there between 2024-05-01 and 2024-08-28?"
    result = await Agent(model, tools=[date_diff, calculator]).run(task)
    assert [s.call for s in result.steps if s.call][-1].arguments == {"expression": "119 * 1440"}


async def test_the_unit_notice_leaves_out_a_converter_that_converts_no_time() -> None:
    """independent12's cd06: told to convert 55 days to hours, the model called `unit_convert(55 km -> m)`."""
    task = "Could you work out the days between 2023-11-15 and 2024-01-09 and turn that into hours?"
    script = [call("date_diff", start="2023-11-15", end="2024-01-09"), "55", call("calculator", expression="55 * 24")]
    model = ScriptedModel([*script, "1320"])
    tools = toolbox.agent_tools(["calculator", "date_diff", "unit_convert"])
    result = await Agent(model, tools=tools).run(task)
    assert sorted(t.name for t in model.requests[2].tools) == ["calculator", "date_diff"]
    assert result.output == "1320"
