"""Lists of enum values that copy the enum keep only the values the conversation names (agentcore.enum_lists)."""

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
        (  # a one-value list is the model's choice, and lists of free strings are not judged
            {"location": "x", "preferences": ["24 hours"], "tags": ["a", "b"]},
            "a library open late",
            {"location": "x", "preferences": ["24 hours"], "tags": ["a", "b"]},
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


def test_a_free_list_loses_the_docs_examples_no_one_named() -> None:
    assert named_only({"diet": ["vegan", "gluten-free"]}, DIET, "Thai food and a vegan menu") == {"diet": ["vegan"]}
    assert named_only({"diet": ["vegan", "gluten-free"]}, DIET, "Thai food") == {}
    # items of the model's own (not the docs') are not judged, and a word inside a longer one is no example
    assert named_only({"diet": ["halal", "vega"]}, DIET, "Thai food") == {"diet": ["halal", "vega"]}


def test_a_one_letter_size_is_named_as_a_word_only() -> None:
    sizes = {
        "type": "object",
        "properties": {"sizes": {"type": "array", "items": {"type": "string"}, "description": "e.g., ['S', 'M', 'L']"}},
    }
    task = "Saya ingin menukarkan ukuran yang saya miliki dengan ukuran M."
    assert named_only({"sizes": ["M", "S"]}, sizes, task) == {"sizes": ["M"]}
