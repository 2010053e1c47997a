"""A request that names two actions, answered after one: the tool the task names by its own words goes next
(agentcore.named_rest)."""

from __future__ import annotations

from typing import cast

import pytest

from agentcore.agent import Agent
from agentcore.messages import ToolCall, ToolSpec
from agentcore.named_rest import MAX_REST, named_rest
from agentcore.testing import ScriptedModel, call
from agentcore.tool_kinds import name_parts
from agentcore.tools.function import Tool, tool

STATS = "Determine the median and variance for the data points 3,4,5,2,8,5. Also determine the mode for these points."
CRIMINAL = "Find the conviction status of John Doe in New York, also find the nature of the criminal offenses he did."


def _spec(name: str) -> ToolSpec:
    return ToolSpec(name, "", {"type": "object", "properties": {"data": {"type": "array"}}})


def _specs(*names: str) -> list[ToolSpec]:
    return [_spec(name) for name in names]


def test_a_names_parts_leave_out_the_words_that_say_how() -> None:
    assert name_parts("criminal_record.get_offense_nature") == ("criminal", "record", "offense", "nature")
    assert name_parts("get_class_info") == ("class",)
    assert name_parts("Alarm_1_GetAlarms") == ("alarm", "alarms")


def test_siblings_of_the_called_tool_are_named_by_their_own_words() -> None:
    specs = _specs("statistics.median", "statistics.variance", "statistics.mode", "statistics.mean")
    named = named_rest(STATS, specs, [ToolCall("statistics.median", {"data": [3, 4, 5, 2, 8, 5]})])
    assert named == {"statistics.variance": ("variance",), "statistics.mode": ("mode",)}


def test_every_own_word_must_be_in_the_task_plurals_allowed() -> None:
    specs = _specs("criminal_record.get_status", "criminal_record.get_offense_nature", "criminal_record.get_history")
    named = named_rest(CRIMINAL, specs, [ToolCall("criminal_record.get_status", {"criminal_name": "John Doe"})])
    assert named == {"criminal_record.get_offense_nature": ("offense", "nature")}


@pytest.mark.parametrize(
    ("task", "names", "called"),
    [
        # "perimeter" of a circle does not name rectangle.calculate_perimeter: "rectangle" is not in the task
        ("Find the area and perimeter of a circle of radius 5.", ("rectangle.calculate_perimeter",), "circle.area"),
        # the word is a value a call took, not an action to do
        ("Find the weather in the city named Weather.", ("get_weather",), "city_info"),
        # every tool the task names has run
        (STATS, ("statistics.median",), "statistics.median"),
    ],
)
def test_no_tool_is_named_without_all_its_own_words_or_where_a_call_took_them(
    task: str, names: tuple[str, ...], called: str
) -> None:
    taken = {"city": "Weather"} if called == "city_info" else {}
    assert named_rest(task, _specs(called, *names), [ToolCall(called, taken)]) == {}


def _stat(name: str, result: str) -> Tool:
    """A statistic of a list, as a tool that returns `result`. Named stats_x so that the task does not spell the
    name out whole (that is agentcore.answer_checks.missing_tool_check's case)."""

    def compute(data: list[int]) -> str:
        return result

    return cast(Tool, tool(compute, name=f"stats_{name}", description=f"The {name} of the data points."))


STAT_TOOLS = [_stat("median", "4.5"), _stat("variance", "3.9"), _stat("mode", "5"), _stat("mean", "4.5")]
MORE_STATS = [*STAT_TOOLS[:3], _stat("range", "6"), _stat("skewness", "0.4")]


async def test_an_answer_after_one_action_goes_back_until_each_named_tool_ran() -> None:
    data = [3, 4, 5, 2, 8, 5]
    script = [call("stats_median", data=data), "4.5", call("stats_variance", data=data), "3.9"]
    script += [call("stats_mode", data=data), "5, 3.9"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=STAT_TOOLS).run(STATS)
    assert [s.call.name for s in result.steps if s.call] == ["stats_median", "stats_variance", "stats_mode"]
    first = model.requests[2]
    assert first.messages[-1].content.startswith("Not done yet: the task also asks for the variance (stats_variance)")
    assert {t.name for t in first.tools} == {"stats_variance", "stats_mode"} and not first.allow_final
    assert "the mode (stats_mode)" in model.requests[4].messages[-1].content
    assert result.output == "5, 3.9"  # the same data for each: no chain check took it for a step to redo


async def test_the_notices_stop_at_the_limit() -> None:
    data = [3, 4, 5, 2, 8, 5]
    names = ["stats_median", "stats_variance", "stats_mode", "stats_range"]
    script = [turn for name in names for turn in (call(name, data=data), "done")]
    model = ScriptedModel(script)
    task = "Find the median, variance, mode, range and skewness of 3,4,5,2,8,5."
    result = await Agent(model, tools=MORE_STATS).run(task)
    assert [s.call.name for s in result.steps if s.call] == names
    notices = [m for m in result.messages if m.content.startswith("Not done yet: the task also asks")]
    assert len(notices) == MAX_REST == 3 and "skewness" in notices[-1].content
    assert result.output == "done"  # the fourth answer stands: the model was told three times


async def test_the_check_is_off_with_check_unfinished() -> None:
    data = [3, 4, 5, 2, 8, 5]
    model = ScriptedModel([call("stats_median", data=data), "4.5"])
    agent = Agent(model, tools=STAT_TOOLS)
    agent.check_unfinished = False
    result = await agent.run(STATS)
    assert result.output == "4.5" and len(model.requests) == 2


@tool
def us_life_expectancy(year: int) -> str:
    """The average life expectancy in the USA in a year."""
    return "done"


@tool
def us_gdp(year: int) -> str:
    """The Gross Domestic Product (GDP) of the USA in a year: the gross domestic product in dollars."""
    return "done"


async def test_a_first_call_of_a_tool_the_task_names_is_not_held_for_a_closer_one() -> None:
    task = "What was the life expectancy in the USA in 1900? Also, what was the Gross Domestic Product (GDP) there?"
    model = ScriptedModel([call("us_life_expectancy", year=1900), "done", call("us_gdp", year=1900), "done"])
    result = await Agent(model, tools=[us_life_expectancy, us_gdp]).run(task)
    assert [(s.call.name, s.tool_error) for s in result.steps if s.call] == [
        ("us_life_expectancy", False),
        ("us_gdp", False),
    ]
