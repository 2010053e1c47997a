"""Optional arguments no one asked for are left out (agentcore.unstated)."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unstated import unstated

STATS = {
    "type": "object",
    "properties": {
        "player_name": {"type": "string"},
        "team_name": {"type": "string", "description": "The team, optional."},
        "units": {"type": "string", "default": "cm"},
        "growth_rate": {"type": "number"},
        "size": {"type": "string"},
        "since": {"type": "string"},
        "detailed": {"type": "boolean"},
        "genre": {"type": "string", "enum": ["Comedy", "Horror", "Sci-fi", "dontcare"], "default": "dontcare"},
        "unit": {"type": "string", "enum": ["seconds", "milliseconds"], "default": "N/A"},
        "mood": {"type": "string", "enum": ["Calm", "Tense"]},
        "year": {"type": "string", "enum": ["2010", "2014", "dontcare"], "default": "dontcare"},
        "rooms": {"type": "string", "enum": ["1", "2", "3", "dontcare"], "default": "dontcare"},
        "kids": {
            "type": "string",
            "enum": ["True", "False", "dontcare"],
            "default": "dontcare",
            "description": "Whether the place suits children.",
        },
        "garage": {"type": "boolean", "default": False, "description": "Indicates whether it has a garage."},
        "autoplay": {"type": "boolean", "default": False, "description": "Whether it starts playing at once."},
        "show": {"type": "string", "enum": ["regular", "3d", "imax", "dontcare"], "default": "dontcare"},
        "province_id": {
            "type": "integer",
            "description": "Example: 1 for Bangkok, 2 for Chiang Mai.",
            "enum": [1, 2, 3],
            "default": None,
        },
        "level": {"type": "integer", "enum": [1, 2, 3]},
    },
    "required": ["player_name"],
}


@pytest.mark.parametrize(
    ("arguments", "task", "left_out"),
    [
        ({"player_name": "Ronaldo", "team_name": "Real Madrid"}, "Ronaldo's matches in 2021", ["team_name"]),
        ({"player_name": "Ronaldo", "team_name": "Real Madrid"}, "Ronaldo's matches for Madrid", []),
        ({"player_name": "Messi", "team_name": "Messi"}, "Messi's goals", []),  # required: kept
        ({"player_name": "x", "units": "meters"}, "a circle with radius 3", ["units"]),
        ({"player_name": "x", "units": "meters"}, "a circle with radius 3 meters", []),
        ({"player_name": "x", "units": "cm"}, "a circle with radius 3", []),  # the default changes nothing
        ({"player_name": "x", "team_name": "statistic"}, "the statistics", []),  # a plural or stem
        ({"player_name": "x", "growth_rate": 0.05}, "the population growth in 20 years", ["growth_rate"]),
        ({"player_name": "x", "growth_rate": 0.05}, "growing 5% a year", []),
        ({"player_name": "x", "growth_rate": 10}, "最多10个", []),  # a number after CJK text is stated
        ({"player_name": "x", "size": "XL"}, "a large shirt", []),  # a code: not judged
        ({"player_name": "x", "since": "2021-06-15"}, "the project", []),  # digits: invented_optional's
        ({"player_name": "x", "detailed": True}, "the project", []),  # booleans: not judged
        # an enum without a documented default: as one with a default among its values (thirty-ninth stop)
        ({"player_name": "x", "mood": "Tense"}, "something scary", ["mood"]),
        ({"player_name": "x", "mood": "Tense"}, "a tense thriller", []),
        # an enum with a default among its values: a value no one names goes (the model copies the enum)
        ({"player_name": "x", "genre": "Horror"}, "a movie in Paris", ["genre"]),
        ({"player_name": "x", "genre": "Horror"}, "a horror movie in Paris", []),
        ({"player_name": "x", "genre": "Horror"}, "something scary", ["genre"]),  # the price: meaning is lost
        ({"player_name": "x", "year": "2010"}, "songs by Sia", ["year"]),
        ({"player_name": "x", "year": "2014"}, "songs from around 2014", []),
        # 0 and 1 need writing for a choice: "a hotel" asks for no number of rooms (forty-third stop)
        ({"player_name": "x", "rooms": "1"}, "a hotel in Kuala Lumpur", ["rooms"]),
        ({"player_name": "x", "rooms": "1"}, "one room in a hotel", []),
        ({"player_name": "x", "rooms": "1"}, "a hotel, 1 room", []),
        # a yes-or-no argument stays where the conversation speaks of what it is about (its name or docs)
        ({"player_name": "x", "kids": "True"}, "suitable for children", []),
        ({"player_name": "x", "kids": "False"}, "not for my kids", []),
        ({"player_name": "x", "kids": "False"}, "a museum in Paris", ["kids"]),
        ({"player_name": "x", "garage": True}, "a house with a garage", []),
        ({"player_name": "x", "garage": True}, "a house with 3 bedrooms", ["garage"]),
        ({"player_name": "x", "garage": False}, "a house with 3 bedrooms", []),  # the default: kept
        ({"player_name": "x", "autoplay": True}, "find the song and play it", []),  # "play" starts "playing"
        ({"player_name": "x", "detailed": True}, "the scores", []),  # no documented default: not judged
        ({"player_name": "x", "show": "3d"}, "a movie", []),  # a code: not judged
        ({"player_name": "x", "show": "regular"}, "a movie in regular format", []),
        ({"player_name": "x", "genre": "Sci-fi"}, "science fiction", []),  # each word starts a written one
        # ... but for an enum whose default is none of its values, as a free string (BFCL's cmd_controller)
        ({"player_name": "x", "unit": "seconds"}, "list the files on the desktop", ["unit"]),
        ({"player_name": "x", "unit": "seconds"}, "time it in seconds", []),
        # an integer enum whose default is null: a number no one states or names goes (forty-first stop)
        ({"player_name": "x", "province_id": 3}, "a housekeeper for March 19", ["province_id"]),
        ({"player_name": "x", "province_id": 3}, "a housekeeper in province 3", []),
        ({"player_name": "x", "province_id": 2}, "a housekeeper in Chiang Mai", []),  # its docs' name for 2
        ({"player_name": "x", "level": 3}, "a housekeeper", []),  # no null default: not judged
        # no-preference words alone ask for nothing, even when written (forty-fourth stop)
        ({"player_name": "x", "team_name": "any"}, "songs by any artist", ["team_name"]),
        ({"player_name": "x", "team_name": "Any", "size": "all"}, "country songs", ["team_name", "size"]),
        ({"player_name": "x", "team_name": "any"}, "", ["team_name"]),
        ({"player_name": "x", "team_name": "Anyone Else"}, "the band Anyone Else", []),
        ({"player_name": "any"}, "any player", []),  # required: kept
        # a default of no-preference words written out goes too; any other default stays
        ({"player_name": "x", "genre": "dontcare", "units": "cm"}, "a movie", ["genre"]),
    ],
)
def test_unstated(arguments: dict[str, object], task: str, left_out: list[str]) -> None:
    assert unstated(arguments, STATS, task) == left_out


def test_lists_and_objects_are_never_judged() -> None:
    schema = {"properties": {"tags": {"type": "array"}, "extra": {"type": "object"}}, "required": []}
    assert unstated({"tags": ["War", "Diplomacy"], "extra": {"a": 1}}, schema, "war events") == []


@tool
def paint_trends(room: str, brand: str = "any") -> str:
    """The most popular paint colours.

    Args:
        room: The room.
        brand: The paint brand.
    """
    return f"sage green ({room}, {brand})"


async def test_the_call_runs_without_the_unasked_value_and_its_repeat_does_not_run_again() -> None:
    written = call("paint_trends", room="living room", brand="Dulux")
    model = ScriptedModel([written, written, "Sage green."])
    result = await Agent(model, tools=[paint_trends]).run("Which paint colour is most popular for living rooms?")
    assert result.output == "Sage green."
    assert result.steps[0].call == call("paint_trends", room="living room")
    assert result.steps[0].result == "sage green (living room, any)"
    assert "already" in model.requests[2].messages[-1].content.lower()  # the repeat was answered, not run


async def test_an_asked_value_runs() -> None:
    model = ScriptedModel([call("paint_trends", room="kitchen", brand="Dulux"), "Blue."])
    result = await Agent(model, tools=[paint_trends]).run("The favourite Dulux paint for a kitchen?")
    assert result.steps[0].result == "sage green (kitchen, Dulux)"


@tool
def find_movies(location: str, genre: Literal["World", "Action", "dontcare"] = "dontcare") -> str:
    """Movies showing in a city.

    Args:
        location: The city.
        genre: The genre; dontcare for every genre.
    """
    return f"{location}: {genre}"


async def test_the_call_runs_without_an_enum_value_no_one_named() -> None:
    model = ScriptedModel([call("find_movies", location="San Jose", genre="World"), "Three films."])
    result = await Agent(model, tools=[find_movies]).run("Any nice regular movies showing in San Jose?")
    assert result.steps[0].call == call("find_movies", location="San Jose")
    assert result.steps[0].result == "San Jose: dontcare"
