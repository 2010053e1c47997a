"""Lists keep only the items the conversation names (agentcore.enum_lists)."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.enum_lists import named_only
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

ALL = ["Pet-friendly", "Disabled Access", "24 hours", "Cafe Inside"]
LIBRARY = {
    "type": "object",
    "properties": {
        "location": {"type": "string"},
        "preferences": {"type": "array", "items": {"type": "string", "enum": ALL}},
        "features": {"type": "array", "items": {"type": "string", "enum": ["SqFt", "Bedrooms", "Carbohydrates"]}},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["location", "preferences"],
}


@pytest.mark.parametrize(
    ("arguments", "task", "expected"),
    [
        (  # the model copied the enum: the two named values stay, in its order
            {"location": "NYC", "preferences": ALL},
            "a pet-friendly library with facilities for disabled people in New York City",
            {"location": "NYC", "preferences": ["Pet-friendly", "Disabled Access"]},
        ),
        (  # required and none named: sent as written
            {"location": "NYC", "preferences": ALL},
            "a library in New York City",
            {"location": "NYC", "preferences": ALL},
        ),
        (  # optional and none named: left out, the tool's default applies
            {"location": "NYC", "preferences": ["Cafe Inside"], "features": ["SqFt", "Bedrooms"]},
            "house prices for the next month",
            {"location": "NYC", "preferences": ["Cafe Inside"]},
        ),
        (  # an abbreviation the task writes ("carbs") names the value
            {"location": "x", "preferences": ["Cafe Inside"], "features": ["Bedrooms", "Carbohydrates"]},
            "the carbs and bedrooms",
            {"location": "x", "preferences": ["Cafe Inside"], "features": ["Bedrooms", "Carbohydrates"]},
        ),
        (  # free items no one named go too; a required list with none named is sent as written
            {"location": "x", "preferences": ["24 hours"], "tags": ["art", "music"]},
            "a library open late",
            {"location": "x", "preferences": ["24 hours"]},
        ),
        (  # the initials of written words name an item
            {"location": "x", "preferences": ["24 hours"], "tags": ["SSN", "USA"]},
            "extra large prints, a social security number",
            {"location": "x", "preferences": ["24 hours"], "tags": ["SSN"]},
        ),
    ],
)
def test_named_only(arguments: dict[str, object], task: str, expected: dict[str, object]) -> None:
    assert named_only(arguments, LIBRARY, task) == expected


def test_nothing_to_cut_returns_the_same_arguments() -> None:
    arguments = {"location": "x", "preferences": ["Pet-friendly", "Cafe Inside"]}
    assert named_only(arguments, LIBRARY, "a pet-friendly library with a cafe") is arguments


@tool
def find_library(location: str, preferences: list[Literal["Pet-friendly", "Disabled Access", "24 hours"]]) -> str:
    """Libraries near a place.

    Args:
        location: The city.
        preferences: What the library must have.
    """
    return f"{location}: {', '.join(preferences)}"


async def test_the_call_runs_with_the_named_values_only() -> None:
    written = call("find_library", location="Boston", preferences=["Pet-friendly", "Disabled Access", "24 hours"])
    model = ScriptedModel([written, "The Central Library."])
    result = await Agent(model, tools=[find_library]).run("Find a pet-friendly library in Boston.")
    assert result.steps[0].call == call("find_library", location="Boston", preferences=["Pet-friendly"])
    assert result.steps[0].result == "Boston: Pet-friendly"


DIET = {
    "type": "object",
    "properties": {
        "diet": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Special dietary requirements, e.g. vegan, gluten-free. Default is empty list.",
        },
    },
    "required": [],
}


def test_a_free_list_loses_the_items_no_one_named() -> None:
    assert named_only({"diet": ["vegan", "gluten-free"]}, DIET, "Thai food and a vegan menu") == {"diet": ["vegan"]}
    assert named_only({"diet": ["vegan", "gluten-free"]}, DIET, "Thai food") == {}
    # items of the model's own go too, and a word inside a longer one names nothing; one with a digit stays
    assert named_only({"diet": ["halal", "vega", "2000 kcal"]}, DIET, "Thai food") == {"diet": ["2000 kcal"]}


def test_a_one_letter_size_is_named_as_a_word_only() -> None:
    sizes = {
        "type": "object",
        "properties": {"sizes": {"type": "array", "items": {"type": "string"}, "description": "e.g., ['S', 'M', 'L']"}},
    }
    task = "Saya ingin menukarkan ukuran yang saya miliki dengan ukuran M."
    assert named_only({"sizes": ["M", "S"]}, sizes, task) == {"sizes": ["M"]}


def test_an_enum_on_the_array_is_read_as_the_items_choices() -> None:
    metrics = {"type": "array", "items": {"type": "string"}, "enum": ["temperature", "humidity", "co2"]}
    schema = {"type": "object", "properties": {"metrics": metrics}}
    task = "the latest temperature readings, 100 a page"
    assert named_only({"metrics": ["temperature", "humidity"]}, schema, task) == {"metrics": ["temperature"]}
