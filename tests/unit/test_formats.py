"""A city written alone where the argument's docs ask for the city and its state goes back once
(`agentcore.formats`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.formats import one_part_places, two_part_form
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("description", "part"),
    [
        ("The city and state, e.g. San Francisco, CA", "state"),
        ("City and country, e.g. London, UK", "country"),
        ("The location in the format of 'City, State'", "state"),
        ("city/region of the store", "region"),
        ("The city name and the country", "country"),
        ("The city to search in.", None),
        ("The state, e.g. CA", None),
    ],
)
def test_two_part_form(description: str, part: str | None) -> None:
    assert two_part_form({"type": "string", "description": description}) == part


PARAMS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
        "city": {"type": "string", "enum": ["Paris", "Rome"], "description": "The city and country"},
        "query": {"type": "string"},
    },
}


def test_one_part_places() -> None:
    assert one_part_places({"location": "New York", "query": "pizza"}, PARAMS) == [("location", "New York", "state")]
    assert one_part_places({"location": "New York, NY"}, PARAMS) == []
    assert (
        one_part_places({"city": "Paris", "location": ""}, PARAMS) == []
    )  # enums are the grammar's; empty is no place


@tool
def get_weather(location: str) -> str:
    """The current weather.

    Args:
        location: The city and state, e.g. San Francisco, CA
    """
    return f"sunny in {location}"


async def test_the_city_alone_goes_back_once_and_the_second_call_runs() -> None:
    model = ScriptedModel(
        [call("get_weather", location="Boston"), call("get_weather", location="Boston, MA"), "Sunny."]
    )
    result = await Agent(model, tools=[get_weather]).run("What's the weather in Boston?")
    assert result.output == "Sunny."
    assert result.steps[0].tool_error and result.steps[0].result.startswith("not run: 'Boston' names the city only")
    notice = model.requests[1].messages[-1].content
    assert notice.startswith("Not run: 'Boston' names the city only, and the docs ask for more (The city and state")
    assert "Call get_weather again with location as city, state" in notice
    assert result.steps[1].result == "sunny in Boston, MA"


async def test_a_model_that_insists_runs_its_call() -> None:
    model = ScriptedModel([call("get_weather", location="Boston"), call("get_weather", location="Boston"), "Sunny."])
    result = await Agent(model, tools=[get_weather]).run("What's the weather in Boston?")
    assert result.steps[1].result == "sunny in Boston" and not result.steps[1].tool_error
