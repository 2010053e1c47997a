"""An optional choice the model left out is filled when the user writes its value (agentcore.enum_filled)."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.enum_filled import fillable, filled, spans
from agentcore.events import Event, Notice
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unstated import words

CUISINES = ["Seafood", "Italian", "Indian", "Chinese"]
FIND = {
    "type": "object",
    "properties": {
        "location": {"type": "string"},
        "cuisine": {"type": "array", "items": {"type": "string", "enum": CUISINES}},
        "price": {"type": "string", "enum": ["cheap", "moderate", "pricey", "any"], "default": "any"},
        "stars": {"type": "string", "enum": ["1", "2", "3"]},
        "kind": {"type": "string", "enum": ["all", "restaurant", "bar"]},
        "services": {"type": "array", "items": {"type": "string", "enum": ["Violin Lessons", "Guitar Lessons"]}},
        "instruments": {"type": "array", "items": {"type": "string", "enum": ["Violins", "Guitars"]}},
        "meal": {"type": "string", "enum": ["lunch", "dinner"]},
    },
    "required": ["location", "meal"],
}


@pytest.mark.parametrize(
    ("task", "added"),
    [
        ("a seafood place in Seattle", {"cuisine": ["Seafood"]}),
        ("Italian or Chinese food in Seattle", {"cuisine": ["Italian", "Chinese"]}),  # in the enum's order
        ("somewhere pricey in Seattle", {"price": "pricey"}),
        ("somewhere not too pricey in Seattle", {}),  # after a negation
        ("any place in Seattle", {}),  # the default changes nothing
        ("a 3 star place with 1 room", {}),  # a value with a digit is not judged
        ("a list of all places in Seattle", {}),  # a value of function words only
        ("a bar in Seattle", {"kind": "bar"}),
        ("a guitar shop that offers violin lessons", {"services": ["Violin Lessons"], "instruments": ["Guitars"]}),
        ("a seafoodish place", {}),  # a value is written whole, not as part of a word
        ("dinner in Seattle", {}),  # a required argument is the model's to write
    ],
)
def test_filled(task: str, added: dict[str, object]) -> None:
    assert filled({"location": "Seattle"}, FIND, task) == {"location": "Seattle", **added}


def test_an_argument_the_call_writes_is_left_as_written() -> None:
    arguments = {"location": "Seattle", "cuisine": ["Italian"]}
    assert filled(arguments, FIND, "a seafood place")["cuisine"] == ["Italian"]


def test_the_same_dict_comes_back_when_nothing_is_filled() -> None:
    arguments = {"location": "Seattle"}
    assert filled(arguments, FIND, "somewhere in Seattle") is arguments


def test_fillable_only_with_a_left_out_optional_enum() -> None:
    assert fillable({"location": "x"}, FIND)
    every = {key: "x" for key in FIND["properties"]}  # type: ignore[union-attr]
    assert not fillable(every, FIND)
    assert not fillable({}, {"properties": {"q": {"type": "string"}}})


def test_words_read_plurals_and_camel_case_as_one_word() -> None:
    assert words("Guitar Lessons") == ["guitar", "lesson"]
    assert words("roomType gas") == ["room", "type", "gas"]
    assert spans("Violin Lessons", words("I want violin lessons")) == [(2, 4)]


@tool
def find_restaurant(location: str, cuisine: Literal["Seafood", "Italian"] | None = None) -> str:
    """Restaurants in a city.

    Args:
        location: The city.
        cuisine: Preferred cuisine; any when left out.
    """
    return f"{location}: {cuisine or 'any'}"


async def test_the_loop_runs_the_call_with_the_written_choice() -> None:
    model, events = ScriptedModel([call("find_restaurant", location="Seattle"), "ok"]), []
    sink: list[Event] = events
    result = await Agent(model, tools=[find_restaurant]).run("A seafood restaurant in Seattle?", on_event=sink.append)
    assert result.steps[0].call is not None and result.steps[0].call.arguments == {
        "location": "Seattle",
        "cuisine": "Seafood",
    }
    assert result.steps[0].result == "Seattle: Seafood"
    assert any(isinstance(e, Notice) and "optional choices the user wrote" in e.message for e in events)


async def test_a_tool_result_that_writes_a_value_fills_nothing() -> None:
    @tool
    def status() -> str:
        """The kitchen's status."""
        return "Italian chef on duty"

    model = ScriptedModel([call("status"), call("find_restaurant", location="Seattle"), "ok"])
    result = await Agent(model, tools=[status, find_restaurant]).run("Any restaurant open in Seattle? Check status.")
    assert result.steps[1].call is not None and result.steps[1].call.arguments == {"location": "Seattle"}
