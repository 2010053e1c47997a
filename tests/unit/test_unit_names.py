"""Units the task names, read against a converter's enum (agentcore.unit_names): the repair of a conversion's
unit pair, and the answer check for a conversion not yet done."""

from __future__ import annotations

from typing import Literal

import pytest
from arithmetic_tools import calculator as evaluator

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unit_names import Converter, Due, as_named, converter, named_units, unconverted, without_unit_words

Unit = Literal["km", "m", "cm", "mi", "ft", "in", "kg", "g", "lb", "l", "ml", "gal", "C", "F", "K"]
_METRES = {"km": 1000.0, "m": 1.0, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}
_KILOS = {"kg": 1.0, "g": 0.001, "lb": 0.45359237}


@tool(read_only=True)
def unit_convert(value: float, from_unit: Unit, to_unit: Unit) -> str:
    """Convert a value between units.

    Args:
        value: The number to convert.
        from_unit: Unit of the value.
        to_unit: Unit to convert to.
    """
    table = _METRES if from_unit in _METRES else _KILOS
    if to_unit not in table:
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    return str(round(value * table[from_unit] / table[to_unit], 6))


@tool(read_only=True)
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    left, op, right = expression.split()
    a, b = float(left), float(right)
    return str(round({"*": a * b, "/": a / b, "+": a + b, "-": a - b}[op], 6))


SHAPE = Converter("value", "from_unit", "to_unit", tuple(Unit.__args__))


def test_a_converter_is_two_parameters_sharing_an_enum_of_units() -> None:
    assert converter(unit_convert.parameters) == SHAPE
    assert converter(calculator.parameters) is None
    colours = {"type": "string", "enum": ["red", "green", "blue"]}
    paint = {"properties": {"amount": {"type": "number"}, "base": colours, "tint": colours}}
    assert converter(paint) is None  # a shared enum, but no units


@pytest.mark.parametrize(
    ("task", "named"),
    [
        ("What is 25 pounds in kilograms, plus 3?", [("lb", 25.0), ("kg", None)]),
        ("How many kilometers is 26.2 miles?", [("km", None), ("mi", 26.2)]),
        ("Convert 12 in to cm", [("in", 12.0), ("cm", None)]),  # "in" is a unit only after a number
        ("How much is 40 meters in feet?", [("m", 40.0), ("ft", None)]),
        ("Convert 100 degrees Fahrenheit to Celsius", [("F", 100.0), ("C", None)]),
        ("A rod weighs 9 kilograms.", [("kg", 9.0)]),  # a rod is a unit to pint, but not one of the enum
        ("It holds 55 US gallons. How many liters?", [("gal", 55.0), ("l", None)]),  # a qualifier between
    ],
)
def test_named_units(task: str, named: list[tuple[str, float | None]]) -> None:
    assert [(n.unit, n.number) for n in named_units(task, SHAPE)] == named


@pytest.mark.parametrize(
    ("task", "pair", "fixed"),
    [
        ("What is 25 pounds in kilograms, plus 3?", ("kg", "m"), ("lb", "kg")),
        ("A bucket holds 5 liters. How many milliliters do 3 buckets hold?", ("l", "mi"), ("l", "ml")),
        ("How many kilometers is 26.2 miles?", ("km", "mi"), ("mi", "km")),  # the asked unit named first
        ("How many feet are in 3 meters?", ("m", "ft"), ("m", "ft")),  # right already
    ],
)
def test_as_named(task: str, pair: tuple[str, str], fixed: tuple[str, str]) -> None:
    value = next(n.number for n in named_units(task, SHAPE) if n.number is not None)
    arguments = {"value": value, "from_unit": pair[0], "to_unit": pair[1]}
    assert as_named(arguments, SHAPE, task) == {"value": value, "from_unit": fixed[0], "to_unit": fixed[1]}


@pytest.mark.parametrize(
    ("task", "value", "fixed"),
    [  # independent1's ar32 and ar35: the quantity in the asked unit converted away from it
        ("A barrel holds 55 gallons and we drew off 80 liters. How many liters are left?", 80, (55, "gal", "l")),
        ("My shelf is 6 ft wide and 140 cm of it is full. How much room is left, in cm?", 140, (6, "ft", "cm")),
    ],
)
def test_the_other_quantity_goes_to_the_unit_asked_for(task: str, value: float, fixed: tuple[float, str, str]) -> None:
    source = next(n.unit for n in named_units(task, SHAPE) if n.number == value)
    arguments = {"value": value, "from_unit": source, "to_unit": fixed[1]}
    assert as_named(arguments, SHAPE, task) == {"value": fixed[0], "from_unit": fixed[1], "to_unit": fixed[2]}


@pytest.mark.parametrize(
    ("task", "arguments", "runs"),
    [  # independent5's bx31: the count of shelves converted as inches
        ("Each shelf is 36 inches long and I need 7 of them. How many metres?", (7, "in", "m"), (36, "in", "m")),
        ("I need 7 shelves of 36 inches. How many metres?", (7, "in", "m"), (36, "in", "m")),
        ("Boards of 2 m and 3 m, 4 of each: in feet?", (4, "m", "ft"), (4, "m", "ft")),  # two quantities in m
        ("Convert 10 miles to km, subtract 3, and give it in metres.", (7, "km", "m"), (7, "km", "m")),  # a result
    ],
)
def test_a_count_converted_gives_way_to_the_one_quantity_in_that_unit(
    task: str, arguments: tuple[float, str, str], runs: tuple[float, str, str]
) -> None:
    names = ("value", "from_unit", "to_unit")
    assert as_named(dict(zip(names, arguments, strict=True)), SHAPE, task) == dict(zip(names, runs, strict=True))


def test_a_second_quantity_joined_to_a_converted_one_is_no_count() -> None:
    """independent1's ar34: 9 of "14 miles on Saturday and 9 on Sunday" converted after the 14 stays 9."""
    task = "Cycled 14 miles on Saturday and 9 on Sunday. What's the weekend total in kilometres?"
    arguments = {"value": 9, "from_unit": "mi", "to_unit": "km"}
    assert as_named(arguments, SHAPE, task, converted={14.0}) is arguments
    assert as_named(arguments, SHAPE, task)["value"] == 14  # before any conversion the 9 reads as a count


def test_two_conversions_asked_each_run_as_written() -> None:
    task = "How many miles is 10 km, and how many km is 6 miles?"
    arguments = {"value": 10, "from_unit": "km", "to_unit": "mi"}
    assert as_named(arguments, SHAPE, task) == arguments
    assert [(n.unit, n.number) for n in named_units("It holds 120 square feet.", SHAPE)] == [("ft", None)]


def test_a_number_the_task_writes_without_a_unit_is_left_alone() -> None:
    arguments = {"value": 13.09, "from_unit": "km", "to_unit": "ft"}
    assert as_named(arguments, SHAPE, "Convert 10 miles to km, subtract 3, and give it in meters.") is arguments


@pytest.mark.parametrize(
    ("task", "done", "due"),
    [
        ("How much is 40 meters in feet, less 10?", [], Due("ft", "feet", 40.0, "m")),
        (
            "Convert 10 miles to kilometers, subtract 3, and express the rest in meters.",
            [{"value": 10, "from_unit": "mi", "to_unit": "km"}],
            Due("m", "meters", None, "km"),
        ),
        ("How many kilometers is 26.2 miles?", [{"value": 26.2, "from_unit": "mi", "to_unit": "km"}], None),
        ("What do 3 boards of 2 meters measure in meters?", [], None),  # one unit: nothing to convert
        ("What is 4 * 5?", [], None),
    ],
)
def test_unconverted(task: str, done: list[dict[str, object]], due: Due | None) -> None:
    assert unconverted(task, SHAPE, done) == due


async def test_a_call_with_the_wrong_units_runs_with_the_ones_the_task_names() -> None:
    model = ScriptedModel([call("unit_convert", value=25, from_unit="kg", to_unit="m"), "11.339809"])
    result = await Agent(model, tools=[unit_convert]).run("What is 25 pounds in kilograms?")
    assert result.output == "11.339809"
    assert result.steps[0].call is not None and result.steps[0].call.arguments["from_unit"] == "lb"


async def test_an_answer_before_the_asked_conversion_goes_back_with_the_conversion_written_out() -> None:
    task = "How much is 40 meters in feet, less 10?"
    script = [
        call("calculator", expression="40 - 10"),
        "30",
        call("unit_convert", value=40, from_unit="m", to_unit="ft"),
        call("calculator", expression="131.233596 - 10"),
        "121.233596",
    ]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[unit_convert, calculator]).run(task)
    assert result.output == "121.233596"
    notice = model.requests[2].messages[-1].content
    assert "asks for feet" in notice and '"to_unit": "ft"' in notice
    assert '"from_unit": "m"' in notice and '"value": 40' in notice
    assert not model.requests[2].allow_final


async def test_after_the_conversion_the_steps_on_the_task_number_count_as_undone() -> None:
    """`40 - 10` used 10 on meters; once 40 is converted, 10 is still to subtract."""
    script = [
        call("calculator", expression="40 - 10"),
        "30",
        call("unit_convert", value=40, from_unit="m", to_unit="ft"),
        "131.233596",
        call("calculator", expression="131.233596 - 10"),
        "121.233596",
    ]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[unit_convert, calculator]).run("How much is 40 meters in feet, less 10?")
    assert result.output == "121.233596"
    notice = model.requests[4].messages[-1].content
    assert "Not done yet" in notice and "10" in notice


async def test_the_conversion_check_fires_once() -> None:
    script = [
        call("calculator", expression="40 - 10"),
        "30",
        call("unit_convert", value=30, from_unit="m", to_unit="cm"),
    ]
    script += ["3000", call("calculator", expression="3000 - 10"), "2990"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[unit_convert, calculator]).run("How much is 40 meters in feet, less 10?")
    assert result.output == "2990"  # still no feet, but the check has had its turn: the run ends
    notices = [r.messages[-1].content for r in model.requests]
    assert sum("no conversion has reached it" in n for n in notices) == 1


async def test_an_answer_from_the_line_the_conversion_started_again_goes_back() -> None:
    """compose10's h18: `12 * 3 * 1000` (36000), the conversion of the 12 kilograms, then "36000" again."""
    script = [
        call("calculator", expression="12 * 3 * 1000"),
        "36000",
        call("unit_convert", value=12, from_unit="kg", to_unit="lb"),
        "36000",
        call("calculator", expression="26.455471 * 3"),
        "79.366413",
    ]
    model = ScriptedModel(script)
    task = "A crate weighs 12 kilograms. What do 3 crates weigh in pounds?"
    result = await Agent(model, tools=[unit_convert, evaluator]).run(task)
    notice = model.requests[4].messages[-1].content
    assert notice.startswith("Not done yet: 36000 came from calculator(") and "returned 26.455471" in notice
    assert result.output == "79.366413"


async def test_a_failed_call_that_writes_the_units_as_words_runs_as_the_conversion_due() -> None:
    """compose30's ak06 ("25 liters * 4"): the words stand for the conversion the task asks for."""
    script = [call("calculator", expression="12 feet * 4"), call("calculator", expression="3.6576 * 4"), "14.6304"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[unit_convert, evaluator]).run("12 feet converted to meters, times 4?")
    assert result.output == "14.6304"
    first = result.steps[0]
    assert first.call is not None and first.call.name == "unit_convert" and first.result == "3.6576"
    assert first.call.arguments == {"value": 12, "from_unit": "ft", "to_unit": "m"}
    assert "Result of unit_convert" in model.requests[1].messages[-1].content


@pytest.mark.parametrize(
    "expression",
    [
        "12 * four",  # words, but no unit
        "10 feet * 4",  # a unit, but not the task's number
        "12 kilograms * 4",  # the task's number, with a unit of another kind
    ],
)
async def test_a_failed_call_with_no_unit_of_the_conversion_due_stays_failed(expression: str) -> None:
    model = ScriptedModel([call("calculator", expression=expression), *["done"] * 8])  # the checks may send it back
    result = await Agent(model, tools=[unit_convert, evaluator]).run("12 feet converted to meters, times 4?")
    first = result.steps[0]
    assert first.call is not None and first.call.name == "calculator" and first.tool_error


async def test_a_converter_with_side_effects_is_not_run_in_place_of_a_failed_call() -> None:
    @tool
    def convert(value: float, from_unit: Unit, to_unit: Unit) -> str:
        """Convert a value between units, and log it."""
        return str(unit_convert.fn(value, from_unit, to_unit))

    model = ScriptedModel([call("calculator", expression="12 feet * 4"), *["done"] * 8])
    result = await Agent(model, tools=[convert, evaluator]).run("12 feet converted to meters, times 4?")
    assert result.steps[0].call is not None and result.steps[0].call.name == "calculator"


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("5.443108 lb + 1.133981 oz", "5.443108 + 1.133981"),  # independent12's cd20
        ("2 days * 24", "2 * 24"),
        ("price + 20", "price + 20"),  # a name, not a unit
        ("5 kids + 3", "5 kids + 3"),
        ("pi * 2 m", "pi * 2 m"),  # a constant beside it: not every word is a unit
        ("3 * 4", "3 * 4"),
    ],
)
def test_unit_words_after_numbers_leave_arithmetic(written: str, fixed: str) -> None:
    assert without_unit_words(written, {5.443108, 1.133981, 2.0, 5.0}) == fixed
    assert without_unit_words("12 lb + 1.133981 oz", {1.133981}) == "12 lb + 1.133981 oz"  # 12 lb: a conversion due
