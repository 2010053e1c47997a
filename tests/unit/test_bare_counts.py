"""A count of an item written alone into a sum that leaves out the item's fetched value (agentcore.bare_counts)."""

from __future__ import annotations

from typing import Any

import pytest
from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.bare_counts import (
    counted_item,
    counts_multiplied,
    item_values,
    totals_every_item,
    unpaired,
    with_each_count,
    with_item_values,
    with_missing_count,
    with_own_values,
)
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from bench import toolbox

PENS_AND_MUGS = "What do 6 pens and 3 coffee mugs cost in all?"
FETCHED = [({"table": "prices", "key": "pens"}, "1.2"), ({"table": "prices", "key": "coffee mugs"}, "7.25")]


def test_each_count_pairs_with_the_value_fetched_for_its_item() -> None:
    assert item_values(PENS_AND_MUGS, FETCHED) == {"6": "1.2", "3": "7.25"}


def test_a_bare_count_goes_times_its_items_value() -> None:
    """compose21's ab07: the mugs' count went with their price, the pens' count alone."""
    assert with_item_values("6 + 3 * 7.25", PENS_AND_MUGS, FETCHED) == "6 * 1.2 + 3 * 7.25"


def test_a_count_taken_from_a_budget_goes_times_its_value() -> None:
    task = "I have 50 dollars. What is left after buying 2 pens?"
    assert with_item_values("50 - 2", task, FETCHED[:1]) == "50 - 2 * 1.2"


def test_an_expression_already_using_the_value_stays() -> None:
    expression = "6 * 1.2 + 3 * 7.25"
    assert with_item_values(expression, PENS_AND_MUGS, FETCHED) is expression


def test_a_count_added_to_its_own_value_goes_times_it() -> None:
    """compose31's al07 (held out): `5 + 1 + 49.5` for 5 notebooks and 1 backpack, the 5 paired first."""
    notebooks = "What is the cost of 5 notebooks and 1 backpack?"
    fetched = [({"key": "notebooks"}, "3.5"), ({"key": "backpack"}, "49.5")]
    assert with_item_values("5 + 1 + 49.5", notebooks, fetched) == "5 * 3.5 + 1 * 49.5"
    assert with_item_values("1.2 + 6 + 3 * 7.25", PENS_AND_MUGS, FETCHED) == "6 * 1.2 + 3 * 7.25"


def test_a_number_before_no_item_is_no_count_to_multiply() -> None:
    """compare39's c12 and compose28's ai02 (tried at the thirtieth stop): "add 10 to the result" after a
    conversion to 20 had `20 + 10` run as `10 * 20`; "to the" names no item."""
    converted = [({"value": 68, "from_unit": "F", "to_unit": "C"}, "20")]
    task = "Convert 68 degrees Fahrenheit to Celsius, then add 10 to the result."
    assert with_item_values("20 + 10", task, converted) == "20 + 10"
    yards = [({"value": 10, "from_unit": "yd", "to_unit": "m"}, "9.144")]
    assert with_item_values("9.144 + 2.5", "Convert 10 yards to meters and add 2.5 to the result.", yards) == (
        "9.144 + 2.5"
    )


def test_a_count_beside_its_value_in_a_difference_or_bracket_stays() -> None:
    for expression in ("50 - 6 + 1.2", "(6 + 1.2) * 2", "6 + 1.2 * 2", "6 + 1.2 + 6"):
        assert with_item_values(expression, PENS_AND_MUGS, FETCHED[:1]) == expression


def test_a_count_inside_brackets_or_beside_a_product_stays() -> None:
    for expression in ("(6 + 3) * 7.25", "6 * 2 + 3 * 7.25", "3 * 7.25 + 6 / 2"):
        assert with_item_values(expression, PENS_AND_MUGS, FETCHED) == expression


def test_an_item_not_yet_fetched_leaves_its_count_alone() -> None:
    assert with_item_values("6 + 3 * 7.25", PENS_AND_MUGS, FETCHED[1:]) == "6 + 3 * 7.25"


def test_a_step_that_took_the_count_measures_it_all() -> None:
    """unit_convert(15 feet) = 4.572 is all 15 feet, not a value per foot."""
    task = "A rope is 15 feet long. How many meters do 3 ropes make?"
    converted = [({"value": 15, "from_unit": "feet", "to_unit": "m"}, "4.572")]
    assert item_values(task, converted) == {}
    assert with_item_values("15 + 3", task, converted) == "15 + 3"


def test_a_count_written_twice_is_ambiguous() -> None:
    task = "What do 2 desks and 2 chairs cost?"
    fetched = [({"key": "desk"}, "240"), ({"key": "chair"}, "85")]
    assert item_values(task, fetched) == {}


def test_an_item_with_two_values_is_ambiguous() -> None:
    fetched = [({"key": "pens"}, "1.2"), ({"key": "pen"}, "1.5")]
    assert "6" not in item_values(PENS_AND_MUGS, fetched)


def test_no_sum_no_change() -> None:
    assert with_item_values("6", PENS_AND_MUGS, FETCHED) == "6"
    assert with_item_values(6, PENS_AND_MUGS, FETCHED) == 6


@tool(read_only=True)
def lookup(key: str) -> str:
    """Look up a product's price."""
    return {"pens": "1.2", "coffee mugs": "7.25"}[key]


async def _run(*script: object) -> tuple[ScriptedModel, Any]:
    """The pens-and-mugs task run on `script` after both lookups (agentcore.testing turns)."""
    model = ScriptedModel([call("lookup", key="pens"), call("lookup", key="coffee mugs"), *script])
    return model, await Agent(model, tools=[lookup, calculator]).run(PENS_AND_MUGS)


async def test_the_loop_runs_the_count_times_its_value() -> None:
    _, result = await _run(call("calculator", expression="6 + 3 * 7.25"), "28.95")
    assert result.output == "28.95"
    assert result.steps[2].call is not None and result.steps[2].call.arguments["expression"] == "6 * 1.2 + 3 * 7.25"
    assert result.steps[2].result == "28.95"


async def test_once_every_count_has_its_value_the_next_step_computes() -> None:
    """a07: told "5 * 8.75 and 2 * 19.95", the model looked the mouse up again; the lookup is no longer offered."""
    model, result = await _run("7.25", call("calculator", expression="6 * 1.2 + 3 * 7.25"), "28.95")
    assert result.output == "28.95"
    sent_back = model.requests[3]
    assert "6 * 1.2" in sent_back.messages[-1].content
    assert [spec.name for spec in sent_back.tools] == ["calculator"]


def test_counts_used_without_their_values_are_unpaired() -> None:
    """compose22's ac07: "2 + 4" used both counts, as no desks and no chairs."""
    task = "How much would 2 desks and 4 chairs come to?"
    steps = [({"expression": "2 + 4"}, "6"), ({"key": "desks"}, "240"), ({"key": "chairs"}, "85")]
    assert unpaired(task, steps) == ["2", "4"]
    assert unpaired(task, [*steps, ({"expression": "2 * 240 + 4"}, "484")]) == ["4"]


async def test_a_sum_of_the_bare_counts_goes_back_with_each_count_times_its_value() -> None:
    """A first `6 + 3` used both counts, so none was pending; each goes back with its item's value."""
    model = ScriptedModel(
        [
            call("calculator", expression="6 + 3"),
            call("lookup", key="pens"),
            call("lookup", key="coffee mugs"),
            "7.25",
            call("calculator", expression="6 * 1.2 + 3 * 7.25"),
            "28.95",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run(PENS_AND_MUGS)
    assert result.output == "28.95"
    assert "6 * 1.2 and 3 * 7.25" in model.requests[4].messages[-1].content


def test_a_quantity_of_a_unit_counts_no_item() -> None:
    """The 48 tasks' c02: "add 5 kilometers" after converting to "km" went as `5 * 16.09344`."""
    task = "Convert 10 miles to kilometers, then add 5 kilometers. What is the total in kilometers?"
    converted = [({"value": 10, "from_unit": "mi", "to_unit": "km"}, "16.09344")]
    assert item_values(task, converted) == {}
    assert with_item_values("16.09344 + 5", task, converted) == "16.09344 + 5"


def test_a_total_of_every_count_times_its_value_answers_the_task() -> None:
    assert totals_every_item(PENS_AND_MUGS, FETCHED, {"expression": "6 * 1.2 + 3 * 7.25"})
    assert totals_every_item(PENS_AND_MUGS, FETCHED, {"expression": "1.2 * 6 + (7.25 * 3)"})
    assert not totals_every_item(PENS_AND_MUGS, FETCHED, {"expression": "6 * 1.2 + 3 * 1.2"})  # the mugs' value
    assert not totals_every_item(PENS_AND_MUGS, FETCHED[:1], {"expression": "6 * 1.2 + 3 * 7.25"})  # unfetched
    task = "What do 6 pens and 3 coffee mugs cost with 10 off?"
    assert not totals_every_item(task, FETCHED, {"expression": "6 * 1.2 + 3 * 7.25"})  # the 10 is still to use
    one = "What do 6 pens cost?"
    assert not totals_every_item(one, FETCHED[:1], {"expression": "6 * 1.2"})  # one item: nothing to go past


async def test_after_the_total_only_a_final_answer_is_offered() -> None:
    """compose21's ab07: 28.95 reached, the pens looked up again and `6 * 1.2 + 3 * 28.95` run."""
    model, result = await _run(call("calculator", expression="6 * 1.2 + 3 * 7.25"), "28.95")
    assert model.requests[3].tools == () and result.output == "28.95"
    assert "a call totalled every counted item; only a final answer is offered" in [
        e["message"] for e in result.trace if e["kind"] == "notice"
    ]


async def test_after_the_total_an_answer_from_nowhere_gives_way_to_it() -> None:
    """compose35's ap07: 47.25 reached, 147.25 answered (a 100 the model had made up before the lookups)."""
    _, result = await _run(call("calculator", expression="6 * 1.2 + 3 * 7.25"), "128.95")
    assert result.output == "28.95"
    assert "final answer after the total wrote a number no tool returned; the total answers" in [
        e["message"] for e in result.trace if e["kind"] == "notice"
    ]


async def test_after_the_total_the_total_in_words_stands() -> None:
    _, result = await _run(call("calculator", expression="6 * 1.2 + 3 * 7.25"), "$28.95 in total")
    assert result.output == "$28.95 in total"


LAMPS = "I want 4 desk lamps. Add 20% tax on top and take off a $10 coupon at the till. What do I pay?"


def test_a_counted_value_used_without_its_count_in_the_last_step_is_taken_that_many_times() -> None:
    """independent1's ar24: `32.4 * 1.20 - 10`, every number of the task in it but the 4."""
    lamps = [({"key": "desk lamps"}, "32.4")]
    assert with_missing_count("32.4 * 1.20 - 10", LAMPS, lamps) == "(4 * 32.4) * 1.20 - 10"
    assert with_missing_count("4 * 32.4 * 1.20 - 10", LAMPS, lamps) == "4 * 32.4 * 1.20 - 10"  # counted
    assert with_missing_count("32.4 * 1.20", LAMPS, lamps) == "32.4 * 1.20"  # the 10 still to come: a step
    one = "I am buying 4 desk lamps. What does one lamp cost with 20% tax?"
    assert with_missing_count("32.4 * 1.20", one, lamps) == "32.4 * 1.20"  # the item named again: one is asked
    assert with_missing_count("32.4", "What do 4 desk lamps cost?", lamps) == "32.4"  # no calculation
    assert with_missing_count("1.2 * 1.20", "What do 6 pens and 3 coffee mugs cost with 20% tax?", FETCHED) == (
        "1.2 * 1.20"  # two counted items: which count is missing is a guess
    )


KEYBOARDS = "What is the total for 3 keyboards and 2 webcams?"


def test_two_items_counts_multiplied_together_are_found() -> None:
    keyboards = [({"key": "keyboards"}, "45.9")]
    assert counts_multiplied(KEYBOARDS, {"expression": "3 * 2 + 45.9"}, keyboards) == ("3", "2")
    assert counts_multiplied(KEYBOARDS, {"expression": "45.9 + 2 * 3"}, keyboards) == ("3", "2")
    assert counts_multiplied(KEYBOARDS, {"expression": "3 * 45.9 + 2 * 64"}, keyboards) is None
    assert counts_multiplied(KEYBOARDS, {"expression": "3 * 2 + 45.9"}, []) is None  # no value fetched
    packs = "A pack holds 6 pens. How many pens do 4 packs hold, and what do they cost?"
    pens = [({"key": "pens"}, "1.2")]
    assert counts_multiplied(packs, {"expression": "6 * 4 * 1.2"}, pens) is None  # a count of a count
    assert counts_multiplied(packs, {"expression": "6 * 4"}, pens) is None  # no sum
    assert counts_multiplied("Buy 3 pens and 3 mugs.", {"expression": "3 * 3 + 1.2"}, pens) is None  # written twice
    assert counted_item(KEYBOARDS, "2") == "webcams" and counted_item(KEYBOARDS, "3") == "keyboards"


@tool(read_only=True)
def price(key: str) -> str:
    """Look up a product's price."""
    return {"keyboards": "45.9", "webcams": "64"}[key]


async def test_a_call_multiplying_two_items_counts_is_held_and_the_items_value_named() -> None:
    """compose23's ad07: `3 * 2 + 45.9` after the keyboards' lookup."""
    script = [
        call("price", key="keyboards"),
        call("calculator", expression="3 * 2 + 45.9"),
        call("price", key="webcams"),
    ]
    model = ScriptedModel([*script, call("calculator", expression="3 * 45.9 + 2 * 64"), "265.7"])
    result = await Agent(model, tools=[price, calculator]).run(KEYBOARDS)
    notice = model.requests[2].messages[-1].content
    assert notice.startswith(
        "Not run: 3 * 2 multiplies the counts of two different things (3 keyboards and 2 webcams)."
    )
    assert "The ones you have: 3 * 45.9." in notice and notice.endswith("Get the value of webcams with a tool first.")
    assert result.steps[1].result == "not run: 3 and 2 count different items" and result.output == "265.7"


def test_counts_multiplied_by_each_others_values_go_with_their_own() -> None:
    """compose23's ad07 after its notice: `3 * 64 + 2 * 45.9` for 3 keyboards (45.9) and 2 webcams (64)."""
    fetched = [({"key": "keyboards"}, "45.9"), ({"key": "webcams"}, "64")]
    assert with_own_values("3 * 64 + 2 * 45.9", KEYBOARDS, fetched) == "3 * 45.9 + 2 * 64"
    assert with_own_values("64 * 3 + 45.9 * 2", KEYBOARDS, fetched) == "3 * 45.9 + 2 * 64"
    right = "3 * 45.9 + 2 * 64"
    assert with_own_values(right, KEYBOARDS, fetched) is right
    # One value taken for both counts while the other is nowhere: the count is the task's, and so is its item
    # (compose26's ag07, `3 * 85 + 2 * 85` for 3 monitors and 2 chairs).
    assert with_own_values("3 * 64 + 2 * 64", KEYBOARDS, fetched) == "3 * 45.9 + 2 * 64"
    both = "3 * 64 + 2 * 64 + 45.9"  # the keyboards' value is written: which product was meant is a guess
    assert with_own_values(both, KEYBOARDS, fetched) is both
    assert with_own_values("3 * 64 + 2 * 45.9", KEYBOARDS, fetched[:1]) == "3 * 64 + 2 * 45.9"  # one value known


def test_a_count_an_item_is_handed_out_over_counts_the_item() -> None:
    """independent10's cc17: `64 + 7` for a webcam in each of 7 meeting rooms."""
    webcam = [({"table": "prices", "key": "webcam"}, "64")]
    task = "We're putting a webcam in each of our 7 meeting rooms. What budget do I need?"
    assert with_item_values("64 + 7", task, webcam) == "7 * 64"
    assert with_item_values("7 + 64", "Each of the 7 rooms needs a webcam: the cost?", webcam) == "7 * 64"
    assert with_item_values("64 + 7", "What is a webcam's price plus 7 rooms' fee?", webcam) == "64 + 7"


KIDS = "Each of my 5 kids wants a backpack and a coffee mug for school. What will that set me back?"
KIDS_ITEMS = [({"key": "backpack"}, "49.5"), ({"key": "coffee mug"}, "7.25")]


@pytest.mark.parametrize("written", ["49.5 + 7.25 + 5", "5 + 49.5 + 7.25"])
def test_a_count_of_each_of_the_things_added_to_their_items_goes_times_them(written: str) -> None:
    """independent12's cd19: `49.5 + 7.25 + 5` for a backpack and a mug for each of 5 kids."""
    assert with_each_count(written, KIDS, KIDS_ITEMS) == "(49.5 + 7.25) * 5"


@pytest.mark.parametrize(
    ("task", "written"),
    [
        (KIDS, "49.5 + 7.25"),  # no count in it
        (KIDS, "49.5 + 7.25 + 5 + 3"),  # 3 is no result
        (KIDS, "(49.5 + 7.25) * 5"),  # not a plain sum
        ("My 5 kids want a backpack and a coffee mug.", "49.5 + 7.25 + 5"),  # no "each of"
        ("Each of my 5 kids wants a backpack; the 5 of them share a coffee mug.", "49.5 + 7.25 + 5"),  # 5 twice
    ],
)
def test_other_sums_run_as_written(task: str, written: str) -> None:
    assert with_each_count(written, task, KIDS_ITEMS) == written


async def test_the_kids_supplies_run_as_the_sum_times_the_kids() -> None:
    script = [
        call("lookup", table="prices", key="backpack"),
        call("lookup", table="prices", key="coffee mug"),
        call("calculator", expression="49.5 + 7.25 + 5"),
        "283.75",
    ]
    result = await Agent(ScriptedModel(script), tools=toolbox.agent_tools(["calculator", "lookup"])).run(KIDS)
    assert [s.result for s in result.steps if s.call is not None][-1] == "283.75"
    assert result.output == "283.75"


async def test_counts_multiplied_again_after_the_hold_run_with_their_items_values() -> None:
    """independent14's cg13: held for `3 * 2 + 45.9`, the model looked the mouse up and ran `3 * 2 + 19.95`."""
    task = "How much would 3 keyboards and 2 mice set me back?"
    first = [call("lookup", table="prices", key="keyboards"), call("calculator", expression="3 * 2 + 45.9")]
    again = [call("lookup", table="prices", key="mouse"), call("calculator", expression="3 * 2 + 19.95")]
    model = ScriptedModel([*first, *again, "177.6"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "lookup"])).run(task)
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran[-1] == {"expression": "3 * 45.9 + 2 * 19.95"}
    assert result.output == "177.6"


async def test_counts_multiplied_again_beside_another_number_run_as_written() -> None:
    """A number of neither item (a third item's price) would be lost from a sum of the two: the call runs."""
    task = "How much would 3 keyboards and 2 mice set me back?"
    first = [call("lookup", table="prices", key="keyboards"), call("calculator", expression="3 * 2 + 45.9")]
    again = [call("lookup", table="prices", key="mouse"), call("calculator", expression="3 * 2 + 19.95 + 7")]
    model = ScriptedModel([*first, *again, "32.95", "32.95", "32.95"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "lookup"])).run(task)
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert {"expression": "3 * 2 + 19.95 + 7"} in ran
