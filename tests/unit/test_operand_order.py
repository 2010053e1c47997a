"""The task's divisor or amount taken away, written first, goes second (agentcore.operand_order)."""

from __future__ import annotations

import pytest
from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.operand_order import in_task_order
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("expression", "task", "results", "runs"),
    [
        ("3 / 899", "The price of a laptop divided by 3 is what?", ["899"], "899 / 3"),
        ("3 * 49.5", "The price of a backpack divided among 3 friends: what does each pay?", ["49.5"], "49.5 / 3"),
        ("49.5 * 3", "A backpack's price split between 3 people: each share?", ["49.5"], "49.5 / 3"),
        ("20 - 45.9", "Subtract 20 from the price of a keyboard.", ["45.9"], "45.9 - 20"),
        ("30 - 128", "Double the webcam's price and take away 30.", ["128"], "128 - 30"),
        ("5 - 22.05", "What is 5 fewer than the pounds in 10 kilograms?", ["22.05"], "22.05 - 5"),
        ("899 / 3", "The price of a laptop divided by 3 is what?", ["899"], "899 / 3"),  # already in order
        ("18 - 3.5", "What is 18 minus the price of a notebook?", ["3.5"], "18 - 3.5"),  # 18 is the minuend
        ("3 * 49.5", "What do 3 backpacks cost?", ["49.5"], "3 * 49.5"),  # no division named
        ("49.5 * 12", "A backpack's price with 12 taken off?", ["49.5"], "49.5 - 12"),  # ae04: a product
        ("12 * 49.5", "The backpack's price minus 12?", ["49.5"], "49.5 - 12"),
        ("129.99 * 20", "Knock 20 percent off the headphones' price.", ["129.99"], "129.99 * 20"),  # a share
        ("49.5 * 12", "Take 12 backpacks.", ["49.5"], "49.5 * 12"),  # nothing taken off
        ("29 * 329", "A tablet's price, cut by 29?", ["329"], "329 - 29"),  # compose26's ag04
        ("29 - 329", "A tablet's price reduced by 29?", ["329"], "329 - 29"),
        ("43 < 5", "How many days lie between 2020-02-01 and 2020-03-15, less 5?", ["43"], "43 - 5"),  # ah05
        ("43 < 5", "Is the count of days fewer than 5?", ["43"], "43 < 5"),  # a comparison the task asks
        ("5 < 64", "Is 5 less than the webcam's price?", ["64"], "5 < 64"),
        ("899 + 1000", "My budget is 1000 dollars. What remains once I buy a laptop?", ["899"], "1000 - 899"),  # aj08
        ("329 + 500 = 829", "I have 500 dollars and buy a tablet. How much is left?", ["329"], "500 - 329"),  # ak08
        ("64 + 20", "Add 20 to the price of a webcam.", ["64"], "64 + 20"),  # nothing is left over
        ("3 / 899 = 0.0033", "The price of a laptop divided by 3 is what?", ["899"], "899 / 3"),  # its "=" goes
        ("100 / 4", "What is 100 divided by the count?", ["4"], "100 / 4"),
        ("3 / 3", "The price divided by 3?", ["3"], "3 / 3"),  # the task's number is also the result
        # the task's 7 written with a float's tail is still the task's 7 (this crashed a run: compose18's u06)
        (
            "7.000000000000001 * 2.7432",
            "Take 3 yards in meters, multiplied by 7.",
            ["2.7432"],
            "7.000000000000001 * 2.7432",
        ),
        # knocked or taken off, the particle before or after the amount (independent1's ar05, ar23, ar24)
        (
            "159 + 35",
            "Look up the printer and knock the $35 deposit I already paid off its price.",
            ["159"],
            "159 - 35",
        ),
        ("159 + 18", "Printer price: double it, knock off 18, and split the rest.", ["159"], "159 - 18"),
        # a count of equal parts divides (independent5's bx33, bx23; independent1's ar23)
        ("42.164813 * 4", "A 26.2 mile relay in 4 equal legs: how long is each leg?", ["42.164813"], "42.164813 / 4"),
        ("195 * 3", "Pay the rest over 3 equal monthly installments.", ["195"], "195 / 3"),
        ("300 * 5", "Double it, knock off 18, and split what's left 5 ways.", ["300"], "300 / 5"),
        ("120 * 3", "It is 120 a month over 3 months.", ["120"], "120 * 3"),  # no equal parts: a product
        # what is left is never negative (independent1's ar35)
        ("140 - 182.88", "A 6 ft shelf has 140 cm of books. How much room is left, in cm?", ["182.88"], "182.88 - 140"),
        ("140 - 182.88", "What is 140 minus the shelf's width in cm?", ["182.88"], "140 - 182.88"),  # as asked
        ("140 + 182.88", "A 6 ft shelf has 140 cm of books. How much room is left, in cm?", ["182.88"], "182.88 - 140"),
        ("38.88 + 10", "Add 20% tax on top and take off a $10 coupon at the till.", ["38.88"], "38.88 - 10"),
        ("159 + 35", "Look up the printer and add the $35 deposit.", ["159"], "159 + 35"),  # added, as asked
        # the change from an amount, the prices added to it (ar14)
        (
            "7.25 + 8.75 + 50",
            "I've got 50. If I buy a cable and a mug, how much change?",
            ["7.25", "8.75"],
            "50 - (7.25 + 8.75)",
        ),
        ("7.25 + 8.75 + 50", "What do a cable, a mug and 50 pens cost?", ["7.25", "8.75"], "7.25 + 8.75 + 50"),
        (
            "199 + 45 + 12",
            "Look up a monitor and a keyboard, add the 12 fee. How much is left to pay?",
            ["199", "45"],
            "199 + 45 + 12",
        ),
    ],
)
def test_in_task_order(expression: str, task: str, results: list[str], runs: str) -> None:
    assert in_task_order({"expression": expression}, task, results) == {"expression": runs}


def test_the_same_dict_when_nothing_changes() -> None:
    arguments = {"expression": "899 / 3"}
    assert in_task_order(arguments, "The price of a laptop divided by 3?", ["899"]) is arguments


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product."""
    return {"laptop": "899"}[key]


async def test_the_loop_runs_the_division_in_the_tasks_order() -> None:
    model = ScriptedModel([call("lookup", key="laptop"), call("calculator", expression="3 / 899"), "299.666667"])
    result = await Agent(model, tools=[lookup, calculator]).run("The price of a laptop divided by 3 is what?")
    assert result.steps[1].call == call("calculator", expression="899 / 3")
    assert result.steps[1].result is not None and result.steps[1].result.startswith("299.66")


@pytest.mark.parametrize("expression", ["30 - 1.2", "1.2 * 30", "1.2 + 30", "1.2 / 30", "30 / 1.2"])
def test_how_many_it_buys_is_the_amount_over_the_price(expression: str) -> None:
    """independent8's ca15, "how many pens can i buy with $30", ran `30 - 1.2`."""
    task = "how many pens can i buy with $30"
    assert in_task_order({"expression": expression}, task, ["1.2"]) == {"expression": "30 / 1.2"}
    other = "how many pens did I buy? I paid 30"  # no amount to spend
    assert in_task_order({"expression": expression}, other, ["1.2"])["expression"] in (expression, "30 - 1.2")


def test_a_purchase_before_the_count_may_be_taken_away() -> None:
    task = "I buy a notebook first. How many pens can I buy with $30 after that?"
    arguments = {"expression": "30 - 4.5"}
    assert in_task_order(arguments, task, ["4.5"]) is arguments


@pytest.mark.parametrize(
    ("expression", "task", "result", "runs"),
    [
        # independent10's cc34 and cc32: a result times the size of one thing, where the task counts things
        ("2267.96185 * 18", "A 5 lb bag of coffee beans, 18 g per espresso shot. How many shots is that?",
         "2267.96185", "2267.96185 / 18"),
        ("75708.23568 * 500", "My fish tank holds 20 US gallons. How many 500 ml bottles of water would fill it?",
         "75708.23568", "75708.23568 / 500"),
        ("2267.96185 * 18", "A 5 lb bag, 18 g per shot. How many grams in 3 bags?", "2267.96185",
         "2267.96185 * 18"),  # the size's own kind is asked
        ("8.04672 * 6", "I ran 5 miles at 6 minutes per km. How many minutes?", "8.04672", "8.04672 * 6"),
        ("64 * 7", "How many dollars for 7 webcams?", "64", "64 * 7"),  # a count, no size
        # the real-model test's runner: 7 days is a count, not the size of one kilometer
        ("8.04672 * 7", "A runner covers 5 miles each day. How many kilometers is that over 7 days?", "8.04672",
         "8.04672 * 7"),
    ],
)  # fmt: skip
def test_a_result_times_the_size_of_one_thing_counted_is_divided_by_it(
    expression: str, task: str, result: str, runs: str
) -> None:
    assert in_task_order({"expression": expression}, task, [result]) == {"expression": runs}
