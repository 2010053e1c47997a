"""A rate the task gives, added to a count, goes times it (agentcore.rate_sums)."""

from __future__ import annotations

import pytest

from agentcore import Agent
from agentcore.rate_sums import as_products, per_counts, rates
from agentcore.testing import ScriptedModel, call
from bench import toolbox

HOTEL = "Booked a hotel room: check-in 2024-08-12, check-out 2024-08-19, $95 a night. What will the room come to?"


@pytest.mark.parametrize(
    ("task", "found"),
    [
        (HOTEL, {95.0}),
        ("I'm paid 8 cents a word.", {8.0}),
        ("I run 5 km every morning, 7 days a week.", {5.0, 7.0}),
        ("Tickets are 12 per person.", {12.0}),
        ("Add 25 for shipping and take off a $10 coupon.", set()),
        ("Look up the laptop price and add 50 for a warranty.", set()),  # a purpose, not a unit
        ("Add 15 as a tip.", set()),
        ("What do 3 chairs and a desk cost?", set()),
        ("Subtract 4 a total of three times.", set()),
    ],
)
def test_rates_are_numbers_counted_per_something(task: str, found: set[float]) -> None:
    assert rates(task) == found


def test_a_rate_added_to_a_result_is_their_product() -> None:
    assert as_products({"expression": "95 + 7"}, HOTEL, ["7"]) == {"expression": "95 * 7"}
    assert as_products({"expression": "7 + 95"}, HOTEL, ["7"]) == {"expression": "7 * 95"}
    kept = {"expression": "95 + 20"}  # a number of the task beside it: a fee, not a count
    assert as_products(kept, "Room: $95 a night plus a 20 fee.", ["7"]) is kept
    kept = {"expression": "95 + 7"}
    assert as_products(kept, "Add 95 and 7.", ["7"]) is kept  # no rate
    assert as_products({"expression": "95 + 7 * 2"}, HOTEL, ["7"]) == {"expression": "95 + 7 * 2"}  # not a sum of two


def test_a_rate_and_a_count_among_more_terms_go_times_each_other() -> None:
    """independent5's bx21: "$120 per day, plus a one-off $500 setup fee" over 84 days ran `84 + 120 + 500`."""
    task = "Hosting runs from 2025-01-06 to 2025-03-31 at $120 per day, plus a one-off $500 setup fee. Total?"
    assert as_products({"expression": "84 + 120 + 500"}, task, ["84"]) == {"expression": "84 * 120 + 500"}
    assert as_products({"expression": "500 + 120 + 84"}, task, ["84"]) == {"expression": "120 * 84 + 500"}
    kept = {"expression": "84 + 84 + 120"}  # two counts: which one the rate scales is not told
    assert as_products(kept, task, ["84"]) is kept


async def test_the_loop_runs_the_nights_times_the_rate() -> None:
    """independent1's ar15, as it ran."""
    script = [call("date_diff", start="2024-08-12", end="2024-08-19"), call("calculator", expression="95 + 7"), "665"]
    result = await Agent(ScriptedModel(script), tools=toolbox.agent_tools(["date_diff", "calculator"])).run(HOTEL)
    assert [s.result for s in result.steps if s.call is not None] == ["7", "665"]
    assert result.output == "665"


@pytest.mark.parametrize(
    ("task", "runs"),
    [  # independent1's ar18: `13 * 8` answered 104 for "8 cents a word. How many dollars ...?"
        ("I'm paid 8 cents a word. How many dollars do I earn for 'Roses are red'?", "13 * 8 / 100"),
        ("Copies are 8p per page. What do 13 pages come to in pounds?", "13 * 8 / 100"),
        ("I'm paid 8 cents a word. How many cents do I earn?", "13 * 8"),  # cents asked
        ("I'm paid 8 dollars a word. How many dollars do I earn?", "13 * 8"),  # no cents
    ],
)
def test_a_rate_in_cents_times_a_count_is_over_100_where_dollars_are_asked(task: str, runs: str) -> None:
    assert as_products({"expression": "13 * 8"}, task, ["13"]) == {"expression": runs}


FLOUR = "Recipe calls for 750 g of flour per loaf. I'm baking 3 loaves - how many pounds of flour do I need?"
FLOUR_IN_LB = [("unit_convert", {"value": 750, "from_unit": "g", "to_unit": "lb"}, "1.653467")]


def test_a_converted_rate_beside_the_count_of_what_it_is_per_is_a_product() -> None:
    """independent8's ca32: the rate converted, then added to the loaves."""
    assert rates(FLOUR) == {750.0} and per_counts(FLOUR) == {3.0}
    assert as_products({"expression": "1.653467 + 3"}, FLOUR, ["1.653467"], FLOUR_IN_LB) == {
        "expression": "1.653467 * 3"
    }


def test_a_converted_rate_beside_another_number_stays() -> None:
    task = "Recipe calls for 750 g of flour per loaf, plus 3 g of salt. How many pounds of flour for 2 loaves?"
    arguments = {"expression": "1.653467 + 3"}
    assert as_products(arguments, task, ["1.653467"], FLOUR_IN_LB) is arguments  # 3 counts grams, not loaves
    unconverted = [("unit_convert", {"value": 3, "from_unit": "g", "to_unit": "lb"}, "1.653467")]
    assert as_products(arguments, FLOUR, ["1.653467"], unconverted) is arguments  # the rate was not converted


def test_a_written_rate_beside_a_converted_one_goes_first() -> None:
    """independent1's ar17: 5 km a morning in miles, beside "7 days a week"."""
    task = "I run 5 km every morning, 7 days a week. How many miles is that a week?"
    earlier = [("unit_convert", {"value": 5, "from_unit": "km", "to_unit": "mi"}, "3.106856")]
    fixed = as_products({"expression": "3.106856 + 7"}, task, ["3.106856"], earlier)
    assert fixed == {"expression": "3.106856 * 7"}


def test_a_rate_less_a_result_is_their_product() -> None:
    """independent12's cd16: `120 - 16` for 16 nights at $120 a night."""
    task = "Hotel is $120 a night, check-in 2024-03-03, check-out 2024-03-19. What's my bill?"
    assert as_products({"expression": "120 - 16"}, task, ["16"]) == {"expression": "120 * 16"}
    assert as_products({"expression": "16 - 120"}, task, ["16"]) == {"expression": "16 * 120"}
    kept = {"expression": "120 - 20"}
    assert as_products(kept, task, ["16"]) is kept  # no result in it: the model's own business
    kept = {"expression": "120 - 16 - 2"}
    assert as_products(kept, task, ["16"]) is kept  # not a difference of two


def test_a_rate_alone_in_a_sum_goes_times_the_one_result_no_call_took() -> None:
    """independent12's cd24: `45 + 2 * 49.5` with the trip's 14 days unused."""
    task = "Trip runs 2024-07-04 to 2024-07-18. Car rental is $45 per day and I also need 2 backpacks. Total?"
    days = ("date_diff", {"start": "2024-07-04", "end": "2024-07-18"}, "14")
    earlier = [days, ("lookup", {"key": "backpack"}, "49.5")]
    fixed = as_products({"expression": "45 + 2 * 49.5"}, task, ["14", "49.5"], earlier)
    assert fixed == {"expression": "45 * 14 + 2 * 49.5"}
    more = [*earlier, ("lookup", {"key": "webcam"}, "64")]
    kept = {"expression": "45 + 2 * 49.5"}
    assert as_products(kept, task, ["14", "49.5", "64"], more) is kept  # two results unused: which one is a guess
    kept = {"expression": "45 + 2 * 10"}
    assert as_products(kept, task, ["14", "49.5"], earlier[:1]) is kept  # the sum takes no result
    kept = {"expression": "(45 + 2) * 49.5"}
    assert as_products(kept, task, ["14", "49.5"], earlier) is kept


async def test_the_hotel_bill_runs_as_the_rate_times_the_nights() -> None:
    task = "Hotel is $120 a night, check-in 2024-03-03, check-out 2024-03-19. What's my bill?"
    script = [
        call("date_diff", start="2024-03-03", end="2024-03-19"),
        call("calculator", expression="120 - 16"),
        "1920",
    ]
    result = await Agent(ScriptedModel(script), tools=toolbox.agent_tools(["calculator", "date_diff"])).run(task)
    assert [s.result for s in result.steps if s.call is not None] == ["16", "1920"]
    assert result.output == "1920"
