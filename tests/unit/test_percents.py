"""A percentage of the task multiplied as a whole number (agentcore.percents)."""

from __future__ import annotations

import pytest

from agentcore import Agent
from agentcore.percents import as_percent_fractions, only_percents
from agentcore.testing import ScriptedModel, call
from bench import toolbox

CHAIR = "Ordering a chair online. Shipping costs 10% of the chair's price. What's the total with shipping?"
TAX = "I'm buying a monitor. What is the price plus 7% tax on it?"


def test_only_numbers_always_written_as_percentages_count() -> None:
    assert only_percents(CHAIR) == {10.0}
    assert only_percents("A 12.5 percent tip on a bill") == {12.5}
    assert only_percents("10% off each of 10 chairs") == set()  # 10 is also a count
    assert only_percents("Add 15 to the price") == set()


def test_a_percentage_as_a_whole_factor_runs_as_its_fraction() -> None:
    fixed = as_percent_fractions({"expression": "10 * 85"}, CHAIR, ["85"])
    assert fixed == {"expression": "0.1 * 85"}
    assert as_percent_fractions({"expression": "85 + 85 * 10"}, CHAIR, ["85"]) == {"expression": "85 + 85 * 0.1"}


def test_a_percentage_beside_its_own_fraction_stands_for_the_result() -> None:
    assert as_percent_fractions({"expression": "215 + 7 * 0.07"}, TAX, ["215"]) == {"expression": "215 + 215 * 0.07"}
    assert as_percent_fractions({"expression": "215 - 0.07 * 7"}, TAX, ["215"]) == {"expression": "215 - 215 * 0.07"}


def test_written_forms_of_the_fraction_are_left_alone() -> None:
    for right in ("85 * 10 / 100", "85 * 0.1", "85 + 85 * 10/100", "85 * 1.1", "10 + 85"):
        arguments = {"expression": right}
        assert as_percent_fractions(arguments, CHAIR, ["85"]) is arguments
    returned = {"expression": "10 * 3"}  # 10 is a tool's result too
    assert as_percent_fractions(returned, CHAIR, ["10"]) is returned
    prose = {"query": "10 * 85 chairs"}  # not arithmetic
    assert as_percent_fractions(prose, CHAIR, ["85"]) is prose


async def test_the_scripted_run_multiplies_by_the_fraction() -> None:
    """independent8's ca25 as it ran: the tax worked out on the percentage itself."""
    tools = toolbox.agent_tools(["lookup", "calculator"])
    script = [call("lookup", table="prices", key="monitor"), call("calculator", expression="215 + 7 * 0.07"), "230.05"]
    result = await Agent(ScriptedModel(script), tools=tools).run(TAX)
    assert [s.result for s in result.steps if s.call is not None] == ["215", "230.05"]
    assert result.output == "230.05"


def test_an_answer_in_percent_and_tiny_percentages() -> None:
    grows = {"expression": "4 * 6"}
    assert as_percent_fractions(grows, "It grows 4% a month. By what percent does it grow in 6 months?", []) is grows
    tiny = "A fee of 0.005% on each of the card's charges: what is it on the laptop?"
    assert as_percent_fractions({"expression": "0.005 * 899"}, tiny, ["899"]) == {"expression": "0.00005 * 899"}


def test_a_percentage_times_the_result_beside_the_share_is_the_result() -> None:
    """independent10's cc26: `12 * 899 + 899 * 0.12` for the laptop's price plus a 12% markup."""
    task = "The shop adds a 12% markup on top of the laptop's listed price. Give me the laptop price plus the markup."
    for written in ("12 * 899 + 899 * 0.12", "899 * 12 + 0.12 * 899"):
        assert as_percent_fractions({"expression": written}, task, ["899"]) == {"expression": "899 + 899 * 0.12"}
    same = {"expression": "12 * 899 + 899 * 0.12"}
    assert as_percent_fractions(same, task, []) is same  # 899 from nowhere: no result to stand for


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("0.8 * (129.99 - 20)", "0.8 * (129.99)"),  # independent12's cd05: 20% taken off twice
        ("129.99 * 0.8 - 20", "129.99 * 0.8"),
        ("0.8 * 129.99", "0.8 * 129.99"),  # once: as written
        ("0.8 * (100 - 20)", "0.8 * (100 - 20)"),  # no result in it
    ],
)
def test_a_percentage_taken_off_as_a_factor_and_as_a_number_goes_once(written: str, fixed: str) -> None:
    task = "Find what headphones cost and knock 20% off that price."
    assert as_percent_fractions({"expression": written}, task, ["129.99"]) == {"expression": fixed}
    assert as_percent_fractions({"expression": "1.08 * (329 + 8)"}, "Tablet plus 8% tax?", ["329"]) == {
        "expression": "1.08 * (329)"
    }


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("159 + 215 + 64 + 8", "(159 + 215 + 64) * 1.08"),  # independent12's cd22
        ("159 + 8", "159 * 1.08"),
        ("159 + 215 - 8", "(159 + 215) * 0.92"),
        ("159 + 215 + 64 + 8 + 3", "159 + 215 + 64 + 8 + 3"),  # 3 is no result
        ("2024 - 8", "2024 - 8"),  # no result in it
    ],
)
def test_a_percentage_added_to_a_sum_of_results_as_a_number_scales_it(written: str, fixed: str) -> None:
    task = "Total for a printer, a monitor and a webcam with 8% sales tax added on top."
    assert as_percent_fractions({"expression": written}, task, ["159", "215", "64"]) == {"expression": fixed}


def test_a_tax_added_as_its_share_and_multiplied_in_too_goes_once() -> None:
    """independent12's cd29: `329 + 0.08 * 329 * 1.08` for the tablet plus 8% sales tax."""
    task = "As a shop owner I need the tablet's price plus 8% sales tax on it - what's the shelf total?"
    assert as_percent_fractions({"expression": "329 + 0.08 * 329 * 1.08"}, task, ["329"]) == {
        "expression": "329 + 0.08 * 329"
    }
    kept = {"expression": "329 * 1.08"}
    assert as_percent_fractions(kept, task, ["329"]) is kept


PAIR_TAX = "What's the total for a tablet plus a pair of headphones once 8% sales tax is added?"


@pytest.mark.parametrize(
    ("expression", "task", "results", "runs"),
    [
        ("329 + 129.99 * 0.08", PAIR_TAX, ["329", "129.99"], "(329 + 129.99) * 1.08"),  # independent14's cg22
        ("0.08 * 129.99 + 329", PAIR_TAX, ["329", "129.99"], "(329 + 129.99) * 1.08"),
        (  # independent10's cc23
            "3 * 8.75 + 0.05 * 7.25",
            "Could you tell me the total for 3 usb cables plus one coffee mug, including 5% sales tax?",
            ["8.75", "7.25"],
            "(3 * 8.75 + 7.25) * 1.05",
        ),
        ("329 + 329 * 0.08", PAIR_TAX, ["329", "129.99"], "329 + 329 * 0.08"),  # the share of a value it holds
        (
            "329 + 129.99 * 0.08",
            "A tablet plus headphones, with 8% tax on the headphones",
            ["329", "129.99"],
            "329 + 129.99 * 0.08",
        ),  # the tax is on one item
        ("329 - 129.99 * 0.08", PAIR_TAX, ["329", "129.99"], "329 - 129.99 * 0.08"),  # taken off: not a tax
    ],
)
def test_a_share_on_one_term_of_a_sum_of_results_goes_on_the_whole_sum(
    expression: str, task: str, results: list[str], runs: str
) -> None:
    assert as_percent_fractions({"expression": expression}, task, results) == {"expression": runs}


async def test_the_tax_on_one_item_of_a_pair_runs_on_the_pair_through_the_loop() -> None:
    lookups = [call("lookup", table="prices", key="tablet"), call("lookup", table="prices", key="headphones")]
    model = ScriptedModel([*lookups, call("calculator", expression="329 + 129.99 * 0.08"), "495.7092"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "lookup"])).run(PAIR_TAX)
    ran = [s.call.arguments for s in result.steps if s.call is not None and s.call.name == "calculator"]
    assert ran == [{"expression": "(329 + 129.99) * 1.08"}] and result.output == "495.7092"
