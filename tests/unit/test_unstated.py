"""Optional arguments no one asked for are left out (agentcore.unstated)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unstated import unstated

MARKET = {
    "type": "object",
    "properties": {
        "indexes": {"type": "array", "items": {"type": "string"}},
        "days": {"type": "integer"},
        "detailed": {"type": "boolean", "default": False},
        "period": {"type": "string", "enum": ["Daily", "Weekly", "Monthly"], "default": "Daily"},
        "language": {"type": "string", "enum": ["en-US", "es-ES"]},
        "genre": {"type": "string", "enum": ["Comedy", "Fantasy", "dontcare"], "default": "dontcare"},
        "growth_rate": {"type": "number"},
        "units": {"type": "string", "description": "cm by default"},
        "include_completed": {"type": "boolean"},
        "fullName": {"type": "boolean"},
    },
    "required": ["indexes", "days"],
}


@pytest.mark.parametrize(
    ("arguments", "task", "left_out"),
    [
        ({"indexes": ["S&P 500"], "days": 5, "detailed": True}, "the S&P 500 over the past 5 days", ["detailed"]),
        ({"indexes": ["DJI"], "days": 9, "detailed": True}, "a detailed report on the DJI", []),  # required: kept
        ({"indexes": [], "days": 1, "detailed": False}, "the DJI", []),  # the default changes nothing
        ({"indexes": [], "days": 1, "period": "Monthly"}, "which colour is most popular", ["period"]),
        ({"indexes": [], "days": 1, "period": "Monthly"}, "the monthly figures", []),
        ({"indexes": [], "days": 1, "period": "Weekly"}, "figures for each week", []),  # a plural or stem
        ({"indexes": [], "days": 1, "genre": "Fantasy"}, "a film directed by Quentin Tarantino", ["genre"]),
        ({"indexes": [], "days": 1, "genre": "Comedy"}, "a movie classified as a Comic", []),  # enum: 3 letters
        ({"indexes": [], "days": 1, "language": "es-ES"}, "spoken audio in Spanish", []),  # a code: not judged
        ({"indexes": [], "days": 1, "growth_rate": 0.05}, "the population growth in 20 years", ["growth_rate"]),
        ({"indexes": [], "days": 1, "growth_rate": 0.05}, "growing 5% a year", []),
        ({"indexes": [], "days": 1, "units": "meters"}, "a circle with radius 3", ["units"]),
        ({"indexes": [], "days": 1, "units": "meters"}, "a circle with radius 3 meters", []),
        (
            {"indexes": [], "days": 1, "include_completed": True},
            "projects, including their status",
            ["include_completed"],
        ),
        ({"indexes": [], "days": 1, "include_completed": True}, "projects, completed ones too", []),
        ({"indexes": [], "days": 1, "fullName": True}, "the full name of the king", []),
    ],
)
def test_unstated(arguments: dict[str, object], task: str, left_out: list[str]) -> None:
    assert unstated(arguments, MARKET, task) == left_out


def test_lists_and_objects_are_never_judged() -> None:
    schema = {"properties": {"tags": {"type": "array"}, "extra": {"type": "object"}}, "required": []}
    assert unstated({"tags": ["War", "Diplomacy"], "extra": {"a": 1}}, schema, "war events") == []


@tool
def paint_trends(room: str, period: str = "Daily") -> str:
    """The most popular paint colours.

    Args:
        room: The room.
        period: Daily, Weekly or Monthly.
    """
    return f"sage green ({room}, {period})"


async def test_the_call_runs_without_the_unasked_value_and_its_repeat_does_not_run_again() -> None:
    written = call("paint_trends", room="living room", period="Monthly")
    model = ScriptedModel([written, written, "Sage green."])
    result = await Agent(model, tools=[paint_trends]).run("Which paint colour is most popular for living rooms?")
    assert result.output == "Sage green."
    assert result.steps[0].call == call("paint_trends", room="living room")
    assert result.steps[0].result == "sage green (living room, Daily)"
    assert "already" in model.requests[2].messages[-1].content.lower()  # the repeat was answered, not run


async def test_an_asked_value_runs() -> None:
    model = ScriptedModel([call("paint_trends", room="kitchen", period="Weekly"), "Blue."])
    result = await Agent(model, tools=[paint_trends]).run("The weekly favourite paint for a kitchen?")
    assert result.steps[0].result == "sage green (kitchen, Weekly)"
