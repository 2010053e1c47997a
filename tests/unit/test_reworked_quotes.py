"""A first answer that rearranges the task's quoted text, with no call tried, goes back for a tool that takes one
text (`agentcore.reworked_quotes`, in `answer_checks.memory_answer_check`)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.messages import ToolSpec
from agentcore.reworked_quotes import data_spans, does_text_work, reworks_quote, text_tools, tools_for_reworked_quote
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

FLIP = 'Could you flip "Stravinsky" so it reads back to front?'
PHRASE = 'What do you get if you write the phrase "paper moon" starting from its last letter?'


@pytest.mark.parametrize(
    ("task", "answer", "reworked"),
    [
        (FLIP, "snavniks", True),  # garbled, but only the quote's letters
        (FLIP, "yksnivartS", True),  # right, still worked out in the head
        (PHRASE, "moon paper", True),  # the words swapped: a string the task does not contain
        (PHRASE, "The phrase 'paper moon' backwards is 'noom repap'.", True),  # the answer's own quote is read
        (PHRASE, "paper moon", False),  # the quote itself
        (FLIP, "Stravinsky was a composer.", False),  # other letters
        (FLIP, "sky", False),  # a part of the quote the task contains
        ("Reverse the word strawberry.", "yrrebwarts", False),  # nothing quoted
        ("Flip 'ab'.", "ba", False),  # too short to tell work from chance
    ],
)
def test_an_answer_made_of_the_quoted_texts_letters_reworks_it(task: str, answer: str, reworked: bool) -> None:
    assert reworks_quote(task, answer) is reworked


def test_the_data_is_the_quoted_text_or_the_text_after_a_closing_marker() -> None:
    assert data_spans(FLIP) == ["Stravinsky"]
    assert data_spans("how many wrds in: contact admin@site.org or call reception") == [
        "contact admin@site.org or call reception"
    ]
    assert data_spans("API: No match.") == []  # two words: a message, not data
    assert data_spans('{"a": "b", "c": "d"}') == []  # many quotes: a document, not a text to work on


@pytest.mark.parametrize(
    ("task", "answer", "works"),
    [
        ('whats "never odd or even." read from the end?', "never odd or even.", True),  # the data unchanged
        ('can u write "three then twelve" backwards', "213", True),  # a number the task does not write
        ("how many wrds in: contact admin@site.org or call reception, thanks", "2", True),
        (FLIP, "snavniks", True),  # reworked
        ('Who wrote "Hamlet"?', "Shakespeare", False),
        ('Who wrote "Hamlet"?', "Shakespeare wrote it in 1600 or 1601, in London, for his company.", False),  # long
        ("What is 12 * 3?", "36", False),  # no data to work on
    ],
)
def test_an_answer_does_the_datas_work_in_the_head(task: str, answer: str, works: bool) -> None:
    assert does_text_work(task, answer) is works


def _spec(name: str, properties: dict[str, object], required: list[str] | None = None) -> ToolSpec:
    schema: dict[str, object] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    return ToolSpec(name, "", schema)


TEXT = {"type": "string"}
REVERSE = _spec("reverse_string", {"text": TEXT})
LOOKUP = _spec("lookup", {"table": {"type": "string", "enum": ["prices"]}, "key": TEXT}, ["table", "key"])
DATE = _spec("day_of", {"date": {"type": "string", "format": "date"}})
CONVERT = _spec("unit_convert", {"value": {"type": "number"}})


def test_text_tools_take_exactly_one_free_text() -> None:
    assert text_tools([REVERSE, LOOKUP, DATE, CONVERT]) == ["reverse_string"]
    # optional parameters beside one required text do not matter
    assert text_tools([_spec("count", {"text": TEXT, "lang": TEXT}, ["text"])]) == ["count"]
    assert tools_for_reworked_quote(FLIP, "snavniks", [LOOKUP, REVERSE]) == ["reverse_string"]
    assert tools_for_reworked_quote(FLIP, "snavniks", [LOOKUP, CONVERT]) == []  # no tool for text work


@tool
def reverse_string(text: str) -> str:
    """Reverse a string, character by character.

    Args:
        text: The string to reverse.
    """
    return text[::-1]


@tool
def lookup(key: str, table: str) -> str:
    """Look up a key in a table.

    Args:
        key: The key.
        table: The table.
    """
    return "no such key"


async def test_a_reworked_quote_from_memory_goes_back_for_the_text_tool() -> None:
    model = ScriptedModel(["snavniks", call("reverse_string", text="Stravinsky"), "yksnivartS"])
    result = await Agent(model, tools=[lookup, reverse_string]).run(FLIP)
    assert result.output == "yksnivartS"
    assert [spec.name for spec in model.requests[1].tools] == ["reverse_string"]
    assert not model.requests[1].allow_final  # the tool is required


async def test_an_answer_with_other_letters_stands() -> None:
    model = ScriptedModel(["He wrote The Rite of Spring."])
    result = await Agent(model, tools=[reverse_string]).run('Who was "Stravinsky"?')
    assert result.output == "He wrote The Rite of Spring."
    assert len(model.requests) == 1


async def test_the_data_answered_after_a_failed_call_goes_back_for_the_text_tool() -> None:
    task = "could you spell “Ozymandias” backwards for me?"
    model = ScriptedModel([call("lookup", key="Ozymandias", table="elements"), "Ozymandias",
                           call("reverse_string", text="Ozymandias"), "saidnamyzO"])  # fmt: skip
    result = await Agent(model, tools=[lookup, reverse_string]).run(task)
    assert result.output == "saidnamyzO"
    assert [spec.name for spec in model.requests[2].tools] == ["reverse_string"]
