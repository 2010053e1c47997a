"""A portion the task names ("half of it") added to a result as its bare fraction runs as that portion of the
result (`agentcore.portions`)."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.events import Event, Notice
from agentcore.portions import factors, named_portions, of_results, portion_left, subtracts
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from bench import toolbox


@pytest.mark.parametrize(
    ("task", "portions"),
    [
        ("What is that price plus half of it?", [0.5]),
        ("add a tenth of that price to it", [0.1]),
        ("a case that costs a quarter of the tablet's price", [0.25]),
        ("add 15% of that price", [0.15]),
        ("add 12.5 percent of the total", [0.125]),
        ("Add 11 to the price of a usb cable.", []),
        ("the second half", []),  # no "of": not a portion of something
        ("a desk plus three quarters of it", [0.75]),  # a count of parts (compose18's u14)
        ("two-thirds of the price", [2 / 3]),
    ],
)
def test_named_portions(task: str, portions: list[float]) -> None:
    assert named_portions(task) == pytest.approx(portions)


@pytest.mark.parametrize(
    ("expression", "task", "results", "runs"),
    [
        ("85 + 0.5", "What is that price plus half of it?", ["85"], "85 + 85 * 0.5"),
        ("45.9 + 0.10", "Add a tenth of that price to it.", ["45.9"], "45.9 + 45.9 * 0.10"),
        ("329 - 0.33", "The price less a third of it.", ["329"], "329 - 329 * 0.33"),
        ("85 + 0.5", "What is that price plus half of it?", ["84"], "85 + 0.5"),  # 85 no tool returned
        ("2.7 - 0.5", "In kg, minus 0.5 kg, and half of it.", ["2.7"], "2.7 - 0.5"),  # the task writes 0.5
        ("85 * 0.5", "What is half of it?", ["85"], "85 * 0.5"),  # already a portion
        ("85 + 0.2", "What is that price plus half of it?", ["85"], "85 + 0.2"),  # not the portion named
        ("159 + (1/3)", "Take the price and add a third of it.", ["159"], "159 + 159 * (1/3)"),  # as a division
        ("159 + 1 / 3", "Take the price and add a third of it.", ["159"], "159 + 159 * 1 / 3"),
        ("159 + (3/1)", "Take the price and add a third of it.", ["159"], "159 + (3/1)"),  # no fraction
        ("215 + (215 / 0.5)", "Add a price to half of itself.", ["215"], "215 + (215 * 0.5)"),  # over the part
        ("215 / 0.5", "What is half of it?", ["215"], "215 * 0.5"),
        ("215 / 2", "What is half of it?", ["215"], "215 / 2"),  # over the denominator: right
        ("215 / 0.5", "What is 215 over 0.5, plus half of it?", ["215"], "215 / 0.5"),  # the task writes 0.5
        ("214 / 0.5", "What is half of it?", ["215"], "214 / 0.5"),  # 214 no tool returned
        ("240 + 3/4", "a desk plus three quarters of it", ["240"], "240 + 240 * 3/4"),
        ("19.95 + 5/19.95", "The price of a mouse plus a fifth of it?", ["19.95"], "19.95 + 19.95 / 5"),  # ad13
        ("4 / 64", "What is a quarter of it?", ["64"], "64 / 4"),  # the part's denominator over the value
        ("5 / 19.95", "What is 19.95 plus a fifth of it?", ["5"], "5 / 19.95"),  # 19.95 no tool returned
        ("3 / 19.95", "The price plus a fifth of it?", ["19.95"], "3 / 19.95"),  # not the portion named
        ("64 / 4", "A quarter of it?", ["64", "4"], "64 / 4"),  # both returned: left as written
    ],
)
def test_of_results(expression: str, task: str, results: list[str], runs: str) -> None:
    assert of_results({"expression": expression}, task, results) == {"expression": runs}


def test_of_results_returns_the_same_dict_when_nothing_changes() -> None:
    arguments = {"expression": "85 + 10"}
    assert of_results(arguments, "plus half of it", ["85"]) is arguments
    assert of_results(arguments, "plus 10", ["85"]) is arguments


@tool
def price(item: str) -> str:
    """The price of an item.

    Args:
        item: The item.
    """
    return "85"


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression.

    Args:
        expression: The expression.
    """
    return {"85 + 85 * 0.5": "127.5", "85 + 0.5": "85.5"}[expression]


async def test_the_loop_runs_the_portion_of_the_result() -> None:
    script = [call("price", item="chair"), call("calculator", expression="85 + 0.5"), "127.5"]
    model, events = ScriptedModel(script), list[Event]()
    result = await Agent(model, tools=[price, calculator]).run(
        "Get the price of a chair. What is it plus half of it?", on_event=events.append
    )
    assert [step.result for step in result.steps if step.call] == ["85", "127.5"]
    assert result.output == "127.5"
    assert any(isinstance(e, Notice) and "form its docs and the task give" in e.message for e in events)


def test_portion_left_names_the_whole_and_the_operation_still_to_do() -> None:
    task = "Take the price of a monitor and add half of that price to it."
    assert portion_left(task, {"expression": "215 / 2"}, [{"table": "prices", "key": "monitor"}]) == (
        "215 / 2",
        "215",
        "add",
    )
    assert portion_left("What is a tablet's price less one tenth of itself?", {"expression": "329 * 0.1"}, []) == (
        "329 * 0.1",
        "329",
        "less",
    )


def test_portion_left_reads_taking_off_as_a_subtraction() -> None:
    task = "What is the price of a monitor after taking off a fifth of it?"
    found = portion_left(task, {"expression": "215 / 5"}, [{"table": "prices", "key": "monitor"}])
    assert found == ("215 / 5", "215", "taking off")
    assert subtracts(found[2]) and subtracts("less") and not subtracts("add") and not subtracts("sum")
    assert portion_left("Take 15 off a fifth of it.", {"expression": "215 / 5"}, []) is not None


def test_portion_left_leaves_a_part_the_task_asks_for() -> None:
    # No addition or subtraction named: the part is the answer.
    assert (
        portion_left("Look up the price of a monitor and give me 15% of it.", {"expression": "215 * 0.15"}, []) is None
    )
    # The addition is done already, in this call or an earlier one.
    task = "Add half of the price of a monitor to it."
    assert portion_left(task, {"expression": "215 + 215 / 2"}, []) is None
    assert portion_left(task, {"expression": "107.5 * 1"}, [{"expression": "215 + 107.5"}]) is None
    # The factor is none of the task's: 0.9 for "less one tenth" is the whole computation, not a part of it.
    assert portion_left("What is a tablet's price less one tenth of itself?", {"expression": "329 * 0.9"}, []) is None


def test_a_part_of_things_asked_together_is_left_but_not_a_multiple() -> None:
    task = "A tablet comes with a case that costs a quarter of the tablet's price. What do they cost together?"
    assert portion_left(task, {"expression": "0.25 * 329"}, []) == ("0.25 * 329", "329", "together")
    assert portion_left(task, {"expression": "329 / 4"}, []) == ("329 / 4", "329", "together")
    assert portion_left("What do 3 monitors cost together?", {"expression": "3 * 215"}, []) is None


def test_factors_read_fraction_words_percentages_and_numbers() -> None:
    assert {0.5, 2.0, 0.15, 3.0} <= factors("half of it, plus 15% and 3 more")
    assert {0.25, 4.0, 2.0} <= factors("a quarter of it, twice")


async def test_the_whole_answered_after_its_part_goes_back_for_the_addition() -> None:
    """compose32's am13: `64 / 2` for "added to half of that price", then the price 64 as the answer, twice."""
    from arithmetic_tools import calculator as evaluator

    @tool
    def webcam_price(item: str) -> str:
        """The price of an item."""
        return "64"

    script = [call("webcam_price", item="webcam"), call("calculator", expression="64 / 2"), "64", "64"]
    script += [call("calculator", expression="64 + 32"), "96"]
    model = ScriptedModel(script)
    task = "What do you get when a webcam's price is added to half of that price?"
    result = await Agent(model, tools=[webcam_price, evaluator]).run(task)
    assert result.output == "96"
    notice = model.requests[4].messages[-1].content
    assert notice.startswith("Not done yet: 32 is 64 / 2, a part of 64.") and '"64 + 32"' in notice


async def test_a_whole_no_tool_returned_is_not_read_as_the_part_taken() -> None:
    """The answer 64 is the task's own number here, not a value a tool returned: the portion check stays out."""
    from arithmetic_tools import calculator as evaluator

    model = ScriptedModel([call("calculator", expression="64 / 2"), "64", *["32"] * 6])
    result = await Agent(model, tools=[evaluator]).run("What is 64 added to half of that?")
    assert not any("a part of 64" in r.messages[-1].content for r in model.requests)
    assert result.steps[0].result == "32"


@pytest.mark.parametrize(
    ("expression", "task", "runs"),
    [  # independent5's bx25: "5 + (headphones price)", the portion's denominator added in its place
        ("5 + (129.99)", "Headphones price plus a fifth of that again?", "129.99 + 129.99 / 5"),
        ("129.99 + 5", "Headphones price plus a fifth of that again?", "129.99 + 129.99 / 5"),
        ("129.99 - 5", "The price less a fifth of it?", "129.99 - 129.99 / 5"),
        ("5 - 129.99", "The price less a fifth of it?", "5 - 129.99"),  # no portion is that
        ("129.99 + 5", "The price plus a fifth of it, plus 5?", "129.99 + 5"),  # the task's own 5
        ("129.99 + 4", "The price plus a fifth of it?", "129.99 + 4"),  # 4 is no fifth's denominator
        ("0.2 + 129.99", "The price plus a fifth of it?", "129.99 + 129.99 * 0.2"),  # the fraction first (ar28)
    ],
)
def test_a_portions_denominator_added_runs_as_the_portion(expression: str, task: str, runs: str) -> None:
    assert of_results({"expression": expression}, task, ["129.99"]) == {"expression": runs}


def test_a_total_with_its_part_asks_for_the_whole_and_the_part() -> None:
    """independent8's ca27: "Shipping costs 10% of the chair's price. What's the total with shipping?" answered
    with the shipping, `0.1 * 85`, alone."""
    task = "Ordering a chair online. Shipping costs 10% of the chair's price. What's the total with shipping?"
    assert portion_left(task, {"expression": "0.1 * 85"}, []) == ("0.1 * 85", "85", "total with")
    alone = "Shipping costs 10% of the chair's price. What's the total shipping cost?"
    assert portion_left(alone, {"expression": "0.1 * 85"}, []) is None


async def test_the_part_answered_after_its_whole_was_fetched_again_goes_back() -> None:
    """independent8's ca27 as it ran: `10 * chair_price` (run as `0.1 * 85`, the price its name stands for), the
    chair looked up after it, and the shipping's 8.5 answered."""
    tools = toolbox.agent_tools(["lookup", "calculator"])
    task = "Ordering a chair online. Shipping costs 10% of the chair's price. What's the total with shipping?"
    script = [call("calculator", expression="10 * chair_price"), call("lookup", table="prices", key="chair"), "8.5"]
    model = ScriptedModel([*script, call("calculator", expression="85 + 8.5"), "93.5"])
    result = await Agent(model, tools=tools).run(task)
    assert "85 + 8.5" in model.requests[3].messages[-1].content
    assert result.output == "93.5"


def test_a_date_computes_nothing() -> None:
    from agentcore.portions import adds_or_scales

    assert not adds_or_scales({"start": "2023-02-14", "end": "09/01/2023"})
    assert adds_or_scales({"expression": "4 * 1.2"}) and adds_or_scales({"expression": "136 - 12"})


def test_a_price_with_a_surcharge_or_a_discount_is_the_whole_with_its_part() -> None:
    """independent10's cc11: the 8% tax on a chair, 6.8, answered for the chair with tax."""
    found = portion_left("How much is a chair with tax, if the tax rate is 8%?", {"expression": "85 * 0.08"}, [])
    assert found == ("85 * 0.08", "85", "with tax") and not subtracts(found[2])
    found = portion_left("The keyboard after a 20% discount?", {"expression": "45.9 * 0.2"}, [])
    assert found is not None and subtracts(found[2])
    found = portion_left("What is a keyboard with 20% off?", {"expression": "45.9 * 0.2"}, [])
    assert found is not None and subtracts(found[2])


def test_the_surcharge_alone_asked_for_is_left() -> None:
    assert portion_left("What is the tax on a chair, at 8%?", {"expression": "85 * 0.08"}, []) is None
    assert portion_left("With tax at 8%, what does a chair's tax come to?", {"expression": "85 * 8"}, []) is None
