"""A city written alone where the argument's docs ask for the city and its state, and give it as an example, runs
in the example's form (`agentcore.formats`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.formats import from_examples, one_part_places, two_part_form
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
    assert one_part_places({"location": "New York", "query": "pizza"}, PARAMS) == [("location", "New York")]
    assert one_part_places({"location": "New York, NY"}, PARAMS) == []
    assert (
        one_part_places({"city": "Paris", "location": ""}, PARAMS) == []
    )  # enums are the grammar's; empty is no place


def test_from_examples() -> None:
    params = {"properties": {"city": {"type": "string", "description": "The city and state, e.g. Chicago, IL."}}}
    assert from_examples({"city": "chicago"}, params) == {"city": "Chicago, IL"}  # the example's own form
    unchanged = {"city": "Boston"}
    assert from_examples(unchanged, params) is unchanged  # no example for it: as written
    assert from_examples({"city": "Chicago, IL"}, params) == {"city": "Chicago, IL"}


@pytest.mark.parametrize(
    ("description", "written", "ran"),
    [
        ("The city where the car is picked up, such as 'Los Angeles, CA'.", "Los Angeles", "Los Angeles, CA"),
        ("The city, for example, New York City, NY", "New York City", "New York City, NY"),
        ("The city where the car is picked up, such as 'Los Angeles, CA'.", "Portland", "Portland"),  # not its city
        ("The gaming platform e.g. Xbox, PC", "Xbox", "Xbox"),  # two parts, but no place
        ("The city, Los Angeles, CA for one", "Los Angeles", "Los Angeles"),  # not given as an example
    ],
)
def test_a_place_shown_as_an_example_completes_its_own_city(description: str, written: str, ran: str) -> None:
    params = {"properties": {"city": {"type": "string", "description": description}}}
    assert from_examples({"city": written}, params) == {"city": ran}


@tool
def get_weather(location: str) -> str:
    """The current weather.

    Args:
        location: The city and state, e.g. San Francisco, CA
    """
    return f"sunny in {location}"


@pytest.mark.parametrize(
    ("written", "ran"),
    [
        ("San Francisco", "San Francisco, CA"),  # the docs' example's form
        ("Boston", "Boston"),  # no example for it: as written
        ("Seattle, CA", "Seattle, WA"),  # a state the city is not in: the city's own (agentcore.places)
        ("Sacramento, California", "Sacramento, CA"),  # the state as the example writes it (agentcore.place_forms)
    ],
)
async def test_a_place_runs_in_its_documented_form_with_no_turn_held_back(written: str, ran: str) -> None:
    model = ScriptedModel([call("get_weather", location=written), "Sunny."])
    result = await Agent(model, tools=[get_weather]).run(f"Weather in {written}?")
    assert [step.result for step in result.steps if step.call] == [f"sunny in {ran}"]
    assert len(model.requests) == 2
