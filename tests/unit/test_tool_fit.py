"""A first answer from memory goes back once when an offered tool's docs share two or more content words with the
task (`agentcore.tool_fit`, `answer_checks.memory_answer_check`); a first call of a tool with side effects is held
back once when no offered tool shares a word with the task (`tool_fit.unrelated`, `fit_checks.unfitting_call`)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.events import Event, Notice
from agentcore.messages import ToolSpec
from agentcore.testing import ScriptedModel, call
from agentcore.tool_fit import closer_tool, family, fitting_tools, shared_words, tools_for_number, unrelated
from agentcore.tools.function import tool

PAPAL = ToolSpec(
    "religious_history.get_papal_biography",
    "Retrieve the biography and main religious and historical contributions of a Pope.",
    {"type": "object", "properties": {"papal_name": {"type": "string", "description": "The papal name of the Pope."}}},
)
WEATHER = ToolSpec(
    "get_weather", "The current weather.", {"type": "object", "properties": {"location": {"type": "string"}}}
)
CONVERT = ToolSpec(
    "unit_convert",
    "Convert a value between units.",
    {"type": "object", "properties": {"value": {"type": "number", "description": "A temperature, length or mass."}}},
)


def test_shared_words() -> None:
    task = "Get the biography and main contributions of Pope Innocent III."
    assert shared_words(task, PAPAL) == ["biography", "contributions", "main", "pope"]
    assert shared_words(task, WEATHER) == []


def test_fitting_tools_need_two_shared_words() -> None:
    assert fitting_tools("Get the biography of Pope Innocent III.", [WEATHER, PAPAL]) == [PAPAL.name]
    # one shared word ("temperature") is a topic, not the tool's job
    assert fitting_tools("At sea level, at what temperature does water boil?", [CONVERT]) == []
    assert fitting_tools("Who are you?", [PAPAL, WEATHER]) == []


REVERSE = ToolSpec(
    "reverse_string",
    "Reverse a string, character by character.",
    {"type": "object", "properties": {"text": {"type": "string", "description": "The string to reverse."}}},
)


def test_a_tool_named_for_a_quoted_text_fits() -> None:
    assert fitting_tools("Reverse the word 'strawberry'.", [REVERSE, WEATHER]) == [REVERSE.name]
    assert fitting_tools('What is "agentcore" spelled in reverse?', [REVERSE]) == [REVERSE.name]
    # the name's word inside the quotes is the text, not the job; no quoted text, no fit on one word
    assert fitting_tools("Say 'reverse' in French.", [REVERSE]) == []
    assert fitting_tools("Can a river reverse its flow?", [REVERSE]) == []


LOOKUP = ToolSpec(
    "lookup",
    "Look up a key in a table: prices (product -> price in dollars).",
    {"type": "object", "properties": {"key": {"type": "string", "description": "The product name."}}},
)


def test_a_number_from_memory_fits_a_tool_sharing_one_word() -> None:
    task = "How much does a backpack cost, in dollars?"
    assert fitting_tools(task, [LOOKUP]) == []  # one shared word: "dollars"
    assert tools_for_number(task, "The backpack costs $100.", [LOOKUP, WEATHER]) == [LOOKUP.name]
    assert tools_for_number(task, "A backpack is a bag.", [LOOKUP]) == []  # no number: words may be right
    assert tools_for_number("Who wrote Hamlet?", "Shakespeare, in 1600.", [LOOKUP]) == []  # no word shared


@tool
def price_lookup(key: str) -> str:
    """Look up a key in a table: prices (product -> price in dollars).

    Args:
        key: The product name.
    """
    return "49.5"


async def test_a_price_from_memory_goes_back_for_the_lookup() -> None:
    model = ScriptedModel(["The backpack costs $100.", call("price_lookup", key="backpack"), "49.5"])
    result = await Agent(model, tools=[price_lookup]).run("How much does a backpack cost, in dollars?")
    assert result.output == "49.5"
    assert [spec.name for spec in model.requests[1].tools] == ["price_lookup"]
    assert not model.requests[1].allow_final


@tool
def papal_biography(papal_name: str) -> str:
    """Retrieve the biography and main contributions of a Pope.

    Args:
        papal_name: The papal name of the Pope.
    """
    return f"{papal_name}: pope 1198-1216; Fourth Lateran Council."


TASK = "Get the biography and main contributions of Pope Innocent III."


async def test_an_answer_from_memory_goes_back_for_the_tool_the_task_describes() -> None:
    model = ScriptedModel(
        ["Innocent III was born in 1932.", call("papal_biography", papal_name="Innocent III"), "Pope 1198-1216."]
    )
    result = await Agent(model, tools=[papal_biography]).run(TASK)
    assert result.output == "Pope 1198-1216."
    assert model.requests[1].messages[-1].content.startswith("The task asks you to use papal_biography")
    assert [spec.name for spec in model.requests[1].tools] == ["papal_biography"]
    assert not model.requests[1].allow_final  # the tool is required


async def test_an_answer_to_a_question_the_tools_do_not_describe_stands() -> None:
    plain = ScriptedModel(["I am a helpful assistant."])
    assert (await Agent(plain, tools=[papal_biography]).run("Who are you?")).output == "I am a helpful assistant."


@pytest.mark.parametrize(
    ("task", "unrelated_"),
    [
        ("What color is a clear daytime sky?", True),
        ("Tell me a joke about cats", True),
        ("What is the weather like in Paris?", False),  # "weather"
        ("What will the weathers be?", False),  # four-letter stems: "weathers" and "weather"
        ("What is the capital of France?", True),
        ("How far is 12 km in miles?", False),  # a number for a tool to work on
        ("Reverse 'hello world'", False),  # quoted text
        ("How much does a gizmo cost? The prices are in prices.txt.", False),  # a file name
        ("Hello", False),  # one content word: too little to judge
    ],
)
def test_unrelated(task: str, unrelated_: bool) -> None:
    assert unrelated(task, [WEATHER]) is unrelated_


@tool
def get_weather(location: str) -> str:
    """The current weather.

    Args:
        location: The city.
    """
    return f"sunny in {location}"


@tool(read_only=True)
def weather_now(location: str) -> str:
    """The current weather.

    Args:
        location: The city.
    """
    return f"sunny in {location}"


async def test_a_call_no_word_of_the_task_is_about_is_held_back_once_and_runs_when_made_again() -> None:
    model = ScriptedModel([call("get_weather", location="Paris"), call("get_weather", location="Paris"), "Sunny."])
    events: list[Event] = []
    # Paris is named: a place no one named would be held as made up first (agentcore.ungiven)
    task = "What color is a clear daytime sky in Paris?"
    result = await Agent(model, tools=[get_weather]).run(task, on_event=events.append)
    notice = model.requests[1].messages[-1].content
    assert notice.startswith("Not run: nothing in the task is about what get_weather does (The current weather.)")
    assert "If no tool does what the task asks, do not call one" in notice
    assert [s.result for s in result.steps if s.call and not s.tool_error] == ["sunny in Paris"]  # made again: runs
    assert any(isinstance(e, Notice) and e.message.startswith("tool call shares no word") for e in events)


async def test_the_model_told_no_tool_fits_answers() -> None:
    model = ScriptedModel([call("get_weather", location="Paris"), "Blue."])
    result = await Agent(model, tools=[get_weather]).run("What color is a clear daytime sky?")
    assert result.output == "Blue." and not [s for s in result.steps if s.call and not s.tool_error]


async def test_read_only_tools_and_tasks_that_name_the_tool_run_at_once() -> None:
    model = ScriptedModel([call("weather_now", location="Paris"), "Sunny."])
    await Agent(model, tools=[weather_now]).run("What color is a clear daytime sky?")
    assert len(model.requests) == 2  # read-only: its result shows whether it fit
    model = ScriptedModel([call("get_weather", location="Paris"), "Sunny."])
    await Agent(model, tools=[get_weather]).run("What is the weather in Paris?")
    assert len(model.requests) == 2


async def test_a_number_answered_after_the_hold_back_sends_the_model_to_the_held_tool() -> None:
    """Held back on the task's own value, the model answered a number from memory: the tool is required next."""
    script = [call("get_weather", location="Paris"), "It is 1000 degrees.", call("get_weather", location="Paris")]
    model = ScriptedModel([*script, "Sunny."])
    result = await Agent(model, tools=[get_weather]).run("What color is the sky over Paris?")
    assert [t.name for t in model.requests[2].tools] == ["get_weather"] and not model.requests[2].allow_final
    assert [s.result for s in result.steps if s.call and not s.tool_error] == ["sunny in Paris"]
    assert result.output == "Sunny."


async def test_a_number_answered_after_a_held_call_with_values_of_its_own_stands() -> None:
    model = ScriptedModel([call("get_weather", location="Rome"), "It is 1000 degrees."])
    result = await Agent(model, tools=[get_weather]).run("What color is the sky over Paris?")
    assert result.output == "It is 1000 degrees." and len(model.requests) == 2


def _spec(name: str, description: str) -> ToolSpec:
    return ToolSpec(name=name, description=description, parameters={"type": "object", "properties": {}})


MEDIA = [
    _spec("Media_3_PlayMovie", "Stream the selected movie online with the option to choose subtitles."),
    _spec("Music_3_LookupMusic", "Finds songs that align with the user's musical preferences by artist or genre."),
    _spec("Music_3_PlayMedia", "Plays the specified track on the designated device."),
]


def test_the_one_tool_sharing_more_of_the_task_is_closer() -> None:
    found = closer_tool("Can you find me some Hillbilly songs from the album Chief?", MEDIA[0], MEDIA)
    assert found is not None and found[0].name == "Music_3_LookupMusic" and found[1] == ["songs"]


@pytest.mark.parametrize(
    ("task", "chosen"),
    [
        ("Can you find me some songs from the album Chief?", 1),  # already the closest
        ("Play it for me", 0),  # a tie (play: PlayMovie and PlayMedia), so no one tool is closer
        ("Do something for me", 0),  # nothing shared at all
    ],
)
def test_no_closer_tool(task: str, chosen: int) -> None:
    assert closer_tool(task, MEDIA[chosen], MEDIA) is None


def _with_choices(name: str, description: str, choices: list[str]) -> ToolSpec:
    parameters = {"type": "object", "properties": {"genre": {"type": "string", "enum": choices}}}
    return ToolSpec(name=name, description=description, parameters=parameters)


TIED = [
    _with_choices("Media_3_PlayMovie", "Stream the selected movie.", ["English", "Spanish"]),
    _with_choices("Media_3_FindMovies", "Search movies by genre.", ["Musical", "Horror"]),
    _with_choices("Music_3_PlayMedia", "Plays music on a device.", ["Kitchen", "Patio"]),
    _with_choices("Music_3_LookupMusic", "Finds music by genre.", ["Rock", "Pop"]),
]


def test_a_tie_goes_to_the_tool_whose_choices_the_task_names() -> None:
    # "music" ties three tools by name and description; only one lists "Rock" ("Musical" is no "music")
    found = closer_tool("Can you search for some rock music", TIED[0], TIED)
    assert found is not None and found[0].name == "Music_3_LookupMusic"


def test_a_choice_the_task_names_is_a_shared_word() -> None:
    # "Rock" is one of LookupMusic's genres: with "music", two shared words, so an answer from memory goes back
    assert shared_words("Some rock music from 2014", TIED[3]) == ["music", "rock"]
    assert fitting_tools("Some rock music from 2014", TIED) == ["Music_3_LookupMusic"]
    assert shared_words("Some music please", TIED[1]) == []  # whole words: "Musical" is no "music"


EVENTS = [
    _with_choices("Events_3_FindEvents", "Find cultural events in a city.", ["Music", "Theater"]),
    _with_choices("Events_3_BuyEventTickets", "Buy tickets for a cultural event.", []),
]


def test_a_choice_the_task_names_outweighs_a_word_both_share() -> None:
    # "event" is both tools'; "Theater" is one of FindEvents' choices, so it shares two words to the chosen one's one
    found = closer_tool("I'm looking for a Theater event in Chicago", EVENTS[1], EVENTS)
    assert found is not None and found[0].name == "Events_3_FindEvents" and found[1] == ["event", "theater"]
    assert closer_tool("Buy me a ticket for the Theater event", EVENTS[1], EVENTS) is None  # "ticket": a tie


TICKETS = [
    _spec("Buses_3_FindBus", "Search for a bus itinerary between two cities on a given date."),
    _spec("Buses_3_BuyBusTicket", "Buy tickets for a bus trip."),
    _spec("Events_3_FindEvents", "Find concerts and plays happening in a city."),
    _spec("Events_3_BuyEventTickets", "Buy tickets for an event."),
]


def test_a_tie_goes_to_the_tool_whose_api_speaks_of_the_task() -> None:
    # "buy" and "tickets" tie the two buying tools; only the Events API (its FindEvents) speaks of concerts
    found = closer_tool("Buy 4 tickets for the Brockhampton concert on March 13th", TICKETS[1], TICKETS)
    assert found is not None and found[0].name == "Events_3_BuyEventTickets"
    # the other way round, the chosen tool's own API is the closer one: nothing to change
    assert closer_tool("Buy 2 tickets for the Seattle bus on March 13th", TICKETS[1], TICKETS) is None


@pytest.mark.parametrize(
    ("name", "api"),
    [
        ("Buses_3_BuyBusTicket", "Buses_3"),
        ("EventSettingsApi.get_system_rules", "EventSettingsApi"),
        ("get_weather", None),  # a name that says no API
        ("get_2_things", None),
    ],
)
def test_a_tools_api_is_read_from_its_name(name: str, api: str | None) -> None:
    assert family(name) == api


def test_an_api_of_one_offered_tool_breaks_no_tie() -> None:
    # Events_3 offers one tool here: nothing but the tool itself to read, so the tie stands
    offered = [TICKETS[1], _spec("Events_3_BuyEventTickets", "Buy tickets for a concert.")]
    assert closer_tool("Buy 4 tickets for the concert", offered[0], offered) is not None  # "concert": not a tie
    tied = [TICKETS[1], TICKETS[3]]
    assert closer_tool("Buy 4 tickets for the Brockhampton concert", tied[0], tied) is None


TOKENS = [
    _spec("api_token_api.APITokenApi.post_api_token", "Create an API token for a user."),
    _spec("api_token_api.APITokenApi.get_api_tokens", "Retrieve the API tokens of a user."),
]


def test_a_tie_goes_to_the_tool_that_finds_where_the_task_names_no_act() -> None:
    # "api" and "tokens" tie the two; the task asks for something and names no act, so the one that finds
    found = closer_tool("I NEED ALL API TOKENS NOW!!! My user ID is 12345.", TOKENS[0], TOKENS)
    assert found is not None and found[0].name.endswith("get_api_tokens")
    # the task names an act ("create"): the tie stands; and the finding tool chosen stays
    assert closer_tool("Create new API tokens for user 12345.", TOKENS[0], TOKENS) is None
    assert closer_tool("I need all API tokens of user 12345.", TOKENS[1], TOKENS) is None


def test_a_tie_with_no_choice_named_stays_a_tie() -> None:
    assert closer_tool("Can you search for some jazz music", TIED[0], TIED) is None


@tool
def play_movie(title: str) -> str:
    """Stream the selected movie online."""
    return f"playing {title}"


@tool
def lookup_music(genre: str) -> str:
    """Finds songs by genre."""
    return f"3 {genre} songs"


async def test_a_first_call_of_a_farther_tool_is_held_and_the_closer_tool_is_forced() -> None:
    model = ScriptedModel([call("play_movie", title="Rock"), call("lookup_music", genre="rock"), "Three songs."])
    result = await Agent(model, tools=[play_movie, lookup_music]).run("Search for some rock songs")
    assert result.output == "Three songs." and result.steps[0].tool_error
    assert "lookup_music fits the task better" in model.requests[1].messages[-1].content
    assert [t.name for t in model.requests[1].tools] == ["lookup_music"]
    assert result.steps[1].result == "3 rock songs"


def test_the_chosen_tool_is_read_with_its_parameters() -> None:
    """One word of another tool's description ("preferably" and "preferences") does not outweigh the chosen
    tool's parameters (found on BFCL fresh test slice 17, live_multiple_287)."""
    movies = _spec("FindMovies", "Movies by the user's preferences of director, genre and cast.")
    provider = ToolSpec(
        "FindProvider",
        "Discover a therapist based on the user's needs.",
        {"type": "object", "properties": {"type": {"type": "string", "description": "Family Counselor or other"}}},
    )
    task = "I'm in Los Gatos and looking for a family counselor, preferably one who accepts insurance?"
    assert closer_tool(task, provider, [movies, provider]) is None


@tool
def read_file(path: str) -> str:
    """Read a text file."""
    return "1234"


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression on numbers."""
    return "3702"


async def test_a_chain_is_judged_by_its_first_step() -> None:
    """The whole task shares more with the calculator ("calculator", "number"); its first step is read_file's."""
    model = ScriptedModel([call("read_file", path="count.txt"), call("calculator", expression="1234 * 3"), "3702"])
    task = "Read count.txt, then use the calculator to multiply the number in it by 3."
    result = await Agent(model, tools=[read_file, calculator]).run(task)
    assert [step.result for step in result.steps[:2]] == ["1234", "3702"] and result.output == "3702"


def test_a_tool_s_choices_are_its_words_too() -> None:
    movies = ToolSpec(
        name="FindMovies",
        description="Retrieve a list of movies.",
        parameters={"type": "object", "properties": {"genre": {"type": "string", "enum": ["Comedy", "Drama"]}}},
    )
    assert not unrelated("Find a Comedy film that features Vanessa Przada?", [movies])
    assert unrelated("Tell me a joke about cats", [movies])


def _with_flag(name: str, description: str, flag: str) -> ToolSpec:
    parameters = {"type": "object", "properties": {flag: {"type": "boolean", "description": f"Whether {flag}."}}}
    return ToolSpec(name=name, description=description, parameters=parameters)


SALONS = [
    _with_flag("Restaurants_2_FindRestaurants", "Finds restaurants in a location.", "has_seating_outdoors"),
    _with_flag("Services_1_BookAppointment", "Books an appointment with a hair stylist or salon.", "confirm"),
    _with_flag("Services_1_FindProvider", "Search for a hair stylist or salon in a city.", "is_unisex"),
]


def test_a_tie_left_goes_to_the_tool_whose_whole_docs_share_most() -> None:
    # "hair" and "salon" tie the two salon tools by name and description; only one has `is_unisex`
    found = closer_tool("so can you find me a unisex salon for my hair?", SALONS[0], SALONS)
    assert found is not None and found[0].name == "Services_1_FindProvider"
    # where the whole docs tie too and the task asks to find nothing, no one tool is closer
    assert closer_tool("a salon for my hair, please", SALONS[0], SALONS) is None


def test_a_tie_left_on_the_whole_docs_goes_to_the_tool_that_finds_for_a_task_that_asks_to_find() -> None:
    tied = [*SALONS[:2], _with_flag("Services_1_FindProvider", "Search for a hair stylist or salon.", "confirm")]
    found = closer_tool("will you find me a salon for my hair?", tied[0], tied)
    assert found is not None and found[0].name == "Services_1_FindProvider"
    assert closer_tool("a salon for my hair, please", tied[0], tied) is None  # it asks to find nothing
