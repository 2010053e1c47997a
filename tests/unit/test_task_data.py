"""A text tool's argument is the task's data as the user wrote it: the whole task copied goes as the data it marks
off after a colon or an arrow, and spelled quantities the model read as digits go back to words
(`agentcore.task_data`, forms of `call_forms`)."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.messages import ToolSpec
from agentcore.number_words import with_digits
from agentcore.task_data import data_only, in_user_words
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


def _text_tool(name: str, description: str) -> ToolSpec:
    return ToolSpec(name, description, {"type": "object", "properties": {"text": {"type": "string"}}})


COUNT = _text_tool("word_count", "Count the words in a text.")
REVERSE = _text_tool("reverse_string", "Reverse a string, character by character.")
LOOKUP = ToolSpec(
    "lookup",
    "Look up a key in a table.",
    {
        "type": "object",
        "properties": {"table": {"type": "string"}, "key": {"type": "string"}},
        "required": ["table", "key"],
    },
)
POST = "Word count please -> Bring 2 lanterns, a rope, and 3 sandwiches for the hike."


def test_the_whole_task_goes_as_the_side_the_tool_shares_no_word_with() -> None:
    assert data_only({"text": POST}, COUNT, POST) == {
        "text": "Bring 2 lanterns, a rope, and 3 sandwiches for the hike."
    }
    reverse = "Reverse the characters in: quiet harbor 42"
    assert data_only({"text": reverse}, REVERSE, reverse) == {"text": "quiet harbor 42"}
    # the data first, the request after the marker
    after = "Lanterns and rope: how many words, by your word count?"
    assert data_only({"text": after}, COUNT, after) == {"text": "Lanterns and rope"}


def test_other_arguments_stand() -> None:
    data = {"text": "Bring 2 lanterns"}
    assert data_only(data, COUNT, POST) is data  # already the data
    whole = {"text": POST}
    assert data_only(whole, LOOKUP, POST) is whole  # not a text tool
    quoted = 'Count the words: "a b c"'
    assert data_only({"text": quoted}, COUNT, quoted) == {"text": quoted}  # a quote is the quote's (quotes)
    both = "Count words: in this text"  # both sides share a word with the docs: which is data is unclear
    assert data_only({"text": both}, COUNT, both) == {"text": both}


def test_spelled_quantities_go_back_to_the_users_words() -> None:
    user = "mirror this, last character first: seven blue Ducks!"
    task = with_digits(user)
    assert task.endswith("7 blue Ducks!")
    assert in_user_words({"text": "7 blue Ducks!"}, REVERSE, task, user) == {"text": "seven blue Ducks!"}
    many = "Reverse this: twenty five thousand birds fly"
    assert in_user_words({"text": "25000 birds fly"}, REVERSE, with_digits(many), many) == {
        "text": "twenty five thousand birds fly"
    }
    own = {"text": "7 ducks"}  # not a span of the task: the model's own text
    assert in_user_words(own, REVERSE, task, user) is own


@tool
def reverse_string(text: str) -> str:
    """Reverse a string, character by character.

    Args:
        text: The string to reverse.
    """
    return text[::-1]


async def test_the_loop_reverses_the_users_words() -> None:
    user = "mirror this, last character first: seven blue Ducks!"
    model = ScriptedModel([call("reverse_string", text="7 blue Ducks!"), "!skcuD eulb neves"])
    result = await Agent(model, tools=[reverse_string]).run(user)
    assert "7 blue Ducks!" in model.requests[0].messages[-1].content  # the model read digits
    assert result.steps[0].call is not None
    assert result.steps[0].call.arguments == {"text": "seven blue Ducks!"}
    assert result.steps[0].result == "!skcuD eulb neves"
