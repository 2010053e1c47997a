"""A task that asks to find something calls a tool that finds (agentcore.search_asked)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.messages import ToolSpec
from agentcore.search_asked import finder_for
from agentcore.testing import ScriptedModel, call
from agentcore.tool_kinds import acts, finds
from agentcore.tools.function import tool


def spec(name: str, description: str = "") -> ToolSpec:
    return ToolSpec(name=name, description=description, parameters={"type": "object", "properties": {}})


PLAY = spec("Music_3_PlayMedia", "Plays the specified track on a device.")
LOOKUP = spec("Music_3_LookupMusic", "Retrieves a list of songs that match the user's preferences.")
MOVIES = spec("Media_3_FindMovies", "Explore movies online based on your preferences.")
ALARMS = spec("Alarm_1_GetAlarms", "Retrieves the alarms the user has set.")
OFFERED = [ALARMS, MOVIES, PLAY, LOOKUP]


def test_kinds_by_name() -> None:
    assert finds(LOOKUP) and finds(spec("get_weather")) and not acts(LOOKUP)
    assert acts(PLAY) and acts(spec("book_flight")) and not finds(PLAY)
    assert not finds(spec("calculator")) and not acts(spec("calculator"))


@pytest.mark.parametrize(
    ("task", "finder"),
    [
        ("Can you find a song from 2018 by Jess Glynne?", LOOKUP),
        ("Can you find songs by Sia?", LOOKUP),  # "songs" and "song" are one word
        ("I'm looking for Pop songs by Harris J.", LOOKUP),  # the finder of the task's words: songs
        ("Can you look up some movies with Jack Carson?", MOVIES),
        ("Can you find a song by Sia? Then play it in the kitchen.", LOOKUP),  # it asks to find first
        # the task asks for the act first, or asks to find nothing
        ("Play a track by Konshens. Also, I'm looking for a song.", None),
        ("Put on some Jess Glynne in the kitchen.", None),
    ],
)
def test_finder_for(task: str, finder: ToolSpec | None) -> None:
    found = finder_for(task, PLAY, OFFERED)
    assert (found[0] if found else None) == finder


def test_only_a_tool_that_acts_is_held_and_only_for_one_nearest_finder() -> None:
    assert finder_for("Can you find a song by Sia?", LOOKUP, OFFERED) is None  # it finds already
    assert finder_for("Can you find a song by Sia?", spec("calculator"), OFFERED) is None
    tied = [PLAY, spec("A_FindThings", "Finds."), spec("B_FindThings", "Finds.")]
    assert finder_for("Can you find a song by Sia?", PLAY, tied) is None


@tool
def play_song(track: str) -> str:
    """Plays a song on the speaker.

    Args:
        track: The song's title.
    """
    return f"playing {track}"


@tool
def lookup_songs(artist: str) -> str:
    """Lists the songs of an artist.

    Args:
        artist: The artist's name.
    """
    return f"songs by {artist}: Hold My Hand"


async def test_the_acting_call_is_held_and_the_finding_tool_called() -> None:
    model = ScriptedModel(
        [call("play_song", track="The Last Song"), call("lookup_songs", artist="Jess Glynne"), "Hold My Hand."]
    )
    result = await Agent(model, tools=[play_song, lookup_songs]).run("Can you find a song by Jess Glynne?")
    assert result.steps[0].tool_error and result.steps[0].result.startswith("not run: the task asks to find")
    assert [s.result for s in result.steps if s.call and not s.tool_error] == ["songs by Jess Glynne: Hold My Hand"]
    notice = model.requests[1].messages[-1].content
    assert "the task asks to find" in notice and "Call lookup_songs" in notice
    assert [t.name for t in model.requests[1].tools] == ["lookup_songs"]


@tool
def book_house(where_to: str, check_in: str, check_out: str) -> str:
    """Books a house.

    Args:
        where_to: The city, as 'City, State'.
        check_in: The check-in date, MM/DD/YYYY.
        check_out: The check-out date, MM/DD/YYYY.
    """
    return "booked"


@tool
def find_listings(where_to: str) -> str:
    """Searches for a house to stay in.

    Args:
        where_to: The city, as 'City, State'.
    """
    return f"3 houses in {where_to}"


async def test_a_call_held_for_made_up_values_names_the_tool_that_finds() -> None:
    model = ScriptedModel(
        [
            call("book_house", where_to="Austin, TX", check_in="04/23/2023", check_out="04/27/2023"),
            call("find_listings", where_to="Austin, TX"),
            "Three houses.",
        ]
    )
    result = await Agent(model, tools=[book_house, find_listings]).run("Can you find me a house to rent in Austin?")
    assert result.steps[0].tool_error and "given by no one" in (result.steps[0].result or "")
    assert "find_listings fits the task better" in model.requests[1].messages[-1].content
    assert [t.name for t in model.requests[1].tools] == ["find_listings"]
    assert [s.result for s in result.steps if s.call and not s.tool_error] == ["3 houses in Austin, TX"]


def test_the_words_that_ask_come_with_the_finder() -> None:
    assert finder_for("I'm Looking for songs by Sia.", PLAY, OFFERED) == (LOOKUP, "looking for")
