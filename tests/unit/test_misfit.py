"""A value of a kind its argument does not take is held back; after one held-back call, so is a string no one
wrote (`agentcore.misfit`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.misfit import misfits, placeholder, shape, spelled_tools, unspoken
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("192.168.1.1", "an IP address"),
        ("https://api.example.com/v1", "a web address"),
        ("andy@gorilla.ai", "an email address"),
        ("google.com", "a domain name"),
        ("pg.example.org", "a domain name"),
        ("image.png", None),  # a file name
        ("San Francisco, CA", None),
        ("37.8651", None),
        ("Node.js", None),
    ],
)
def test_shape(value: str, kind: str | None) -> None:
    assert shape(value) == kind


WEATHER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "host": {"type": "string", "description": "The hostname or IP address of the server."},
        "query": {"type": "string"},
        "site_url": {"type": "string"},
    },
    "required": ["location"],
}


@pytest.mark.parametrize(
    ("arguments", "found"),
    [
        ({"location": "google.com"}, [("location", "google.com", "a domain name")]),
        ({"location": "192.168.1.1"}, [("location", "192.168.1.1", "an IP address")]),
        ({"location": "Boston, MA"}, []),
        ({"location": "google.com, CA"}, [("location", "google.com, CA", "made from a domain name, google.com")]),
        ({"location": "10.10.0.0, CA"}, [("location", "10.10.0.0, CA", "made from an IP address, 10.10.0.0")]),
        ({"location": "St. Louis, MO"}, []),
        (
            {"location": "domain spotify.com, CA"},
            [("location", "domain spotify.com, CA", "made from a domain name, spotify.com")],
        ),
        ({"location": "Washington D.C., DC"}, []),
        ({"host": "192.168.0.10"}, []),  # the docs name IP addresses
        ({"host": "pg.example.org"}, []),  # and host names
        ({"query": "paypal.com"}, []),  # free text takes any value
        ({"site_url": "http://a.org"}, []),  # the name's parts count
        ({"location": "Boston", "unit": "celsius"}, []),
    ],
)
def test_misfits(arguments: dict[str, Any], found: list[tuple[str, str, str]]) -> None:
    assert misfits(arguments, WEATHER) == found


def test_a_word_written_elsewhere_only_inside_identifiers_is_taken_from_the_domain() -> None:
    given = "Show me comments about slack.com from VirusTotal, from cursor 'slack_c2'."
    assert misfits({"location": "Slack, CA"}, WEATHER, given) == [
        ("location", "Slack, CA", "made from a domain name, slack.com")
    ]
    assert misfits({"location": "Slack, CA"}, WEATHER, given + " Is Slack down?") == []  # written as a word


@pytest.mark.parametrize(
    ("value", "given", "missing"),
    [
        ("San Francisco, CA", "Show me comments on google.com.", ["location=San Francisco, CA"]),
        ("London", "Who are you?", ["location=London"]),
        ("Boston", "Weather in boston please", []),  # case is not a difference
        ("Chicago, IL", "Weather for Chicago", []),  # one shared word is enough
        ("Lions", "the mating of lions", []),
        ("北京", "北京后天的天气如何？", []),  # a script without spaces
        ("2023-10-06", "next Friday", []),  # dates are not judged
    ],
)
def test_unspoken(value: str, given: str, missing: list[str]) -> None:
    assert unspoken({"location": value}, WEATHER, given) == missing


@tool
def get_current_weather(location: str) -> str:
    """The current weather.

    Args:
        location: The city and state, e.g. San Francisco, CA
    """
    return f"sunny in {location}"


TASK = "Show me the VirusTotal comments on google.com."


async def test_a_domain_as_a_location_is_held_back_and_the_model_may_answer() -> None:
    model = ScriptedModel([call("get_current_weather", location="google.com"), "I cannot do that with these tools."])
    result = await Agent(model, tools=[get_current_weather]).run(TASK)
    assert result.output == "I cannot do that with these tools."
    assert result.steps[0].tool_error and result.steps[0].result.startswith("not run: 'google.com' is a domain name")
    notice = model.requests[1].messages[-1].content
    assert notice.startswith("Not run: 'google.com' is a domain name, which location (The city and state")
    assert "If no tool does what the task asks, do not call one" in notice


async def test_after_a_held_back_call_the_docs_example_is_held_back_and_only_an_answer_is_left() -> None:
    model = ScriptedModel(
        [
            call("get_current_weather", location="google.com"),
            call("get_current_weather", location="San Francisco, CA"),  # no one wrote it
            "These tools cannot read VirusTotal.",
        ]
    )
    result = await Agent(model, tools=[get_current_weather]).run(TASK)
    assert result.output == "These tools cannot read VirusTotal."
    assert all(s.tool_error for s in result.steps if s.call)  # neither call ran
    assert model.requests[2].tools == ()
    assert "location=San Francisco, CA" in model.requests[2].messages[-1].content


async def test_a_first_call_with_a_value_no_one_wrote_still_runs() -> None:
    # "in the capital" -> "Boston": one string inferred, not copied from the docs (see agentcore.misfit)
    model = ScriptedModel([call("get_current_weather", location="Boston"), "Sunny."])
    result = await Agent(model, tools=[get_current_weather]).run("How's the weather in the capital of Massachusetts?")
    assert result.steps[0].result == "sunny in Boston" and not result.steps[0].tool_error


async def test_a_first_call_with_the_docs_example_is_held_back() -> None:
    model = ScriptedModel([call("get_current_weather", location="San Francisco, CA"), "Java is a language."])
    result = await Agent(model, tools=[get_current_weather]).run("what is java")
    assert result.output == "Java is a language." and result.steps[0].tool_error
    assert "location=San Francisco, CA is in neither the task" in model.requests[1].messages[-1].content


@pytest.mark.parametrize(
    ("value", "stand_in"),
    [
        ("John Doe", True), ("jane smith", True), ("Alice", True), ("user@example.com", True),
        ("https://example.org/x", True), ("foo", True),
        ("John", False), ("Alice Walker", False), ("Doe", False), ("examples.com", False), ("football", False),
    ],
)  # fmt: skip
def test_placeholder(value: str, stand_in: bool) -> None:
    assert placeholder(value) is stand_in


@pytest.mark.parametrize(
    ("value", "name", "stand_in"),
    [
        ("password", "password", True), ("Project Name", "project_name", True), ("your_password", "password", True),
        ("your_name_here, CA", "location", True), ("YOUR_API_KEY", "api_key", True),
        ("hunter2", "password", False), ("Apollo", "project_name", False), ("Yours Truly", "title", False),
    ],
)  # fmt: skip
def test_a_value_that_names_its_argument_is_a_stand_in(value: str, name: str, stand_in: bool) -> None:
    assert placeholder(value, name) is stand_in


async def test_a_first_call_with_a_stock_stand_in_is_held_back() -> None:
    model = ScriptedModel([call("get_current_weather", location="Alice"), "I am an assistant."])
    result = await Agent(model, tools=[get_current_weather]).run("what is your name?")
    assert result.output == "I am an assistant." and result.steps[0].tool_error
    assert "location=Alice is in neither the task" in model.requests[1].messages[-1].content


@tool
def http_get(url: str) -> str:
    """Sends a GET request.

    Args:
        url: The URL to send the request to, formatted as 'https://api.example.com/data'.
    """
    return f"fetched {url}"


async def test_a_stand_in_of_any_shape_is_held_back_unless_the_user_writes_it() -> None:
    model = ScriptedModel([call("http_get", url="https://api.example.com/data"), "Which stop's timetable?"])
    result = await Agent(model, tools=[http_get]).run("a que hora pasa el autobus por la parada 357?")
    assert result.output == "Which stop's timetable?" and result.steps[0].tool_error
    model = ScriptedModel([call("http_get", url="https://api.example.com/data"), "Done."])
    result = await Agent(model, tools=[http_get]).run("Fetch https://api.example.com/data for me.")
    assert result.steps[0].result == "fetched https://api.example.com/data"


@pytest.mark.parametrize(
    ("arguments", "missing"),
    [
        ({"location": "Miami", "query": "birds"}, []),  # free text is the model's to write
        ({"location": "Miami", "host": "CAD"}, []),  # a code is derived from a name
        ({"location": "Miami", "host": "spring"}, ["host=spring"]),  # optional arguments count when asked
    ],
)
def test_unspoken_of_every_argument(arguments: dict[str, Any], missing: list[str]) -> None:
    assert unspoken(arguments, WEATHER, "A picnic spot in Miami?", required_only=False) == missing


@tool
def local_fauna(location: str, species_type: str, season: str = "any") -> str:
    """Wildlife of a place.

    Args:
        location: The place.
        species_type: The kind of animal.
        season: The season.
    """
    return f"{species_type} in {location}"


async def test_a_first_call_with_two_strings_no_one_wrote_is_held_back() -> None:
    model = ScriptedModel([call("local_fauna", location="Miami", species_type="bird", season="spring"), "No tool."])
    result = await Agent(model, tools=[local_fauna]).run("Find a picnic spot in Miami.")
    assert result.output == "No tool." and result.steps[0].tool_error
    assert "species_type=bird and season=spring" in model.requests[1].messages[-1].content


async def test_a_first_call_with_one_string_no_one_wrote_runs() -> None:
    model = ScriptedModel([call("local_fauna", location="Miami", species_type="bird"), "Birds."])
    result = await Agent(model, tools=[local_fauna]).run("Which animals live in Miami?")  # "bird": one unwritten string
    assert result.steps[0].result == "bird in Miami" and not result.steps[0].tool_error


@pytest.mark.parametrize(
    ("value", "given"),
    [
        ("km", "Convert 5 kilometers"),
        ("Los Angeles", "the weather in LA"),
        ("San Francisco, CA", "in the SF area"),
        ("ft", "ten feet"),
    ],
)
def test_abbreviations_and_initials_count_as_written(value: str, given: str) -> None:
    assert unspoken({"location": value}, WEATHER, given) == []


def test_a_value_made_from_a_domain_name_does_not_fit_either() -> None:
    given = "Using 'theta_key', fetch comments for domain instagram.com."
    assert misfits({"location": "Instagram, CA"}, WEATHER, given) == [
        ("location", "Instagram, CA", "made from a domain name, instagram.com")
    ]
    assert misfits({"location": "Boston, MA"}, WEATHER, "Weather in Boston, MA, then mail bob@boston.org") == []
    assert misfits({"location": "image"}, WEATHER, "Describe image.png") == []  # a file, not a domain


def test_spelled_tools() -> None:
    task = "Could you retrieve a list of all the PostgreSQL servers in our environment?"
    assert spelled_tools(task, ["add_postgres_server", "list_servers", "dartfx_help"]) == ["list_servers"]
    assert spelled_tools("What is the price of gold?", ["calculate_Bond_Price", "get_price"]) == ["get_price"]
    task = "Find details of patent lawsuits involving the company 'Apple Inc.' from the year 2010."
    assert spelled_tools(task, ["lawsuit_details.find", "game_score.highest"]) == ["lawsuit_details.find"]


@tool
def add_server(host: str, port: int) -> str:
    """Add a server.

    Args:
        host: The host name.
        port: The port.
    """
    return "added"


@tool
def list_servers() -> str:
    """List the configured servers."""
    return "pg1, pg2"


async def test_a_held_back_call_names_the_tool_the_task_spells_out() -> None:
    model = ScriptedModel([call("add_server", host="db", port=5432), call("list_servers"), "pg1, pg2"])
    result = await Agent(model, tools=[add_server, list_servers]).run("Show me a list of all our servers.")
    assert (
        "The task names list_servers: call it if it does what the task asks." in model.requests[1].messages[-1].content
    )
    assert [spec.name for spec in model.requests[1].tools] == ["list_servers"]  # the next turn must call it
    assert result.output == "pg1, pg2" and result.steps[1].result == "pg1, pg2"


@tool
def find_card(rank: str, suit: str) -> str:
    """Locate a particular card in a deck based on rank and suit.

    Args:
        rank: Rank of the card (e.g. Ace, King).
        suit: Suit of the card (e.g. Hearts, Spades).
    """
    return "found"


@tool
def team_schedule(team_name: str, num_of_games: int) -> str:
    """Fetches the schedule of a sports team for the specified number of games in its league.

    Args:
        team_name: The team.
        num_of_games: How many games.
    """
    return f"{team_name}: {num_of_games} games"


async def test_a_held_back_call_names_the_tool_whose_docs_share_the_tasks_words() -> None:
    model = ScriptedModel([call("find_card", rank="Ace", suit="Hearts"), call("team_schedule", team_name="Ajax",
                          num_of_games=6), "done"])  # fmt: skip
    result = await Agent(model, tools=[find_card, team_schedule]).run(
        "Give me the schedule of Ajax for the next 6 games in the league."
    )
    notice = model.requests[1].messages[-1].content
    assert "team_schedule fits the task better" in notice and "games, league, schedule" in notice
    assert [spec.name for spec in model.requests[1].tools] == ["team_schedule"]  # the next turn must call it
    assert result.steps[1].result == "Ajax: 6 games"


async def test_a_held_back_call_names_no_tool_sharing_one_word() -> None:
    model = ScriptedModel([call("find_card", rank="Ace", suit="Hearts"), "I cannot tell."])
    await Agent(model, tools=[find_card, team_schedule]).run("Which games are fun?")
    notice = model.requests[1].messages[-1].content
    assert "fits the task better" not in notice and len(model.requests[1].tools) == 2


def test_a_web_address_fits_a_file_path() -> None:
    schema = {"properties": {"image_path": {"type": "string", "description": "The file path to the image."}}}
    assert misfits({"image_path": "http://example.com/a.jpg"}, schema) == []
    assert misfits({"image_path": "10.0.0.1"}, schema) == [("image_path", "10.0.0.1", "an IP address")]


STOCKS = {
    "type": "object",
    "properties": {
        "company_name": {"type": "string", "description": "The name of the company."},
        "detail_level": {"type": "string", "description": "Level of detail. Can be 'summary' or 'detailed'."},
        "market": {"type": "string", "description": "The stock market of interest. Default is 'NASDAQ'"},
    },
    "required": ["company_name", "detail_level"],
}


def test_values_the_docs_give_are_not_unspoken() -> None:
    """BFCL multiple_148: "market=NASDAQ", the docs' default, counted as a value no one gave."""
    given = "Give me detail information about stocks of Apple Inc."
    arguments = {"company_name": "Apple Inc.", "detail_level": "detailed", "market": "NASDAQ"}
    assert unspoken(arguments, STOCKS, given, required_only=False) == []
    wrong = {"company_name": "Apple Inc.", "detail_level": "full", "market": "Tokyo"}
    assert unspoken(wrong, STOCKS, given, required_only=False) == ["detail_level=full", "market=Tokyo"]
