"""Two or more required values that no one gave hold a call back: the agent asks for them instead of guessing."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.ungiven import held, undated_optional, ungiven

BOOK: dict[str, Any] = {
    "type": "object",
    "properties": {
        "where_to": {"type": "string", "description": "The city, in the format 'City, State'."},
        "adults": {"type": "integer", "description": "The number of adults."},
        "check_in": {"type": "string", "description": "The check-in date, 'MM/DD/YYYY'."},
        "check_out": {"type": "string", "description": "The check-out date, 'MM/DD/YYYY'."},
        "rooms": {"type": "integer", "enum": [1, 2, 3]},
        "pets": {"type": "boolean"},
        "rating": {"type": "number"},
    },
    "required": ["where_to", "adults", "check_in", "check_out", "rooms", "pets"],
}
GUESSED = {"where_to": "Austin, TX", "adults": 2, "check_in": "01/01/2023", "check_out": "01/10/2023"}


@pytest.mark.parametrize(
    ("arguments", "given", "found"),
    [
        (GUESSED, "I would like to rent a house.",
         ["where_to=Austin, TX", "adults=2", "check_in=01/01/2023", "check_out=01/10/2023"]),
        # the user's own values
        ({**GUESSED, "where_to": "Austin, TX"}, "A house in Austin for 2 adults, 01/01/2023 to 01/10/2023.", []),
        # a date written in words, or relative to today, is given; so is a date worked from the task's numbers
        (GUESSED, "A house in Austin for 2 adults from New Year's day for nine days.", []),
        ({**GUESSED, "adults": 1}, "A house in Austin next week.", []),
        # 0 and 1 are given, but not what they add up to
        ({**GUESSED, "where_to": "Austin"}, "A house in Austin.", ["adults=2", "check_in=01/01/2023",
                                                                   "check_out=01/10/2023"]),
        # 4 is 2 times 2; enums, booleans and optional values are not judged
        ({**GUESSED, "adults": 4, "rooms": 3, "pets": True, "rating": 4.5}, "Austin with my 2 kids on the 2nd.", []),
    ],
)  # fmt: skip
def test_ungiven(arguments: dict[str, Any], given: str, found: list[str]) -> None:
    assert ungiven(arguments, BOOK, "Books a house.", given) == found


def test_one_ungiven_value_is_not_enough() -> None:
    arguments = {**GUESSED, "adults": 2, "check_in": "01/01/2023", "check_out": "01/10/2023"}
    assert held(arguments, BOOK, "Books a house.", "A house in Austin for 2, 01/01/2023 to 01/10/2023.") == []
    assert held({**arguments, "adults": 3}, BOOK, "Books a house.", "A house in Houston for 2.") == [
        "where_to=Austin, TX", "adults=3"
    ]  # fmt: skip


def test_the_docs_give_numbers_too() -> None:
    docs = "Books a house for 2 adults by default."
    assert ungiven({**GUESSED, "adults": 2}, BOOK, docs, "In Austin next month.") == []
    assert ungiven({**GUESSED, "adults": 3}, BOOK, docs, "In Austin next month.") == ["adults=3"]  # rooms' enum: no


@tool
def book_house(where_to: str, adults: int, check_in: str, check_out: str) -> str:
    """Books a house.

    Args:
        where_to: The city, in the format 'City, State'.
        adults: The number of adults.
        check_in: The check-in date, 'MM/DD/YYYY'.
        check_out: The check-out date, 'MM/DD/YYYY'.
    """
    return "booked"


async def test_a_guessed_booking_is_held_and_the_agent_asks() -> None:
    model = ScriptedModel(
        [
            call("book_house", where_to="Austin, TX", adults=2, check_in="01/01/2023", check_out="01/10/2023"),
            "Where, for how many adults, and on which dates?",
        ]
    )
    result = await Agent(model, tools=[book_house]).run("I would like to rent a house.")
    assert result.output == "Where, for how many adults, and on which dates?"
    assert result.steps[0].tool_error and result.steps[0].result.startswith("not run: ")
    notice = model.requests[1].messages[-1].content
    assert "adults=2" in notice and "check_in=01/01/2023" in notice and "say which values are missing" in notice


async def test_a_booking_the_user_described_runs() -> None:
    model = ScriptedModel(
        [call("book_house", where_to="Austin, TX", adults=2, check_in="01/01/2023", check_out="01/10/2023"), "Done."]
    )
    result = await Agent(model, tools=[book_house]).run("Rent a house in Austin for 2 adults, Jan 1 to Jan 10 2023.")
    assert result.steps[0].result == "booked" and not result.steps[0].tool_error


def required_object(**docs: tuple[str, str]) -> dict[str, Any]:
    """A schema whose arguments, each given as (type, description), are all required."""
    properties = {name: {"type": kind, "description": text} for name, (kind, text) in docs.items()}
    return {"type": "object", "properties": properties, "required": list(docs)}


FLIGHT = required_object(
    origin=("string", "IATA code of the departure airport."),
    departure_date=("string", "The date, 'YYYY-MM-DD'."),
    seats=("integer", "The number of seats."),
)


@pytest.mark.parametrize(
    ("arguments", "given", "found"),
    [
        # a date or a time no one gave is enough alone
        ({"origin": "JFK", "departure_date": "2023-01-01", "seats": 1}, "Find me a JFK flight.",
         ["departure_date=2023-01-01"]),
        ({"origin": "JFK", "departure_date": "10:00", "seats": 1}, "Find me a JFK flight.", ["departure_date=10:00"]),
        # any date word, or any number, and it is not judged; nor is one made-up number alone
        ({"origin": "JFK", "departure_date": "2023-01-01", "seats": 1}, "A JFK flight next week.", []),
        ({"origin": "JFK", "departure_date": "2023-01-01", "seats": 1}, "A JFK flight for 2 on the 1st.", []),
        ({"origin": "JFK", "departure_date": "2023-01-01", "seats": 3}, "A JFK flight for 2 on the 1st.", []),
        # a decimal is no date; a value the conversation writes is given, whatever its shape
        ({"origin": "JFK", "departure_date": "2023-01-01", "seats": 1}, "A JFK flight rated 3.7 or above.",
         ["departure_date=2023-01-01"]),
        ({"origin": "JFK", "departure_date": "2.1.3", "seats": 1}, "JFK, version 2.1.3.", []),
    ],
)  # fmt: skip
def test_a_made_up_date_alone_is_held(arguments: dict[str, Any], given: str, found: list[str]) -> None:
    assert held(arguments, FLIGHT, "Searches flights.", given) == found


SALON = required_object(city=("string", "The city, in the format 'City, State'."), is_unisex=("boolean", ""))
SALON["properties"]["stylist"] = {"type": "string", "description": "The stylist's name."}  # optional


@pytest.mark.parametrize(
    ("arguments", "given", "found"),
    [
        # a place no one named, where the conversation names no place, is enough alone
        ({"city": "Berkeley, CA", "is_unisex": True}, "I need a salon. Can you search for one?", ["city=Berkeley, CA"]),
        ({"city": "Berkeley, CA", "is_unisex": True}, "I need a salon.\nCan you search?", ["city=Berkeley, CA"]),
        # the user's place, in any form, or a conversation that names one (a name past a sentence's start)
        ({"city": "Berkeley, CA", "is_unisex": True}, "A salon in berkeley, please.", []),
        ({"city": "New York, NY", "is_unisex": True}, "a salon in nyc", []),
        ({"city": "New York, NY", "is_unisex": True}, "A salon at Chi-town.", []),
        ({"city": "San Francisco, CA", "is_unisex": True}, "A salon near the Golden Gate.", []),
        # an optional name is not judged here
        ({"city": "Berkeley", "is_unisex": True, "stylist": "Linda"}, "A salon in Berkeley.", []),
    ],
)  # fmt: skip
def test_a_made_up_place_alone_is_held(arguments: dict[str, Any], given: str, found: list[str]) -> None:
    assert held(arguments, SALON, "Finds a salon.", given) == found


@tool
def find_salon(city: str) -> str:
    """Finds a salon.

    Args:
        city: The city, in the format 'City, State'.
    """
    return f"a salon in {city}"


async def test_a_made_up_place_is_held_and_the_agent_asks() -> None:
    model = ScriptedModel([call("find_salon", city="Berkeley, CA"), "In which city?"])
    result = await Agent(model, tools=[find_salon]).run("Can you search for a salon? I want a new hair style.")
    assert result.output == "In which city?" and result.steps[0].tool_error
    assert "city=Berkeley, CA" in model.requests[1].messages[-1].content


def test_a_place_is_judged_even_where_its_docs_call_it_data() -> None:
    schema = required_object(city=("string", "The city to retrieve weather data for."))
    assert held({"city": "New York, NY"}, schema, "Weather.", "I need to check weather for tomorrow please.") == [
        "city=New York, NY"
    ]


TEAM = required_object(team_id=("string", "The team's identifier."), force=("boolean", ""))
PROVINCE = required_object(province_id=("integer", "ID of the province. For example, 3 for Bangkok, 2 for Chiang Mai."))


@pytest.mark.parametrize(
    ("arguments", "schema", "given", "found"),
    [
        # an identifier no one wrote, where the conversation writes no digit, is enough alone
        ({"team_id": "12345", "force": True}, TEAM, "Tell me something", ["team_id=12345"]),
        ({"team_id": "MD5", "force": True}, TEAM, "mert", ["team_id=MD5"]),
        ({"province_id": 1}, PROVINCE, "获取武汉的天气", ["province_id=1"]),  # 1 is no value the docs give here
        # ... or, where it writes digits, with a run of two or more digits it does not write
        ({"team_id": "12345", "force": True}, TEAM, "Delete my team, the one from 2021.", ["team_id=12345"]),
        ({"team_id": "Release-161", "force": True}, TEAM, "Supply all, but limit to 50.", ["team_id=Release-161"]),
        # the user's identifier, its digits written, or a value the docs write
        ({"team_id": "blue", "force": True}, TEAM, "Delete the team called blue.", []),
        ({"team_id": "T-2021", "force": True}, TEAM, "Delete my team, the one from 2021.", []),  # its digits written
        ({"team_id": "R-005", "force": True}, TEAM, "Delete team 5.", []),  # 005 is 5
        ({"team_id": "T-7", "force": True}, TEAM, "Delete my team of 2021.", []),  # one digit: not judged
        ({"province_id": 3}, PROVINCE, "Find a cleaner in Bangkok.", []),
    ],
)  # fmt: skip
def test_a_made_up_identifier_alone_is_held(
    arguments: dict[str, Any], schema: dict[str, Any], given: str, found: list[str]
) -> None:
    assert held(arguments, schema, "Manages teams.", given) == found


PROVIDERS = {
    "type": "object",
    "properties": {
        "province_id": {"type": "integer", "description": "1 for Bangkok."},
        "start_available_date": {"type": "string", "description": "YYYY-MM-DD HH:mm:ss, or null.", "default": None},
        "note": {"type": "string", "description": "A note.", "default": ""},
        "shift": {"type": "string", "enum": ["09:00", "18:00"], "default": "09:00"},
    },
    "required": ["province_id"],
}


@pytest.mark.parametrize(
    ("arguments", "given", "undated"),
    [
        # a conversation that writes no date or time: an optional date is the model's own
        ({"province_id": 1, "start_available_date": "2023-01-01"}, "A cleaner in Bangkok.", ["start_available_date"]),
        ({"province_id": 1, "start_available_date": "2023-01-01 09:00"}, "Any cleaner?", ["start_available_date"]),
        # a date or time given in any form, a value that is more than a date, an enum's choice, a required argument
        ({"province_id": 1, "start_available_date": "2024-03-22"}, "A cleaner on the 22nd of March.", []),
        ({"province_id": 1, "start_available_date": "2024-03-22"}, "A cleaner for tomorrow.", []),
        ({"province_id": 1, "note": "call at 2023-01-01"}, "A cleaner in Bangkok.", []),
        ({"province_id": 1, "shift": "18:00"}, "A cleaner in Bangkok.", []),
    ],
)  # fmt: skip
def test_an_optional_date_of_a_conversation_with_none_is_left_out(
    arguments: dict[str, Any], given: str, undated: list[str]
) -> None:
    assert undated_optional(arguments, PROVIDERS, given) == undated


@tool(read_only=True)
def find_cleaners(province_id: int, start_available_date: str | None = None) -> str:
    """Cleaners of a province.

    Args:
        province_id: 1 for Bangkok.
        start_available_date: Available from, YYYY-MM-DD.
    """
    return f"cleaners in {province_id} from {start_available_date or 'now'}"


async def test_the_call_runs_without_a_date_no_one_gave() -> None:
    model = ScriptedModel([call("find_cleaners", province_id=1, start_available_date="2023-01-01"), "done"])
    result = await Agent(model, tools=[find_cleaners]).run("Help find a bathroom cleaner in Bangkok.")
    assert result.steps[0].result == "cleaners in 1 from now"


LOGIN = required_object(username=("string", "The user's name."), password=("string", "The user's password."))
LOOKUP = required_object(table=("string", "The table."), key=("string", "The row's key."))


@pytest.mark.parametrize(
    ("arguments", "schema", "given", "found"),
    [
        # a credential no one wrote is enough alone: no one can guess one
        ({"username": "ana", "password": "123456"}, LOGIN, "Hi", ["username=ana", "password=123456"]),
        ({"username": "bob", "password": "hunter2"}, LOGIN, "Log in as bob, please.", ["password=hunter2"]),
        # the user's own, or an argument that only shares a word with one (`key` of a lookup)
        ({"username": "bob", "password": "hunter2"}, LOGIN, "Log in as bob with password hunter2.", []),
        ({"table": "capitals", "key": "france"}, LOOKUP, "What is the capital of France?", []),
    ],
)  # fmt: skip
def test_a_made_up_credential_alone_is_held(
    arguments: dict[str, Any], schema: dict[str, Any], given: str, found: list[str]
) -> None:
    assert held(arguments, schema, "Signs users in.", given) == found
