"""Values go to the arguments the task names them for (agentcore.roles)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.roles import in_named_places
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

MOVIES = {
    "properties": {
        "directed_by": {"type": "string", "description": "Director of the movie. Use 'dontcare' if not given."},
        "genre": {"type": "string", "enum": ["Action", "Fantasy", "dontcare"]},
        "cast": {"type": "string", "description": "Names of leading actors or actresses in the movie."},
    },
    "required": [],
}
DATABASE = {
    "properties": {
        "db_name": {"type": "string", "description": "The name of the database to modify."},
        "table": {"type": "string", "description": "The name of the table to modify."},
    },
    "required": ["db_name", "table"],
}
MUSIC = {
    "properties": {
        "artist": {"type": "string", "description": "The artist."},
        "album": {"type": "string", "description": "The album."},
        "year": {"type": "integer"},
    },
    "required": [],
}
TEAMS = {
    "properties": {
        "team_name": {"type": "string", "description": "The name of the soccer team."},
        "gender": {"type": "string", "description": "The gender of the team. Either 'men' or 'women'."},
    },
    "required": ["team_name"],
}

GAMES = {
    "properties": {
        "game": {"type": "string", "description": "The name of the video game."},
        "username": {"type": "string", "description": "The username of the player."},
    },
    "required": ["game", "username"],
}


@pytest.mark.parametrize(
    ("arguments", "schema", "task", "placed"),
    [
        (
            {"directed_by": "Jennifer Connelly", "cast": "Jim Henson"},
            MOVIES,
            "A movie that stars Jennifer Connelly. I would prefer something with Jim Henson as the director.",
            {"directed_by": "Jim Henson", "cast": "Jennifer Connelly"},
        ),
        (
            {"db_name": "personal_data", "table": "employees"},
            DATABASE,
            "Delete some columns from my employees database on personal_data table.",
            {"db_name": "employees", "table": "personal_data"},
        ),
        (
            {"artist": "Prequelle", "album": "Prequelle"},
            MUSIC,
            "I have been told an album called Prequelle is fab.",
            {"album": "Prequelle"},
        ),
        (
            {"artist": "Bieber", "album": "2013", "year": 2013},
            MUSIC,
            "Pop from 2013 by Bieber",
            {"artist": "Bieber", "year": 2013},
        ),
        # Unmoved: the quoted example 'men' names no argument, a made-up value has no place, an enum keeps its own.
        ({"team_name": "Germany", "gender": "men"}, TEAMS, "Germany's men soccer team", None),
        ({"db_name": "hr", "table": "employees"}, DATABASE, "the employees database", None),
        ({"genre": "Action", "cast": "Alex King"}, MOVIES, "an action film that stars Alex King", None),
        ({"directed_by": "Ann Lee", "cast": "Bo Li"}, MOVIES, "Ann Lee and Bo Li", None),  # nothing names either
        # "user" starts `username` (one word): 'Sam' is named for it, so "player" near 'Zelda' moves nothing
        ({"game": "Zelda", "username": "Sam"}, GAMES, "Fetch player statistics of 'Zelda' for user 'Sam'.", None),
    ],
)
def test_in_named_places(
    arguments: dict[str, Any], schema: dict[str, Any], task: str, placed: dict[str, Any] | None
) -> None:
    assert in_named_places(arguments, schema, task) == (arguments if placed is None else placed)


@tool
def modify_columns(db_name: str, table: str) -> str:
    """Delete columns.

    Args:
        db_name: The name of the database to modify.
        table: The name of the table to modify.
    """
    return f"{db_name}.{table} changed"


async def test_the_swapped_call_runs_with_each_value_in_its_place() -> None:
    model = ScriptedModel([call("modify_columns", db_name="personal_data", table="employees"), "Done."])
    task = "Delete the email column from my employees database on personal_data table."
    result = await Agent(model, tools=[modify_columns]).run(task)
    assert result.steps[0].result == "employees.personal_data changed"


ROUTE: dict[str, Any] = {
    "properties": {
        "start_location": {"type": "string"},
        "end_location": {"type": "string"},
        "origin": {"type": "string"},
        "destination": {"type": "string"},
    }
}


@pytest.mark.parametrize(
    ("arguments", "task", "expected"),
    [
        (  # "from" and "to" put each end in its place (BFCL multiple_66)
            {"start_location": "Los Angeles", "end_location": "Las Vegas"},
            "How much traffic should I expect from Las Vegas to Los Angeles this weekend?",
            {"start_location": "Las Vegas", "end_location": "Los Angeles"},
        ),
        (  # named alike as they stand; a value's first comma part is what the task writes
            {"origin": "Paris, FR", "destination": "Berlin"},
            "A flight to Paris from Berlin, please.",
            {"origin": "Berlin", "destination": "Paris, FR"},
        ),
        (  # already in place
            {"start_location": "Las Vegas", "end_location": "Los Angeles"},
            "Traffic from Las Vegas to Los Angeles",
            {"start_location": "Las Vegas", "end_location": "Los Angeles"},
        ),
        (  # no "from": nothing to read
            {"start_location": "Los Angeles", "end_location": "Las Vegas"},
            "Traffic between Las Vegas and Los Angeles",
            {"start_location": "Los Angeles", "end_location": "Las Vegas"},
        ),
        (  # not a pair named alike: a start and a destination
            {"start_location": "Los Angeles", "destination": "Las Vegas"},
            "from Las Vegas to Los Angeles",
            {"start_location": "Los Angeles", "destination": "Las Vegas"},
        ),
    ],
)
def test_a_routes_ends_go_where_from_and_to_put_them(
    arguments: dict[str, Any], task: str, expected: dict[str, Any]
) -> None:
    assert in_named_places(arguments, ROUTE, task) == expected


@tool
def traffic_estimate(start_location: str, end_location: str) -> str:
    """Estimate traffic between two places.

    Args:
        start_location: Where the trip starts.
        end_location: Where the trip ends.
    """
    return f"{start_location} -> {end_location}: light"


async def test_the_route_runs_from_where_the_task_starts_it() -> None:
    model = ScriptedModel([call("traffic_estimate", start_location="Los Angeles", end_location="Las Vegas"), "Light."])
    result = await Agent(model, tools=[traffic_estimate]).run("Traffic from Las Vegas to Los Angeles tonight?")
    assert result.steps[0].result == "Las Vegas -> Los Angeles: light"


def test_a_time_stays_in_the_argument_documented_as_a_time() -> None:
    # "set" (of the time's docs) stands nearer "new alarm" than any word of the name's docs
    schema = {
        "type": "object",
        "properties": {
            "new_alarm_time": {"type": "string", "description": "The time to set for the new alarm (HH:MM)."},
            "new_alarm_name": {"type": "string", "description": "The label to assign to the new alarm."},
        },
    }
    arguments = {"new_alarm_time": "17:15", "new_alarm_name": "New alarm"}
    assert in_named_places(arguments, schema, "Can you set a new alarm for me at 17:15?") == arguments


MUSIC = {
    "type": "object",
    "properties": {
        "artist": {"type": "string", "description": "The performer. Use 'dontcare' to ignore.", "default": "dontcare"},
        "album": {"type": "string", "description": "The title of the album.", "default": "dontcare"},
        "genre": {"type": "string", "enum": ["Pop", "Metal", "dontcare"], "default": "dontcare"},
        "year": {"type": "string", "enum": ["2019", "2021", "dontcare"], "default": "dontcare"},
    },
}


def test_a_value_the_task_names_for_neither_stays_where_the_choices_hold_it() -> None:
    task = "Find me a list of Metal songs released in 2019? Ideally, tracks by Sabaton."
    assert in_named_places({"artist": "Sabaton", "album": "Metal", "genre": "Metal"}, MUSIC, task) == {
        "artist": "Sabaton", "genre": "Metal"
    }  # fmt: skip
    assert in_named_places({"album": "2021", "year": "2021"}, MUSIC, "Some Pop songs from 2021") == {"year": "2021"}
    # a free string's own no-preference value stays beside an enum's
    assert in_named_places({"album": "dontcare", "genre": "dontcare"}, MUSIC, "Some songs") == {
        "album": "dontcare", "genre": "dontcare"
    }  # fmt: skip


PLAY = {
    "type": "object",
    "required": ["track"],
    "properties": {
        "track": {"type": "string", "description": "The title of the track to be played."},
        "artist": {"type": "string", "description": "The artist.", "default": "any"},
        "album": {"type": "string", "description": "The album where the track is from.", "default": "any"},
    },
}


def test_a_value_written_after_a_left_out_arguments_name_goes_there_too() -> None:
    task = "Could you play a track from the album Borbena by Teodora?"
    called = {"track": "Borbena", "artist": "Teodora", "album": "any"}
    assert in_named_places(called, PLAY, task) == {"track": "Borbena", "artist": "Teodora", "album": "Borbena"}
    # an optional one moves; a value written after no argument's name stays
    assert in_named_places({"track": "x", "artist": "Borbena"}, PLAY, task) == {"track": "x", "album": "Borbena"}
    assert in_named_places({"track": "Teodora"}, PLAY, task) == {"track": "Teodora"}
