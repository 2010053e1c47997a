"""A square or cube the task asks for that no call took (agentcore.powers, answer_checks.power_check), and an
answer replaced by the tool's result that the answer checks still read (loop.with_result_instead)."""

from __future__ import annotations

import pytest
from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.powers import named_power, power_used, powered, without_unasked_powers
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product."""
    return {"mouse": "19.95", "desk": "240"}[key]


@pytest.mark.parametrize(
    ("task", "exponent"),
    [
        ("What is the square of the price of a mouse?", 2),
        ("Count the words, add 4, and square the result.", 2),
        ("Look up the price and cube it.", 3),
        ("What is the total squared?", 2),
        ("What is the price of a desk multiplied by itself?", 2),
        ("What is a pen's price multiplied by that same price?", 2),  # compose25's af15
        ("The chair's price times the same amount?", 2),
        ("Multiply the price by 3, the same as before.", None),  # a number, not the value again
        ("A room of 12 square meters costs how much to paint?", None),  # a unit, not an operation
        ("A plot is 5 feet squared.", None),  # an area
        ("What is the square root of the price?", None),
        ("What is the price of a desk?", None),
        ('The word count of "To be or not to be", squared.', 2),  # independent1's ar11: set off by a comma
        ("If m is the monitor's price, what's m squared minus m?", 2),  # ar26: a letter for a value
        ("The floor is 20 m squared; what does the tile cost?", None),  # a unit symbol after a number
        ("My room is a square, 4.2 m on each side. What's its floor area in square feet?", 2),  # independent10 cc28
        ("A cube box with 3 ft edges: its volume in liters?", 3),
        ("What is the area of a 10 m by 12 m room in square feet?", None),  # no square: two sides
        ("Is a square table cheaper than a round one?", None),  # a shape, no area asked
    ],
)
def test_named_power(task: str, exponent: int | None) -> None:
    assert named_power(task) == exponent


@pytest.mark.parametrize(
    ("expression", "used"),
    [
        ("19.95 * 19.95", True),
        ("11**2", True),
        ("11 ^ 2", True),
        ("pow(11, 2)", True),
        ("19.95 * 2", False),
        ("11.95 * 1.95", False),  # the same digits, not the same number
        ("19.95 + 19.95", False),
        ("2 * 2", False),  # a number no one gave
    ],
)
def test_power_used(expression: str, used: bool) -> None:
    assert power_used([{"expression": expression}], {19.95, 11.0}) is used


def test_powered_writes_a_product() -> None:
    assert powered("19.95", 2) == "19.95 * 19.95" and powered(" 3 ", 3) == "3 * 3 * 3"


async def test_an_answer_that_the_task_still_squares_goes_back_with_the_call_written_out() -> None:
    model = ScriptedModel(
        [
            call("calculator", expression="2 + 2"),  # a made-up call: it names the tool that computes
            call("lookup", key="mouse"),
            "19.95",
            call("calculator", expression="39.9025"),  # worked out in the head: the call written out runs
            "398.0025",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run("What is the square of the price of a mouse?")
    notice = next(m.content for m in model.requests[3].messages[::-1] if "Not done yet" in m.content)
    assert "the task asks for its square" in notice
    assert notice.endswith('{"tool": "calculator", "arguments": {"expression": "19.95 * 19.95"}}')
    assert [t.name for t in model.requests[3].tools] == ["calculator"]
    assert result.steps[-2].call == call("calculator", expression="19.95 * 19.95")
    assert result.output == "398.0025"


async def test_a_value_multiplied_by_itself_is_the_real_one_not_a_made_up_square() -> None:
    model = ScriptedModel(
        [
            call("calculator", expression="2 * 2"),
            call("lookup", key="desk"),
            call("calculator", expression="2 * 2"),  # made up again after the lookup: the desk's 240 is the value
            "4",
            call("calculator", expression="49.0 * 49.0"),  # no number anyone gave: the call written out runs
            "57600",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run("What is the price of a desk multiplied by itself?")
    notice = model.requests[4].messages[-1].content
    assert notice.endswith('{"tool": "calculator", "arguments": {"expression": "240 * 240"}}')
    assert result.steps[-2].call == call("calculator", expression="240 * 240")
    assert result.output == "57600"


async def test_a_squared_value_is_not_sent_back() -> None:
    model = ScriptedModel([call("lookup", key="desk"), call("calculator", expression="240 ** 2"), "57600"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is the square of the price of a desk?")
    assert result.output == "57600" and len(model.requests) == 3


async def test_a_result_put_in_place_of_an_insisted_number_is_checked_as_an_answer() -> None:
    from bench import toolbox

    model = ScriptedModel(
        [
            call("unit_convert", value=2, from_unit="kg", to_unit="lb"),
            "100",  # no tool returned 100: sent back, a call required
            call("unit_convert", value=2, from_unit="kg", to_unit="lb"),  # a repeat: not run again
            "100",  # insisted: the result 4.409245 replaces it, and the 5 parcels are still to use
            call("calculator", expression="4.409245 * 5"),
            "22.046225",
        ]
    )
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    result = await Agent(model, tools=tools).run("A parcel weighs 2 kilograms. How many pounds do 5 parcels weigh?")
    assert "the task still uses 5" in model.requests[4].messages[-1].content
    assert result.output == "22.046225"


@pytest.mark.parametrize(
    ("expression", "task", "results", "runs"),
    [
        ("5 * 3.5 + 3 * 8.75**2", "What do 5 notebooks and 3 usb cables cost?", ["3.5", "8.75"], "5 * 3.5 + 3 * 8.75"),
        ("5 + 3 * 3.5 ^ 2", "What do 5 notebooks and 3 usb cables cost?", ["3.5"], "5 + 3 * 3.5"),  # ae07
        ("19.95 ** 2", "What is the square of the price of a mouse?", ["19.95"], "19.95 ** 2"),  # asked
        ("1.05 ** 3", "What does 100 grow to at 5% a year for 3 years?", ["1.05"], "1.05 ** 3"),  # the task's 3
        ("5 ** 2", "What is 5 to the second power?", [], "5 ** 2"),  # the task's own number, not a result
        ("64 ** 4", "Raise the price to the number of words in 'a b c d'.", ["64", "4"], "64 ** 4"),  # a result's 4
    ],
)
def test_a_power_no_one_asked_for_is_dropped(expression: str, task: str, results: list[str], runs: str) -> None:
    assert without_unasked_powers({"expression": expression}, task, results) == {"expression": runs}


def test_a_count_of_priced_items_is_no_exponent() -> None:
    """compose27's ah07: the 2 of "2 monitors" as the usb cables' exponent."""
    task = "What is the bill for 2 monitors and 5 usb cables?"
    arguments = {"expression": "2 * 215 + 5 * 8.75**2"}
    counts = {"2": "215", "5": "8.75"}
    assert without_unasked_powers(arguments, task, ["215", "8.75"], counts) == {"expression": "2 * 215 + 5 * 8.75"}
    assert without_unasked_powers(arguments, task, ["215", "8.75"]) == arguments  # the task's 2, read as given
    cubes = {"expression": "3 * 0.5**3"}  # the count of the same item: its cube may be asked in other words
    assert without_unasked_powers(cubes, "What volume do 3 cube boxes hold?", ["0.5"], {"3": "0.5"}) == cubes
