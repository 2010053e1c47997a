"""Spelled quantities written as digits in the task the model and the checks read (agentcore.number_words)."""

from __future__ import annotations

import pytest
from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.number_words import with_digits
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("task", "written"),
    [
        ("How much for two chairs and a desk?", "How much for 2 chairs and a desk?"),
        ("Half a dozen notebooks and a dozen pens", "6 notebooks and 12 pens"),
        ("What do six of them weigh?", "What do 6 of them weigh?"),
        ("Three monitors for the office", "3 monitors for the office"),
        ("I've only got a fifty on me", "I've only got a 50 on me"),
        ("add twenty-five, or twenty five", "add 25, or 25"),
        ("two hundred and fifty people, two dozen eggs", "250 people, 24 eggs"),
        ("a hundred and twenty dollars, three thousand steps", "120 dollars, 3000 steps"),
        ("five hundred thousand dollars, two thousand five hundred", "500000 dollars, 2500"),
        ("Convert fifty USD to EUR", "Convert 50 USD to EUR"),  # a code after it is no name
        ("seven days a week for the tablet's ten users", "7 days a week for the tablet's 10 users"),
        ("What would a couple of chairs and one desk cost?", "What would 2 chairs and one desk cost?"),  # bx13
        ("We were a couple on a trip.", "We were a couple on a trip."),  # no "of": no count
        ("split among the three of us", "split among the 3 of us"),  # "the" with a noun of its own
        ("What do the two chairs cost?", "What do the 2 chairs cost?"),
    ],
)
def test_spelled_quantities_become_digits(task: str, written: str) -> None:
    assert with_digits(task) == written


@pytest.mark.parametrize(
    "task",
    [
        "Count the words in 'one two three four'",  # quoted: the user's data
        'Reverse "ten green bottles"',
        "Which one is cheaper, and how often?",  # "one" alone, and "ten" inside a word
        "two-thirds of it and three quarters of that",  # fractions are operations
        "Book it for the twenty fourth of May",  # an ordinal written apart
        "How many letters are in the word seven?",  # the word itself is the data
        "two three four",  # no one number
        "What is 12 times 4?",
        "Play Seven Nation Army by the White Stripes",  # a name
        "Is Ocean's Eleven on tonight?",
        "Three Kingdoms is a novel",
        "Book it for the twenty-first of May at a five-star hotel",  # an ordinal, a compound
        "Give me the sum of the two in km.",  # things already named, counted again (independent10's cc20)
        "the combined word count of these two lines",
        "add the two together",
    ],
)
def test_quotes_fractions_and_a_lone_one_stay_as_written(task: str) -> None:
    assert with_digits(task) == task


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product."""
    return {"laptop": "899"}[key]


TASK = "What do two laptops cost?"
SCRIPT = [call("lookup", key="laptop"), "899", call("calculator", expression="899 * 2"), "1798"]


async def test_the_model_reads_digits_and_the_result_keeps_the_users_words() -> None:
    model = ScriptedModel(list(SCRIPT))
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert model.requests[0].messages[1].content.startswith("Task: What do 2 laptops cost?")
    assert result.task == TASK
    assert any(entry["kind"] == "task_digits" for entry in result.trace)


async def test_a_spelled_count_left_out_of_every_call_sends_the_answer_back() -> None:
    """With the 2 in digits the unfinished-answer check sees it unused: "899" goes back, the product is answered."""
    result = await Agent(ScriptedModel(list(SCRIPT)), tools=[lookup, calculator]).run(TASK)
    assert result.output == "1798"


async def test_switched_off_the_task_is_read_as_written() -> None:
    class Literal(Agent[None, str]):
        number_words = False

    model = ScriptedModel(list(SCRIPT))
    result = await Literal(model, tools=[lookup, calculator]).run(TASK)
    assert model.requests[0].messages[1].content.startswith(f"Task: {TASK}")
    assert result.output == "899"  # the spelled 2 is no number the check sees
