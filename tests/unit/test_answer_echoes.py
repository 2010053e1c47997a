"""Answers that echo something instead of answering: a number of the question that no call used ("3 miles" for
"how many miles are 3 such roads?"), or the input of a call instead of its result ("215 / 4")."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.expression_edits import without_term
from agentcore.loop_checks import _swapped
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unfinished import (
    beside_result,
    derived,
    echoes_task,
    latest_unused,
    redone,
    restates_task,
    used_up,
)
from bench import toolbox


@tool(read_only=True)
def to_miles(km: float) -> str:
    """Convert kilometers to miles."""
    return str(round(km * 0.621371, 6))


@tool(read_only=True)
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    left, op, right = expression.split()
    a, b = float(left), float(right)
    return str({"*": a * b, "/": a / b, "+": a + b, "-": a - b}[op])


@tool(read_only=True)
def reverse(text: str) -> str:
    """Reverse a text."""
    return text[::-1]


ROADS = "A road is 12 kilometers long. How many miles are 3 such roads?"


@pytest.mark.parametrize(
    ("task", "answer", "calls", "pending"),
    [
        (ROADS, "3 miles", [{"km": 12}], ["3"]),
        (ROADS, "3.0", [{"km": 12}], ["3"]),
        (ROADS, "7.456452", [{"km": 12}], []),  # a result: the unfinished check's case, not this one
        (ROADS, "12", [{"km": 12}], []),  # a used number: not one the answer should have computed with
        (ROADS, "3 roads are 22.4 miles", [{"km": 12}], []),  # a number of its own: computed
        (ROADS, "3", [], []),  # no call yet: the guess check's case
        ("Reverse 'abc'.", "cba", [{"text": "abc"}], []),  # no number at all
    ],
)
def test_echoes_task(task: str, answer: str, calls: list[dict[str, object]], pending: list[str]) -> None:
    assert echoes_task(task, answer, calls) == pending


async def test_an_answer_that_restates_the_questions_unused_number_goes_back_with_the_result() -> None:
    model = ScriptedModel([call("to_miles", km=12), "3", call("calculator", expression="7.456452 * 3"), "22.369356"])
    result = await Agent(model, tools=[to_miles, calculator]).run(ROADS)
    assert result.output == "22.369356"
    notice = model.requests[2].messages[-1].content
    assert "Not done yet" in notice and "7.456452" in notice and "3" in notice
    assert not model.requests[2].allow_final  # a tool call is required next


async def test_an_answer_that_is_a_calls_input_goes_back_once_naming_the_result() -> None:
    model = ScriptedModel([call("calculator", expression="215 / 4"), "215 / 4", "53.75"])
    result = await Agent(model, tools=[calculator]).run("What is 215 divided by 4?")
    assert result.output == "53.75"
    notice = model.requests[2].messages[-1].content
    assert "215 / 4 is what you gave calculator" in notice and "53.75" in notice
    assert any(e["kind"] == "notice" and "input of a call" in e["message"] for e in result.trace)


async def test_a_model_that_gives_the_input_again_gets_the_calls_result() -> None:
    model = ScriptedModel([call("reverse", text="Lima"), "`Lima`.", "Lima"])
    result = await Agent(model, tools=[reverse]).run("Write the capital of Peru, Lima, in reverse.")
    assert result.output == "amiL" and len(model.requests) == 3
    assert any("replaced by its result" in e.get("message", "") for e in result.trace)


async def test_an_input_again_after_its_result_went_on_gets_the_last_result_of_that_chain() -> None:
    """independent1's ar15: the check-out date answered after `date_diff` = 7 and `95 * 7` = 665; it had been
    replaced by the 7."""

    @tool(read_only=True)
    def date_diff(start: str, end: str) -> str:
        """Count the days between two dates."""
        return "7"

    @tool(read_only=True)
    def multiply(expression: str) -> str:
        """Evaluate a product."""
        return "665"

    script = [call("date_diff", start="2024-08-12", end="2024-08-19"), "2024-08-19"]
    model = ScriptedModel([*script, call("multiply", expression="95 * 7"), "2024-08-19", "2024-08-19"])
    task = "Check-in 2024-08-12, check-out 2024-08-19, $95 a night. What will the room come to?"
    result = await Agent(model, tools=[date_diff, multiply]).run(task)
    assert result.output == "665"


async def test_an_answer_equal_to_both_input_and_result_stands() -> None:
    model = ScriptedModel([call("reverse", text="abba"), "abba"])
    result = await Agent(model, tools=[reverse]).run("Reverse 'abba'.")
    assert result.output == "abba" and len(model.requests) == 2


async def test_the_input_in_other_letters_is_an_answer() -> None:
    model = ScriptedModel([call("reverse", text="yes"), "YES"])
    result = await Agent(model, tools=[reverse]).run("Write the word 'yes' in capital letters.")
    assert result.output == "YES" and len(model.requests) == 2


PIPES = "A pipe is 9 feet long. How many meters are 5 such pipes?"


@pytest.mark.parametrize(
    ("answer", "results", "restated"),
    [
        ("5.0", ["2.7432", "13.716"], True),
        ("9 feet", ["2.7432", "13.716"], True),
        ("13.716", ["2.7432", "13.716"], False),  # the result
        ("2.7432 meters", ["2.7432", "13.716"], False),  # a result, if not the last
        ("45", ["2.7432", "13.716"], False),  # a number of its own: the source check's case
        ("5", ["5"], False),  # the last result brings nothing the task lacks
        ("5", [], False),
    ],
)
def test_restates_task(answer: str, results: list[str], restated: bool) -> None:
    assert restates_task(PIPES, answer, results) is restated


PACKS = "A pack holds 6 pens. How many pens do 4 packs hold?"


async def test_an_answer_that_restates_the_tasks_used_numbers_goes_back_once() -> None:
    model = ScriptedModel([call("calculator", expression="6 * 4"), "4", "24 pens"])
    result = await Agent(model, tools=[calculator]).run(PACKS)
    assert result.output == "24 pens"
    notice = model.requests[2].messages[-1].content
    assert "4 is a number the task gave" in notice and "24" in notice
    assert model.requests[2].allow_final  # the answer may come next


async def test_a_model_that_restates_the_task_again_gets_the_last_result_written_in() -> None:
    model = ScriptedModel([call("calculator", expression="6 * 4"), "4", "4 pens"])
    result = await Agent(model, tools=[calculator]).run(PACKS)
    assert result.output == "24.0 pens" and len(model.requests) == 3
    assert any("replaced by the last result" in e.get("message", "") for e in result.trace)


@tool(read_only=True)
def to_gallons(liters: float) -> str:
    """Convert liters to gallons."""
    return str(round(liters * 0.264172, 6))


JUGS = "A jug holds 3 liters. How many gallons do 4 jugs hold?"


@pytest.mark.parametrize(
    ("expression", "task", "taken"),
    [
        ("3 * 4 * 0.792516", JUGS, ["3"]),
        ("4 * 0.792516", JUGS, []),
        ("3 + 0.792516", "Convert 3 liters to gallons and add it to 3.", []),  # the task writes 3 twice
        ("50 + 5", "Take 50 and add 10% of it.", []),  # 50 went into an expression: a part, not the whole
    ],
)
def test_beside_result(expression: str, task: str, taken: list[str]) -> None:
    earlier = [("to_gallons", {"liters": 3}, "0.792516"), ("calculator", {"expression": "50 * 0.1"}, "5")]
    assert beside_result({"expression": expression}, earlier, task)[0] == taken


async def test_an_input_counted_beside_its_result_is_held_back_once() -> None:
    script = [call("to_gallons", liters=3), call("calculator", expression="3 * 4 * 0.792516")]
    model = ScriptedModel([*script, call("calculator", expression="4 * 0.792516"), "3.170064"])
    result = await Agent(model, tools=[to_gallons, calculator]).run(JUGS)
    assert result.output == "3.170064"
    notice = model.requests[2].messages[-1].content
    assert "Not run: 3 went into an earlier step, whose result 0.792516 already stands for it" in notice
    assert '{"tool": "calculator", "arguments": {"expression": "4 * 0.792516"}}' in notice
    assert [t.name for t in model.requests[2].tools] == ["calculator"]


def test_without_term_leaves_one_term_out_of_the_outer_sum_or_product() -> None:
    assert without_term("3 * 4 * 1.056688", "3") == "4 * 1.056688"
    assert without_term("7 + 2 * 15.432358", "7") == "2 * 15.432358"
    assert without_term("3 - 1", "3") is None  # no sum or product
    assert without_term("3 * 4", "5") is None


# --- an answer that a call already used up ----------------------------------------------------------------------


@tool(read_only=True)
def price(item: str) -> str:
    """The price of an item in dollars."""
    return {"printer": "159", "pen": "2"}[item]


def test_used_up_is_the_step_that_took_the_answer_while_its_result_is_open() -> None:
    task = "Subtract 30 from the price of a printer."
    steps = [({"expression": "(159) - 30"}, "129"), ({"item": "printer"}, "159")]
    assert used_up(task, "159", steps) == 0
    assert used_up(task, "129", steps) is None  # the open result itself
    assert used_up(task, "30", steps) is None  # the task's own number
    used = [({"item": "printer"}, "159"), ({"expression": "159 - 30"}, "129"), ({"expression": "129 * 2"}, "258")]
    assert used_up(task, "159", used) is None  # 129 went on into 258: the chain is not stuck on 159
    assert used_up(task, "159", steps[:1]) is None  # no tool returned 159: another check's case
    assert used_up(task, "159 and 129", steps) is None  # more than one number


async def test_an_answer_that_a_call_already_used_goes_back_once_naming_that_calls_result() -> None:
    turns = [call("price", item="printer"), call("calculator", expression="159 - 30"), "159", "129"]
    model = ScriptedModel(turns)
    result = await Agent(model, tools=[price, calculator]).run("Subtract 30 from the price of a printer.")
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not done yet: 159 was already used:") and "returned 129.0" in notice
    assert result.output == "129"


def test_the_latest_result_no_call_took_is_what_a_head_answer_gives_way_to() -> None:
    steps = [({"expression": "(159) - 30"}, "129"), ({"item": "printer"}, "159")]
    assert latest_unused(steps) == "129"  # 159 was fetched again after it went into (159) - 30
    assert latest_unused([({"item": "printer"}, "159"), ({"expression": "159 - 30"}, "129")]) == "129"
    assert latest_unused([({"text": "a b"}, "2"), ({"expression": "2 * 2"}, "4"), ({"item": "x"}, "4")]) == "4"
    assert latest_unused([({"expression": "2 * 2"}, "4"), ({"expression": "4 * 1"}, "4")]) == "4"  # all taken
    assert latest_unused([]) == ""


async def test_an_insisted_head_answer_gives_way_to_the_result_no_call_took() -> None:
    # the pen first: a first call on a made-up price would be held back for the lookup (agentcore.fetch_first)
    turns = [call("price", item="pen"), call("calculator", expression="159 - 30"), "126"]
    turns += [call("price", item="printer"), "126"]
    agent = Agent(ScriptedModel(turns), tools=[price, calculator])
    result = await agent.run("Subtract 30 from what a printer costs, and get the price of a pen.")
    assert result.output == "129.0"


@pytest.mark.parametrize(
    ("answer", "results", "spare", "expected"),
    [
        ("118", ["59"], ["2"], "59 * 2"),  # j05: "... times 2?" after date_diff gave 59; the task's 2 first
        ("118", ["59"], [], "59 + 59"),
        ("449.95", ["215", "19.95", "430"], [], "19.95 + 430"),
        ("29.5", ["59"], ["2"], "59 / 2"),
        ("60", ["59"], [], None),  # no operation on known numbers gives it
        ("118 or 120", ["59"], ["2"], None),  # more than one number
        ("118", [], ["2"], None),  # no result
    ],
)
def test_derived_is_one_operation_on_known_numbers(
    answer: str, results: list[str], spare: list[str], expected: str | None
) -> None:
    assert derived(answer, results, spare) == expected


async def test_an_insisted_head_answer_that_is_one_operation_on_known_numbers_stands() -> None:
    @tool(read_only=True)
    def days(start: str, end: str) -> str:
        """Count the days between two dates."""
        return "59"

    turns = [call("days", start="2024-07-04", end="2024-09-01"), "118", call("days", start="2024-07-04", end="x")]
    model = ScriptedModel([*turns, "118"])
    result = await Agent(model, tools=[days, calculator]).run("The days from 2024-07-04 to 2024-09-01, times 2?")
    assert "59 * 2" not in model.requests[2].messages[-1].content  # not named: it may be the wrong operation
    assert result.output == "118"


def test_redone_is_the_answers_line_that_a_later_call_of_another_tool_started_again() -> None:
    task = "A crate weighs 12 kilograms. What do 3 crates weigh in pounds?"
    steps = [("calculator", {"expression": "12 * 3 * 1000"}, "36000"), ("convert", {"value": 12}, "26.455471")]
    assert redone(task, "36000", steps) == (0, 1)
    assert redone(task, "26.455471", steps) is None  # the later line's own result
    again = [steps[0], ("calculator", {"expression": "12 * 3"}, "36")]
    assert redone(task, "36000", again) is None  # the same tool: another step, not a new start
    assert redone(task, "36000", [steps[0], ("convert", {"value": 5}, "11")]) is None  # another number


async def test_a_restated_number_while_a_number_of_the_task_is_unused_names_that_number() -> None:
    """compose26's ag06: "3.0" after 3 pounds came back as 1360.77711 grams, the 4 jars still to use."""

    @tool(read_only=True)
    def unit_convert(value: float, from_unit: Literal["lb", "g"], to_unit: Literal["lb", "g"]) -> str:
        """Convert a value between units: lb (pounds), g (grams)."""
        return "1360.77711"

    task = "How many grams is 3 pounds, spread over 4 jars?"
    script = [call("unit_convert", value=3, from_unit="lb", to_unit="g"), "3.0"]
    model = ScriptedModel([*script, call("calculator", expression="1360.77711 / 4"), "340.1942775"])
    result = await Agent(model, tools=[unit_convert, calculator]).run(task)
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not done yet: 1360.77711 is only the result of the last step, and the task still uses 4")
    assert not model.requests[2].allow_final and result.output == "340.1942775"


async def test_a_side_beside_its_converted_length_goes_as_that_length() -> None:
    """independent8's ca29: 9 yd in m, then `8.2296 * 9` for the area of a square 9 yards a side; left out, the 9
    would leave `8.2296`, no step: the notice writes the square."""
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    task = "My vegetable garden is a square, 9 yards on each side. What's its area in square meters?"
    script = [call("unit_convert", value=9, from_unit="yd", to_unit="m"), call("calculator", expression="8.2296 * 9")]
    model = ScriptedModel([*script, call("calculator", expression="8.2296 * 8.2296"), "67.72631616"])
    result = await Agent(model, tools=tools).run(task)
    notice = model.requests[2].messages[-1].content
    assert "Call calculator with 8.2296 in place of 9, for example:" in notice
    assert '{"tool": "calculator", "arguments": {"expression": "8.2296 * 8.2296"}}' in notice
    assert result.output == "67.72631616"


SPEED = "Marathon is 26.2 miles. If I finish in 4 hours, what's my average speed in km per hour?"
SPEED_START = [
    call("unit_convert", value=26.2, from_unit="mi", to_unit="km"),
    call("calculator", expression="26.2 / 42.164813"),
]


async def test_a_quotient_beside_its_converted_input_is_written_with_the_unused_number() -> None:
    """independent12's cd31: `26.2 / 42.164813` after 26.2 mi was converted, for the speed over 4 hours; 26.2
    cannot be left out of a quotient, so the example was the held call itself. The result takes its place and
    the 4 no call took takes the result's."""
    model = ScriptedModel([*SPEED_START, call("calculator", expression="42.164813 / 4"), "10.54120325"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "unit_convert"])).run(SPEED)
    notice = model.requests[2].messages[-1].content
    assert '{"tool": "calculator", "arguments": {"expression": "42.164813 / 4"}}' in notice
    assert result.output == "10.54120325"


async def test_a_held_call_sent_again_unchanged_runs_as_written_out() -> None:
    """independent12's cd31, live: the held `26.2 / 42.164813` sent again ran, and its 0.62 was divided by 4."""
    again = call("calculator", expression="26.2 / 42.164813")
    model = ScriptedModel([*SPEED_START, again, "10.54120325"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "unit_convert"])).run(SPEED)
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran[-1] == {"expression": "42.164813 / 4"}
    assert result.output == "10.54120325"


def test_no_swap_without_exactly_one_unused_number() -> None:
    """Two numbers no call took: which one goes in is not known, so no example is written."""
    assert _swapped("26.2 / 42.164813", ["26.2"], "42.164813", ["4", "2"]) == "26.2 / 42.164813"
    assert _swapped("26.2 / 42.164813", ["26.2"], "42.164813", ["4"]) == "42.164813 / 4"
    assert _swapped("26.2 / 26.2", ["26.2"], "42.164813", ["4"]) == "26.2 / 26.2"


async def test_a_side_is_written_as_its_square_only_where_the_task_asks_for_a_square() -> None:
    """independent14's cg14: "5 km every morning for a full week" in miles, `5 * 3.106856` after the conversion,
    was shown and ran `3.106856 * 3.106856`: nothing there is a square."""
    task = "I run 5 km every morning for a full week. How many miles is that altogether?"
    converted = call("unit_convert", value=5, from_unit="km", to_unit="mi")
    script = [converted, call("calculator", expression="5 * 3.106856")]
    model = ScriptedModel([*script, call("calculator", expression="3.106856 * 7"), "21.747992"])
    await Agent(model, tools=toolbox.agent_tools(["calculator", "unit_convert"])).run(task)
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not run: 5 went into an earlier step") and "3.106856 * 3.106856" not in notice
