"""A near copy of a text the task quotes goes as the quoted text (agentcore.quotes)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.quotes import as_quoted, quoted
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from bench import toolbox

LA = "How many words are in 'la la la la la la la la la la la la bye'?"


def test_typographic_quotes_and_backticks_quote() -> None:
    assert quoted("Count ‘naïve résumé’ and `a_b`, then “c d”.") == ["naïve résumé", "a_b", "c d"]


def test_quoted_spans_skip_apostrophes_inside_words() -> None:
    assert quoted("What is the tablet's price? Reverse 'abc' and \"x y\".") == ["abc", "x y"]
    assert quoted("How many words are in 'na na hey'?") == ["na na hey"]
    assert quoted("What is the tablet's price?") == []


@pytest.mark.parametrize(
    ("task", "value", "fixed"),
    [
        (LA, "la la la la la la la la la la la bye", "la la la la la la la la la la la la bye"),  # one "la" lost
        (LA, "la la la la la la la la la la la la la la la la bye", "la la la la la la la la la la la la bye"),
        ("Spell 'photosynthesis' backwards.", "photosynthsis", "photosynthesis"),  # a letter lost
        ("Write 'yes' in capital letters.", "YES", "YES"),  # a transformation, not a slip
        ("Spell 'photosynthesis' backwards.", "sisehtnysotohp", "sisehtnysotohp"),  # the job done: not a copy
        ("Count the words in 'hello'.", "hello world", "hello world"),  # a word the quote lacks
        ("Count the words in 'a b' and 'a b b'.", "a b b b", "a b b b"),  # near both quotes: which is unclear
        ("Reverse the word strawberry.", "strawbery", "strawbery"),  # nothing quoted
        (LA, " ".join(["la"] * 100), LA.split("'")[1]),  # the opening word repeated past its run, "bye" never reached
        ("Count 'la la la la'.", "la la la la la la", "la la la la"),  # the same words in another count
        ("Count 'la la bye'.", "la la la la la la", "la la la la la la"),  # a run of two: too short to run on
        ('Invert "Two Rivers, Ohio".', "Ohio, Rivers, Two", "Two Rivers, Ohio"),  # words reordered, commas moved
        ('Invert "Two Rivers, Ohio".', "Ohio, Rivers", "Ohio, Rivers"),  # a word lost is no reordering
        ("give me `ab-CD_12.x` mirrored", "DC-ab_12.x", "ab-CD_12.x"),  # backticks quote; reworked before the call
        ("put “Anna's kayak” in reverse", "sakay's Anna", "Anna's kayak"),  # its letters, as long, in other order
        ("Log in to 'maindb'.", "admin", "admin"),  # shorter: another value, not the quote reworked
    ],
)
def test_as_quoted(task: str, value: str, fixed: str) -> None:
    assert as_quoted({"text": value, "n": 3}, task) == {"text": fixed, "n": 3}


def test_unchanged_arguments_are_the_same_object() -> None:
    arguments = {"text": "la la bye"}
    assert as_quoted(arguments, "Count 'la la bye'.") is arguments


@tool(read_only=True)
def word_count(text: str) -> str:
    """Count the words in a text."""
    return str(len(text.split()))


async def test_a_miscopied_quote_runs_as_the_task_wrote_it() -> None:
    model = ScriptedModel([call("word_count", text="la la la la la la la la la la la bye"), "13"])
    result = await Agent(model, tools=[word_count]).run(LA)
    assert result.output == "13"
    assert result.steps[0].result == "13"
    assert any(e["kind"] == "notice" and "form its docs and the task give" in e["message"] for e in result.trace)


ESSAY = (
    "My intro is 'Climate change affects every region of our planet' and my conclusion is 'We must act now to"
    " protect it'. Together, what percent of my 50-word limit do they use?"
)
INTRO, CONCLUSION = "Climate change affects every region of our planet", "We must act now to protect it"


def test_two_quotes_run_together_go_as_the_first_no_call_took() -> None:
    """independent12's cd21: both quotes and the question counted as one text."""
    joined = {"text": f"{INTRO}\n{CONCLUSION}\nTogether, what percent of my 50-word limit do they use?"}
    assert as_quoted(joined, ESSAY) == {"text": INTRO}
    assert as_quoted(joined, ESSAY, [INTRO]) == {"text": CONCLUSION}
    assert as_quoted(joined, ESSAY, [INTRO, CONCLUSION]) is joined  # both taken: the model's own text
    listed = {"text": f"{INTRO}, {CONCLUSION}"}
    assert as_quoted(listed, ESSAY) is listed  # the quotes alone: a list the model may mean ("search 'a' and 'b'")
    one = {"text": f"{INTRO} today"}
    assert as_quoted(one, ESSAY) is one  # one quote and a word more: the model's own text


async def test_a_quote_no_call_took_beside_one_counted_is_named_after_the_answer() -> None:
    """independent12's cd21: the intro counted, its share of the limit answered; the conclusion never counted."""
    script = [call("word_count", text=INTRO), call("calculator", expression="8 / 50"), "16.0%"]
    script += [call("word_count", text=CONCLUSION), call("calculator", expression="(8 + 7) / 50 * 100"), "30"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "word_count"])).run(ESSAY)
    assert f"the task still names {CONCLUSION}" in str(model.requests[3].messages[-1].content)
    assert result.output == "30"


async def test_a_repeat_on_one_quote_runs_on_the_quote_no_call_took() -> None:
    """independent12's cd21, live: the intro counted three times, the conclusion never."""
    script = [call("word_count", text=INTRO), call("word_count", text=INTRO)]
    script += [call("calculator", expression="(8 + 7) / 50 * 100"), "30"]
    result = await Agent(ScriptedModel(script), tools=toolbox.agent_tools(["calculator", "word_count"])).run(ESSAY)
    counted = [s.call.arguments["text"] for s in result.steps if s.call is not None and s.call.name == "word_count"]
    assert counted == [INTRO, CONCLUSION]
    assert result.output == "30"
