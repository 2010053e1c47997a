"""Two results added where the task asks how much one exceeds the other run as their difference
(`agentcore.comparisons`)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.comparisons import as_difference, asks_difference, asks_ratio, asks_total
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("task", "asks"),
    [
        ("How much more does a laptop cost than a tablet?", True),
        ("How much cheaper is a mouse than a keyboard?", True),
        ("By how much does a desk cost more than a backpack?", True),
        ("How many more pens than pencils are there?", True),
        ("What do 2 chairs and 1 desk cost together?", False),
        ("Is a laptop more expensive than a tablet?", False),  # yes or no, not an amount
        ("How much is a laptop? Name one cheaper than it.", False),  # not one sentence
        ("What is the gap in price between a laptop and a tablet?", True),  # compose22's ac09
        ("What is the price difference between a printer and a backpack?", True),  # compose14's f09
        ("Which costs more, a tablet or a printer, and by how much?", True),  # compose18's u08
        ("What is the distance between Paris and Rome?", False),
        ("Which is cheaper, a pen or a mug?", False),  # a choice, not an amount
        ("After buying a printer, by how much is my budget down?", False),  # no two things compared
        ("How many times more does a laptop cost than a tablet?", False),  # a ratio (compose34's ao09)
        ("Is a usb cable dearer than five pens? By how much, in dollars?", True),  # independent5's bx18
        ("Is a usb cable dearer than five pens? Tell me the total.", False),
    ],
)
def test_asks_difference(task: str, asks: bool) -> None:
    assert asks_difference(task) is asks


@pytest.mark.parametrize(
    ("expression", "results", "runs"),
    [
        ("899 + 329", ["899", "329"], "899 - 329"),
        ("329 + 899", ["899", "329"], "899 - 329"),  # the larger first: by how much one exceeds the other
        ("899 + 100", ["899", "329"], "899 + 100"),  # 100 no tool returned
        ("899 + 899", ["899"], "899 + 899"),
        ("899 - 329", ["899", "329"], "899 - 329"),
        ("329 - 899", ["899", "329"], "899 - 329"),  # never negative ("how much less", compose16's l09)
        ("329 - 100", ["899", "329"], "329 - 100"),  # 100 no tool returned
        ("899 + 329 + 1", ["899", "329"], "899 + 329 + 1"),  # not only the two results
    ],
)
def test_as_difference(expression: str, results: list[str], runs: str) -> None:
    task = "How much more does a laptop cost than a tablet?"
    assert as_difference({"expression": expression}, task, results) == {"expression": runs}


@pytest.mark.parametrize(
    ("expression", "runs"),
    [
        ("5 * 1.2 + 8.75", "8.75 - 5 * 1.2"),  # independent5's bx18: five pens beside a cable, added
        ("8.75 + 5 * 1.2", "8.75 - 5 * 1.2"),
        ("8.75 - 5 * 1.2", "8.75 - 5 * 1.2"),  # the difference as asked
        ("5 * 1.2 - 8.75", "8.75 - 5 * 1.2"),  # never negative
        ("5 * 3 + 8.75", "5 * 3 + 8.75"),  # the product holds no returned number
    ],
)
def test_a_count_times_a_price_beside_another_price_runs_as_their_difference(expression: str, runs: str) -> None:
    task = "Is a usb cable dearer than 5 pens? By how much, in dollars?"
    assert as_difference({"expression": expression}, task, ["8.75", "1.2"]) == {"expression": runs}


@pytest.mark.parametrize(
    ("expression", "runs"),
    [
        ("899 - 329", "899 / 329"),  # compose34's ao09 answered the difference, 570
        ("329 / 899", "899 / 329"),
        ("899 / 329", "899 / 329"),
        ("899 - 100", "899 - 100"),  # 100 no tool returned
        ("899 * 329 - 1", "899 * 329 - 1"),  # not one operation on the two results
    ],
)
def test_how_many_times_runs_as_the_larger_over_the_smaller(expression: str, runs: str) -> None:
    task = "How many times more does a laptop cost than a tablet?"
    assert asks_ratio(task) and not asks_ratio("How many times does the letter a appear in banana?")
    assert as_difference({"expression": expression}, task, ["899", "329"]) == {"expression": runs}


def test_a_sum_the_task_asks_for_stays() -> None:
    arguments = {"expression": "899 + 329"}
    assert as_difference(arguments, "What do a laptop and a tablet cost together?", ["899", "329"]) is arguments


@tool(read_only=True)
def price(item: str) -> str:
    """The price of an item.

    Args:
        item: The item.
    """
    return {"laptop": "899", "tablet": "329"}[item]


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression.

    Args:
        expression: The expression.
    """
    return {"899 - 329": "570", "899 + 329": "1228"}[expression]


async def test_the_loop_runs_the_difference() -> None:
    script = [call("price", item="laptop"), call("price", item="tablet"), call("calculator", expression="899 + 329")]
    model = ScriptedModel([*script, "570"])
    result = await Agent(model, tools=[price, calculator]).run("How much more does a laptop cost than a tablet?")
    assert [s.result for s in result.steps if s.call] == ["899", "329", "570"] and result.output == "570"


async def test_the_difference_answers_over_one_more_operation_on_it() -> None:
    """compose22's ac09: after `899 - 329` the model answered 241 (570 - 329), a number of its own that is one
    operation on known numbers; the difference already answers the comparison, so it wins at once."""
    script = [call("price", item="laptop"), call("price", item="tablet"), call("calculator", expression="899 - 329")]
    model = ScriptedModel([*script, "241"])
    task = "What is the gap in price between a laptop and a tablet?"
    result = await Agent(model, tools=[price, calculator]).run(task)
    assert result.output == "570"
    assert len(model.requests) == 4  # no turn spent sending 241 back


WORDS = 'My teacher wants at least 40 words. Here is my paragraph: "One two." How many more words do I need to write?'


@pytest.mark.parametrize(
    ("task", "expression", "results", "expected"),
    [
        (WORDS, "22 + 40", ["22"], "40 - 22"),
        (WORDS, "22 - 40", ["22"], "40 - 22"),
        (
            "A 40 gallon tank has 15 liters in it. How many more liters do I need to add?",
            "151.4 + 15",
            ["151.4"],
            "151.4 - 15",
        ),
        (
            "Bag limit is 23 kg; my suitcase weighs 41 lb. How many kilograms under the limit am I?",
            "18.59 + 23",
            ["18.59"],
            "23 - 18.59",
        ),
    ],
)
def test_a_shortfall_runs_as_the_gap(task: str, expression: str, results: list[str], expected: str) -> None:
    assert as_difference({"expression": expression}, task, results) == {"expression": expected}


@pytest.mark.parametrize(
    ("task", "expression", "results"),
    [
        (WORDS, "40 - 22", ["22"]),  # the gap as asked
        (WORDS, "22 * 40", ["22"]),  # not a sum
        ("Add 40 to the word count of the paragraph.", "22 + 40", ["22"]),  # no shortfall asked
        ("How much will I pay over 12 months at 40 a month plus the 22 fee?", "22 + 40", ["22"]),  # a time span
        (WORDS, "12 + 40", ["22"]),  # no returned number in it
    ],
)
def test_sums_that_are_not_a_shortfall_stay(task: str, expression: str, results: list[str]) -> None:
    arguments = {"expression": expression}
    assert as_difference(arguments, task, results) is arguments


def test_a_total_of_differences_is_no_comparison() -> None:
    """independent8's ca20: "difference between" explains each part of a total."""
    task = "How many days did the 2 projects last in total (count each as the difference between its dates)?"
    assert not asks_difference(task)
    assert asks_difference("How much more do a laptop and a mouse cost combined than a tablet?")
    assert asks_difference("What is the difference in price between a laptop and a tablet?")


def test_additions_beside_a_shortfall_word_stay_and_a_difference_of_sums_is_asked() -> None:
    added = "How much more will I pay for the laptop with 25 dollars of express shipping added?"
    total = "I ran 16.09 km. How much further will I have run in total after 5 more?"
    for task, expression in ((added, "899 + 25"), (total, "16.09 + 5")):
        arguments = {"expression": expression}
        assert as_difference(arguments, task, ["899", "16.09"]) is arguments
    assert asks_difference("What is the difference between the sum of the laptop and mouse prices and the monitor?")


@pytest.mark.parametrize(
    ("task", "total"),
    [
        ("What do 2 chairs and 1 desk cost together?", True),
        ("Together, what percent of my 50-word limit do they use?", True),
        ("How much do a pen and a notebook cost altogether?", True),
        ("What does a pen cost?", False),
    ],
)
def test_a_total_is_asked_by_together_as_by_altogether(task: str, total: bool) -> None:
    assert asks_total(task) is total
