"""Final answers that stop a chain early (a repeated result, task numbers unused) or bring numbers no tool returned
(arithmetic in the model's head) go back once."""

from __future__ import annotations

from typing import Any

import arithmetic_tools
import pytest

from agentcore.agent import Agent
from agentcore.expression_edits import without_made_up_factors
from agentcore.still_to_use import premature, unused_dates
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unfinished import (
    date_parts,
    doubled,
    guessed,
    leaves_out,
    made_up,
    numbers_in,
    open_results,
    stale_inputs,
    superseded,
    unsourced,
    unused_numbers,
    unused_parts,
    with_result,
    with_tool_value,
    without_working,
)
from bench import toolbox


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product."""
    return {"laptop": "899", "chair": "45"}[key]


@tool(read_only=True)
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    if "+" in expression:
        return str(sum(float(part) for part in expression.split("+")))
    left, _, right = expression.partition("*")
    return str(int(left) * int(right))


@tool
def word_count(text: str) -> str:
    """Count the words in a text."""
    return str(len(text.split()))


@pytest.mark.parametrize(
    ("task", "answer", "result", "calls", "pending"),
    [
        ("Convert 5 miles to km and multiply it by 3.", "8.04672", "8.04672", [{"value": 5}], ["3"]),
        ("What do 2 chairs and 1 desk cost?", "45", "45", [{"key": "chair"}], ["2", "1"]),
        ("What is the laptop price times 3?", '"899"', "899", [{"key": "laptop"}], ["3"]),
        ("Convert 5 miles to km.", "8.04672", "8.04672", [{"value": 5}], []),  # every number used
        ("What is 15% of 80?", "12", "12", [{"expression": "0.15 * 80"}], []),  # a percent used as a fraction
        ("Add 20% tax to 215.", "258", "258", [{"expression": "215 * 1.20"}], []),  # ... or as 1 + it
        ("Take 85 and subtract 10 percent of it.", "76.5", "76.5", [{"expression": "85 - 0.10 * 85"}], []),  # i14
        ("Days from 2024-03-01 to 2024-04-15?", "45", "45", [{"start": "2024-03-01", "end": "2024-04-15"}], []),
        ("Convert 5 miles to km and add 3.", "11.04672", "8.04672", [{"value": 5}], []),  # computed its own
        ("Count the words of 'a b' and add 10.", "There are 2 words", "2", [{"text": "a b"}], ["10"]),
        ("Reverse 'abc' and add 10.", "cba", "cba", [{"text": "abc"}], []),  # a result with no number
    ],
)
def test_premature(task: str, answer: str, result: str, calls: list[dict[str, object]], pending: list[str]) -> None:
    assert premature(task, answer, result, calls) == pending


def test_numbers_are_read_as_written() -> None:
    assert unused_numbers("Add 12,500 and 7 to -3", [{"a": 12500, "b": -3}]) == ["7"]


async def test_an_answer_that_repeats_the_first_step_goes_back_once_with_a_tool_required() -> None:
    model = ScriptedModel([call("lookup", key="laptop"), "899", call("calculator", expression="899*3"), "2697"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is the laptop price times 3?")
    assert result.output == "2697"
    notice = model.requests[2].messages[-1].content
    assert "Not done yet" in notice and "3" in notice
    assert not model.requests[2].allow_final and model.requests[2].tools  # a tool call is required next
    assert any(e["kind"] == "notice" and e.get("numbers") == ["3"] for e in result.trace)


async def test_the_check_runs_once_so_a_model_that_insists_still_ends() -> None:
    model = ScriptedModel([call("lookup", key="laptop"), "899", call("lookup", key="chair"), "899"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is the laptop price times 3?")
    assert result.output == "899" and len(model.requests) == 4


async def test_the_check_can_be_switched_off() -> None:
    class Trusting(Agent[None, str]):
        check_unfinished = False

    model = ScriptedModel([call("lookup", key="laptop"), "899"])
    assert (await Trusting(model, tools=[lookup]).run("What is the laptop price times 3?")).output == "899"


@pytest.mark.parametrize(
    ("task", "answer", "results", "calls", "invented"),
    [
        ("Look up the tablet price and multiply it by 4.", "1458", ["329"], [{"key": "tablet"}], ["1458"]),
        ("What is 123456 / 64?", "2222", ["1929"], [{"expression": "123456 / 64"}], ["2222"]),
        ("What is 123456 / 64?", "1929", ["1929"], [{"expression": "123456 / 64"}], []),
        ("Convert 35 miles to km.", "about 56.33 km", ["56.32704"], [{"value": 35}], []),  # rounded from a result
        ("What is 4821 * 376?", "1,812,696", ["1812696"], [{"expression": "4821 * 376"}], []),
        ("Price of a chair plus 10?", '{"total": 95}', ["85", "95"], [{"key": "chair"}], []),  # an earlier result
        ("Price of a chair?", "It costs 85 dollars, about 80 euros", ["85"], [{"key": "chair"}], ["80"]),
        ("Reverse 'abc'.", "cba", ["cba"], [{"text": "abc"}], []),
    ],
)
def test_unsourced(
    task: str, answer: str, results: list[str], calls: list[dict[str, object]], invented: list[str]
) -> None:
    assert unsourced(task, answer, results, calls) == invented


async def test_a_number_no_tool_returned_goes_back_once_with_a_tool_required() -> None:
    model = ScriptedModel([call("lookup", key="laptop"), "2700", call("calculator", expression="899*3"), "2697"])
    result = await Agent(model, tools=[lookup, calculator]).run("Look up the laptop price; what do 3 cost?")
    assert result.output == "2697"
    notice = model.requests[2].messages[-1].content
    assert "No tool returned 2700" in notice and "899" in notice
    assert not model.requests[2].allow_final and model.requests[2].tools
    assert any(e["kind"] == "notice" and e.get("numbers") == ["2700"] for e in result.trace)


async def test_an_unsourced_answer_is_sent_back_once_then_the_tools_number_replaces_the_models() -> None:
    # 123456 / 64: the tool said 1929, the model answered 2222 twice. The tool wins the second time.
    model = ScriptedModel([call("lookup", key="laptop"), "2700", call("lookup", key="chair"), "It is 2699."])
    result = await Agent(model, tools=[lookup, calculator]).run("Look up the laptop price.")
    assert result.output == "It is 45." and len(model.requests) == 4
    assert any(e["kind"] == "notice" and e.get("result") == "45" for e in result.trace)


async def test_the_tools_number_put_in_place_is_checked_as_an_answer_too() -> None:
    # The task's 3 is in no call yet: the result that replaced the model's number is a step, not the answer.
    turns = [call("lookup", key="laptop"), "2700", call("lookup", key="chair"), "It is 2699."]
    model = ScriptedModel([*turns, call("calculator", expression="45 * 3"), "135"])
    result = await Agent(model, tools=[lookup, calculator]).run("Look up the laptop price; what do 3 cost?")
    assert "the task still uses 3" in model.requests[4].messages[-1].content
    assert result.output == "135"


async def test_the_number_put_in_place_goes_through_the_checks_once_per_run() -> None:
    # The made-up check may fire twice; on the model's second insistence the tool's number is accepted instead,
    # where another notice would spend the run's turns (a real run reached max_steps this way).
    model = ScriptedModel(
        [
            call("lookup", key="laptop"),
            "1500",  # no tool returned it: sent back, a call required
            call("calculator", expression="899 + 300 + 200"),  # made-up numbers
            "1234",  # insisted: 1399 put in place, and the made-up check sends it back
            call("lookup", key="laptop"),  # a repeat: a step, not run again
            "1234",  # insisted again: 1399 is accepted, though the made-up check could fire once more
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run("How much do a pair of laptops cost?")
    assert any(e["kind"] == "notice" and "made-up inputs" in str(e["message"]) for e in result.trace)
    assert result.output == "1399.0" and len(model.requests) == 6


async def test_a_second_unsourced_answer_with_two_invented_numbers_is_kept() -> None:
    model = ScriptedModel([call("lookup", key="laptop"), "2700", call("lookup", key="chair"), "2699 or 2698"])
    result = await Agent(model, tools=[lookup, calculator]).run("Look up the laptop price; what do 3 cost?")
    assert result.output == "2699 or 2698" and len(model.requests) == 4


def test_open_results_are_those_no_later_call_used() -> None:
    steps = [({"key": "monitor"}, "215"), ({"key": "keyboard"}, "45.9"), ({"expression": "215 * 3"}, "645")]
    assert open_results(steps) == ["45.9", "645"]


async def test_a_listed_item_never_looked_up_sends_the_answer_back_even_with_every_number_used() -> None:
    # "the price of a desk lamp, multiply it by 3, and add the price of a usb cable": 3 used, the cable never
    model = ScriptedModel(
        [
            call("lookup", key="laptop"),
            call("calculator", expression="899*3"),
            "2697",
            call("lookup", key="chair"),
            call("calculator", expression="2697+45"),
            "2742",
        ]
    )
    await Agent(model, tools=[lookup, calculator]).run(
        "What is the price of a laptop times 3 plus the price of a chair?"
    )
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not done yet: 2697 is only the result of the last step; the task still names chair,")


def test_with_tool_value() -> None:
    assert with_tool_value("2222", ["2222"], "1929") == "1929"
    assert with_tool_value("The answer is 2,222 in 2 parts.", ["2222"], "1929") == "The answer is 1929 in 2 parts."
    assert with_tool_value("2222", ["2222"], "Lisbon") == "2222"  # a result that is no number
    assert with_tool_value("12.0000000000000004", ["12.0"], "36.287388") == "36.287388"  # read as JSON: 12.0


def test_without_working() -> None:
    assert without_working("9 * 6 = 54 meters", ["54"], "16.4592") == "16.4592 meters"
    assert without_working("6 * 330 / 1000 = 204.0", ["1000", "204.0"], "1.98") == "1.98"
    assert without_working("9 * 6 = 54 meters", ["9"], "16.4592") == "9 * 6 = 54 meters"  # its value is no invention
    assert without_working("about 54 meters", ["54"], "16.4592") == "about 54 meters"  # no calculation written out
    assert without_working("9 * 6 = 54", ["54"], "Lisbon") == "9 * 6 = 54"


async def test_an_insisted_answer_that_writes_its_own_calculation_gets_the_tools_result() -> None:
    """compose32's am17: `0.33 * 6` = 1.98 computed, then "6 * 330 / 1000 = 204.0" answered twice."""
    from bench import toolbox

    script = [call("unit_convert", value=330, from_unit="ml", to_unit="l"), call("calculator", expression="0.33 * 6")]
    script += ["6 * 330 / 1000 = 204.0", call("calculator", expression="1.98 * 1"), "6 * 330 / 1000 = 204.0"]
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    result = await Agent(ScriptedModel(script), tools=tools).run(
        "A can holds 330 milliliters. How many liters do 6 hold?"
    )
    assert result.output == "1.98"


async def test_answers_without_tool_use_are_not_checked_for_sources() -> None:
    model = ScriptedModel(["8"])
    assert (await Agent(model, tools=[calculator]).run("How many legs does a spider have?")).output == "8"


async def test_the_source_check_can_be_switched_off() -> None:
    class Trusting(Agent[None, str]):
        check_sources = False

    model = ScriptedModel([call("lookup", key="laptop"), "2700"])
    assert (await Trusting(model, tools=[lookup]).run("Look up the laptop price; what do 3 cost?")).output == "2700"


@pytest.mark.parametrize(
    ("arguments", "earlier", "tool", "stale"),
    [
        # 8 ft -> 243.84 cm, then "8 - 50": the input again instead of the result
        ({"expression": "8 - 50"}, [("unit_convert", {"value": 8}, "243.84")], "calculator", (["8"], "243.84")),
        ({"expression": "243.84 - 50"}, [("unit_convert", {"value": 8}, "243.84")], "calculator", ([], "")),
        ({"value": 5, "to_unit": "m"}, [("unit_convert", {"value": 5}, "8.04672")], "unit_convert", ([], "")),
        ({"expression": "3 * 2"}, [("lookup", {"key": "chair"}, "85")], "calculator", ([], "")),  # no number went in
        ({"text": "abc"}, [("unit_convert", {"value": 8}, "243.84")], "reverse_string", ([], "")),
    ],
)
def test_stale_inputs(
    arguments: dict[str, object], earlier: list[tuple[str, object, str]], tool: str, stale: tuple[list[str], str]
) -> None:
    assert stale_inputs(arguments, earlier, tool) == stale


@pytest.mark.parametrize(
    ("arguments", "stale"),
    [
        ({"expression": "5 + 1"}, (["5"], "10")),  # 5 again after "5 * 2" = 10 took it
        ({"expression": "10 + 1"}, ([], "")),  # the open result
        ({"expression": "5 * 2 + 1"}, (["5"], "10")),
        ({"expression": "7 + 1"}, ([], "")),  # a number of the task only
    ],
)
def test_superseded(arguments: dict[str, object], stale: tuple[list[str], str]) -> None:
    earlier = [("word_count", {"text": "a b c d e"}, "5"), ("calculator", {"expression": "5 * 2"}, "10")]
    assert superseded(arguments, earlier) == stale


@pytest.mark.parametrize(
    ("expression", "fixed"),
    [
        ("48 * 7 * 1080", "48 * 7"),  # the model's own conversion, done by the tool already
        ("19.84 * 20.0", "19.84 * 20.0"),  # one term would be left: the call stays as written
        ("48 + 7 * 1080", "48 + 7 * 1080"),  # a factor inside a sum is no term of the outer product
        ("2 * 1440", "2 * 1440"),
        ("3 * 4.572 / 5", "3 * 4.572"),  # a made-up divisor goes (compose15's i17 halved, unasked)
        ("48 * 7 / 4", "48 * 7 / 4"),  # 4 is known: 1/4 of ... divided
        ("48 * 7 / 0.5", "48 * 7 / 0.5"),  # 1/0.5 = 2 is known
        ("48 / 3", "48 / 3"),  # nothing would be left to compute
    ],
)
def test_without_made_up_factors(expression: str, fixed: str) -> None:
    assert without_made_up_factors(expression, {48.0, 7.0, 19.84, 2.0, 4.0}) == fixed


async def test_a_stale_calls_own_conversion_is_left_out_of_the_call_written_out() -> None:
    from bench import toolbox

    model = ScriptedModel(
        [
            call("unit_convert", value=3, from_unit="lb", to_unit="oz"),
            call("calculator", expression="3 * 7 * 1080"),  # the 3 pounds again, converted in its own way
            call("calculator", expression="3 * 7 * 1080"),  # the same again: the call written out runs
            "336",
        ]
    )
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    result = await Agent(model, tools=tools).run("One bag weighs 3 pounds. What is the weight of 7 bags in ounces?")
    assert model.requests[2].messages[-1].content.endswith('"arguments": {"expression": "48 * 7"}}')
    assert result.output == "336"


async def test_a_stale_call_left_with_a_number_from_nowhere_is_not_written_out() -> None:
    """compose32's am17: `330 / 1000` after the conversion of 330 ml to 0.33 was written out as `0.33 / 1000`,
    the conversion done twice, and the model ran it. The notice names the result and the 6 still to use."""
    from bench import toolbox

    model = ScriptedModel(
        [
            call("unit_convert", value=330, from_unit="ml", to_unit="l"),
            call("calculator", expression="330 / 1000"),
            call("calculator", expression="0.33 * 6"),
            "1.98",
        ]
    )
    tools = toolbox.agent_tools(["unit_convert", "calculator"])
    result = await Agent(model, tools=tools).run("A soda can holds 330 milliliters. How many liters do 6 cans hold?")
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not run: 330 was the input of an earlier step, whose result is 0.33.")
    assert notice.endswith("Call calculator for the next step with 0.33 and 6.") and "1000" not in notice
    assert result.output == "1.98"


def test_a_result_used_beside_a_newer_one_or_twice_in_one_expression_is_not_superseded() -> None:
    earlier = [("lookup", {"key": "keyboard"}, "45.9"), ("calculator", {"expression": "45.9 * 0.1"}, "4.59")]
    assert superseded({"expression": "45.9 + 4.59"}, earlier) == ([], "")
    assert superseded({"expression": "45.9 * 45.9"}, earlier[:1]) == ([], "")


async def test_a_call_that_takes_a_used_result_where_the_newer_belongs_runs_with_the_newer() -> None:
    model = ScriptedModel(
        [
            call("word_count", text="practice makes perfect every day"),
            call("calculator", expression="5 * 2"),
            call("calculator", expression="5 + 1"),  # held back: 10 + 1 written out
            call("calculator", expression="5 + 1"),  # again: the written-out call runs
            "11",
        ]
    )
    task = "Count the words in 'practice makes perfect every day', double the count, and add 1."
    result = await Agent(model, tools=[word_count, calculator]).run(task)
    assert model.requests[3].messages[-1].content.startswith("Not run: 5 was the input of an earlier step")
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran[-1] == {"expression": "10 + 1"} and result.output == "11"


@tool
def feet_to_cm(feet: float) -> str:
    """Convert feet to centimeters."""
    return str(round(feet * 30.48, 2))


async def test_a_call_that_reuses_an_input_instead_of_its_result_is_held_back_once() -> None:
    model = ScriptedModel(
        [
            call("feet_to_cm", feet=8),
            call("calculator", expression="8*2"),  # 8 again, not 243.84: held back
            call("calculator", expression="2*2"),
            "4",
        ]
    )
    result = await Agent(model, tools=[feet_to_cm, calculator]).run("A board is 8 feet. Double its length in cm.")
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not run: 8 was the input of an earlier step, whose result is 243.84")
    assert notice.endswith('for example: {"tool": "calculator", "arguments": {"expression": "243.84*2"}}')
    assert [t.name for t in model.requests[2].tools] == ["calculator"] and not model.requests[2].allow_final
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran == [{"feet": 8}, {"expression": "2*2"}]  # the held-back call never ran


async def test_taking_the_input_again_after_the_notice_runs_the_call_it_wrote_out() -> None:
    model = ScriptedModel(
        [
            call("feet_to_cm", feet=8),
            call("calculator", expression="8+2"),  # held back, with 243.84+2 written out
            call("calculator", expression="8+2+2"),  # 8 again (compose m31: 5 * 7 * 7): the written-out call runs
            "245.84",
        ]
    )
    result = await Agent(model, tools=[feet_to_cm, calculator]).run("A board is 8 feet. Its length in cm, plus 2?")
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran == [{"feet": 8}, {"expression": "243.84+2"}] and result.output == "245.84"
    assert model.requests[3].messages[-2].content == '{"tool": "calculator", "arguments": {"expression": "243.84+2"}}'
    assert model.requests[3].messages[-1].content.startswith("Result of calculator:\n245.84")


async def test_a_number_worked_out_after_the_notice_runs_the_call_it_wrote_out() -> None:
    model = ScriptedModel(
        [
            call("feet_to_cm", feet=8),
            call("calculator", expression="8+2"),  # held back, with 243.84+2 written out
            call("calculator", expression="244.5"),  # worked out in its head, wrongly (compose10's h17)
            "245.84",
        ]
    )
    result = await Agent(model, tools=[feet_to_cm, calculator]).run("A board is 8 feet. Its length in cm, plus 2?")
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran == [{"feet": 8}, {"expression": "243.84+2"}] and result.output == "245.84"


@pytest.mark.parametrize(
    ("task", "answer", "numbers"),
    [
        ("A runner covers 5 miles a day. How many km over 7 days?", "1.5", ["1.5"]),
        ("The oven is at 350 F. What is that in C plus 25?", '"350.0"', ["350.0"]),
        ("How many legs does a spider have?", "8", []),  # no numbers in the task: nothing to compute from
        ("Reverse 'abc 12'.", "cba", []),
    ],
)
def test_guessed(task: str, answer: str, numbers: list[str]) -> None:
    assert guessed(task, answer) == numbers


async def test_a_numeric_answer_to_a_task_with_numbers_needs_a_tool_once() -> None:
    model = ScriptedModel(["1.5", call("calculator", expression="5*7"), "35"])
    result = await Agent(model, tools=[calculator]).run("Walk 5 km a day. How far in 7 days?")
    assert result.output == "35"
    assert model.requests[1].messages[-1].content.startswith("No tool returned 1.5: do not calculate in your head.")
    assert not model.requests[1].allow_final


async def test_a_guess_and_then_an_unsourced_answer_are_each_sent_back_once() -> None:
    model = ScriptedModel(
        ["1.5", call("calculator", expression="5*7"), "36", call("calculator", expression="6*6"), "36"]
    )
    result = await Agent(model, tools=[calculator]).run("Walk 5 km a day. How far in 7 days?")
    assert result.output == "36"
    assert model.requests[3].messages[-1].content.startswith("No tool returned 36: do not calculate in your head.")


def test_with_result_writes_the_result_where_the_input_was() -> None:
    assert with_result({"expression": "8 - 50", "n": 8, "k": [8, 9]}, ["8"], "243.84") == {
        "expression": "243.84 - 50",
        "n": 243.84,
        "k": [243.84, 9],
    }
    assert with_result({"expression": "8 - 50"}, ["8"], "243.84 cm") == {"expression": "8 - 50"}  # not a number


async def test_typed_outputs_are_not_checked_for_sources() -> None:
    class Rated(Agent[None, int]):
        pass

    model = ScriptedModel([call("lookup", key="laptop"), "7"])
    result = await Rated(model, tools=[lookup], output_type=int).run("Rate the laptop price of 899 from 1 to 10.")
    assert result.output == 7 and len(model.requests) == 2


async def test_an_unfinished_notice_names_the_items_not_looked_up_and_may_fire_once_more() -> None:
    model = ScriptedModel(
        [
            call("lookup", key="laptop"),
            "899",  # only the first item: the notice names chairs
            call("lookup", key="chair"),
            "45",  # only the second item: one more notice
            call("calculator", expression="899*3"),
            "2697",  # the laptops alone: the chairs' 45 is still to add
            call("calculator", expression="2697+90"),
            "2787",
        ]
    )
    await Agent(model, tools=[lookup, calculator]).run("What do 3 laptops and 2 chairs cost?")
    first, second = model.requests[2].messages[-1].content, model.requests[4].messages[-1].content
    assert first.startswith("Not done yet: 899 is only the result of the last step; the task still uses 3 and 2")
    assert "names chairs, which no call has used" in first and first.endswith("Call a tool for chairs next.")
    assert second.startswith("Not done yet: the results 899, 45 are not combined yet; the task counts them as 3 * 899")
    assert model.requests[6].messages[-1].content.startswith("Not done yet: the results 45, 2697 are not combined")
    assert len(model.requests) == 8


async def test_without_named_items_the_unfinished_check_fires_once() -> None:
    # the numbers left are the task's alone: the notice offers only the calculator (answer_checks._arithmetic_next)
    model = ScriptedModel([call("lookup", key="laptop"), "899", call("calculator", expression="899 * 3"), "2697"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is the laptop price times 3 among 2 friends?")
    assert result.output == "2697" and len(model.requests) == 4
    assert [t.name for t in model.requests[2].tools] == ["calculator"]


@pytest.mark.parametrize(
    ("task", "answer", "steps", "inputs"),
    [
        # "the total price of a keyboard and a mouse" computed on invented prices
        ("What do a keyboard and a mouse cost?", "300", [({"expression": "100 + 200"}, "300")], ["100", "200"]),
        ("What do 2 chairs cost?", "170", [({"key": "chair"}, "85"), ({"expression": "85 * 2"}, "170")], []),
        ("What is 12 times 7?", "84", [({"expression": "12 * 7"}, "84")], []),  # the task's own numbers
        ("How many legs does a spider have?", "8", [({"expression": "6 * 8"}, "48")], []),  # not the answer
        ("What is pi squared?", "9.87", [({"expression": "pi ** 2"}, "9.8696")], []),  # one number is no input set
        # the task's number beside one from nowhere is not made up: "3 * 4 * 1000" ml may be a unit's constant
        ("How many ml do 4 jugs of 3 liters hold?", "12000", [({"expression": "3 * 4 * 1000"}, "12000")], []),
        # two numbers from nowhere beside the task's own (not named): the backpack's price was never looked up
        ("A backpack's price among 3?", "11.25", [({"expression": "3 * 1.5 * 2.5"}, "11.25")], ["1.5", "2.5"]),
        # made-up numbers used again after the lookups are still made up (compose16's l08)
        (
            "What is the combined price of a laptop and a printer?",
            "309",
            [
                ({"expression": "2 * (100 + 50)"}, "300"),
                ({"key": "laptop"}, "899"),
                ({"key": "printer"}, "159"),
                ({"expression": "100 + 50 + 159"}, "309"),
            ],
            ["100", "50"],
        ),
        # a percentage of the task as its fraction is the task's number
        ("What is 80 after a 20% increase and 5% tax?", "100.8", [({"expression": "80 * 1.2 * 1.05"}, "100.8")], []),
    ],
)
def test_made_up(task: str, answer: str, steps: list[tuple[dict[str, object], str]], inputs: list[str]) -> None:
    assert made_up(task, answer, steps)[0] == inputs


async def test_an_answer_computed_from_made_up_prices_goes_back_with_the_other_tool_required() -> None:
    model = ScriptedModel(
        [
            call("calculator", expression="100*200"),
            "20000",
            call("lookup", key="laptop"),
            call("lookup", key="chair"),
            call("calculator", expression="899*45"),
            "40455",
        ]
    )
    agent = Agent(model, tools=[lookup, calculator])
    agent.fetch_first = False  # the made-up call runs, as where nothing held it back (agentcore.fetch_first)
    result = await agent.run("What do a laptop and a chair cost, multiplied?")
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not done yet: 20000 was computed from 100 and 200, which are in neither the task")
    assert "(laptop, chair) with lookup first" in notice
    assert [t.name for t in model.requests[2].tools] == ["lookup"] and not model.requests[2].allow_final
    assert result.output == "40455"


async def test_a_made_up_result_that_a_call_on_looked_up_values_gave_again_is_answered() -> None:
    """Guessed right, then done again on the looked-up prices: the answer is sourced now (compose16's l15)."""
    script = [call("calculator", expression="899+45"), "944.0", call("lookup", key="laptop")]
    script += [call("lookup", key="chair"), call("calculator", expression="899 + 45"), "944.0", "again"]
    model = ScriptedModel(script)
    agent = Agent(model, tools=[lookup, calculator])
    agent.fetch_first = False  # the guess runs (agentcore.fetch_first)
    result = await agent.run("What do a laptop and a chair cost together?")
    assert result.output == "944.0"
    assert len(model.requests) == 6  # the made-up check fired once, before the lookups, and not again
    assert "was computed from 899 and 45" in str(model.requests[2].messages[-1].content)


async def test_made_up_inputs_with_no_other_tool_to_get_values_are_left_alone() -> None:
    model = ScriptedModel([call("calculator", expression="100*200"), "20000"])
    result = await Agent(model, tools=[calculator]).run("What do a laptop and a chair cost, multiplied?")
    assert result.output == "20000" and len(model.requests) == 2


def test_doubled_finds_a_result_used_twice() -> None:
    assert doubled({"expression": "329 + 329"}, ["329", "15"]) == 0
    assert doubled({"expression": "329 + 1.2"}, ["329", "1.2"]) is None
    assert doubled({"expression": "2 * 2"}, ["329"]) is None  # not a result


def test_leaves_out_some_results_but_not_a_combined_answer() -> None:
    assert leaves_out("1.2 + 1.2 = 2.4", ["329", "1.2"])
    assert not leaves_out("330.2", ["329", "1.2"])  # a new number: combined
    assert not leaves_out("329 + 1.2 = 330.2", ["329", "1.2"])  # both shown


async def test_one_price_taken_for_two_is_held_back_and_the_other_item_fetched_first() -> None:
    model = ScriptedModel(
        [
            call("lookup", key="laptop"),
            call("calculator", expression="899+899"),  # one price for both: not run
            call("lookup", key="chair"),
            "899 + 899 = 1798",  # restates one of the two prices: sent back
            call("calculator", expression="899+45"),
            "944",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run("What do a laptop and a chair cost together?")
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not run: that call uses 899 twice, but 899 is the value of one item only.")
    assert notice.endswith('for example: {"tool": "lookup", "arguments": {"key": "chair"}}')
    assert [t.name for t in model.requests[2].tools] == ["lookup"] and not model.requests[2].allow_final
    assert model.requests[4].messages[-1].content.startswith("Not done yet: the results 899, 45 are not combined")
    assert result.output == "944"
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert {"expression": "899+899"} not in ran


async def test_a_stray_lookup_before_the_right_one_is_not_a_sum_to_make() -> None:
    # Only items the task lists together are parts of one answer: "the laptop price" after a chair lookup is not.
    model = ScriptedModel([call("lookup", key="chair"), call("lookup", key="laptop"), "899"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is the price of the laptop?")
    assert result.output == "899" and len(model.requests) == 3


async def test_a_guessed_sum_while_a_listed_item_is_unfetched_names_the_item() -> None:
    model = ScriptedModel(
        [
            call("lookup", key="chair"),
            "39.95",  # a guess while the laptop is unfetched: the laptop is named
            call("lookup", key="laptop"),
            "944",  # the sum worked out in the head: both prices are named to combine
            call("calculator", expression="899+45"),
            "944",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run("What do a laptop and a chair cost together?")
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not done yet: 45 is only the result of the last step; the task still names laptop,")
    assert model.requests[4].messages[-1].content.startswith("Not done yet: the results 45, 899 are not combined")
    assert result.output == "944"


async def test_a_number_only_a_failed_call_took_is_still_unused() -> None:
    """The whole task pasted into the calculator failed; the 3 in it was never used (compose3 p05)."""
    model = ScriptedModel(
        [
            call("calculator", expression="Multiply the price of a laptop by 3"),
            call("lookup", key="laptop"),
            "899",
            call("calculator", expression="899*3"),
            "2697",
        ]
    )
    result = await Agent(model, tools=[lookup, calculator]).run("Multiply the price of a laptop by 3.")
    assert "the task still uses 3" in model.requests[3].messages[-1].content
    assert result.output == "2697"


@tool(read_only=True)
def price(key: str) -> str:
    """Price of a product."""
    return {"keyboard": "45.9", "monitors": "215", "monitor": "215"}[key]


async def test_results_to_combine_are_named_once_each_with_the_counts_of_their_items() -> None:
    first = [call("price", key="keyboard"), "45.9", call("price", key="monitors"), "215"]
    rest = [call("calculator", expression="3*215"), "645", call("calculator", expression="645+91.8"), "736.8"]
    model = ScriptedModel([*first, call("price", key="keyboard"), "215", *rest])
    result = await Agent(model, tools=[price, calculator], max_steps=10).run("What do 3 monitors and 2 keyboards cost?")
    notice = model.requests[6].messages[-1].content
    assert "the results 45.9, 215 are not combined yet; the task counts them as 3 * 215 and 2 * 45.9" in notice
    # 645 is the monitors alone: the keyboards' 45.9 still waits, named with its count, and goes in next
    again = model.requests[8].messages[-1].content
    assert "the results 45.9, 645 are not combined yet" in again and again.endswith("with 2 * 45.9 and 645.")
    assert result.output == "736.8"


async def test_counts_with_no_item_looked_up_are_named_as_counts() -> None:
    first = [call("price", key="keyboard"), "45.9", call("price", key="monitors"), "215", call("price", key="keyboard")]
    rest = [call("calculator", expression="3*215"), "645", call("calculator", expression="645+45.9"), "690.9"]
    model = ScriptedModel([*first, "215", *rest])
    agent = Agent(model, tools=[price, calculator], max_steps=10)
    await agent.run("What do 3 monitors and a keyboard cost, for 2 people?")
    notice = model.requests[6].messages[-1].content
    assert "the results 45.9, 215 are not combined yet, and the task still uses 3 and 2" in notice


async def test_a_repeated_last_result_with_results_waiting_names_each_count_with_its_item() -> None:
    first = [call("price", key="keyboard"), "45.9", call("price", key="monitors"), "215"]
    rest = [call("calculator", expression="3*215"), "645", call("calculator", expression="645+91.8"), "736.8"]
    await Agent(model := ScriptedModel([*first, *rest]), tools=[price, calculator]).run(
        "What do 3 monitors and 2 keyboards cost?"
    )
    assert "the task counts them as 3 * 215 and 2 * 45.9" in model.requests[4].messages[-1].content
    assert "the results 45.9, 645 are not combined yet" in model.requests[6].messages[-1].content


async def test_an_items_price_left_out_of_the_product_goes_back_with_both_results() -> None:
    fetched = [call("price", key="monitors"), call("price", key="keyboard"), call("calculator", expression="3*215")]
    model = ScriptedModel([*fetched, "645", call("calculator", expression="645+45.9"), "690.9"])
    result = await Agent(model, tools=[price, calculator]).run("What do 3 monitors and a keyboard cost?")
    assert "the results 45.9, 645 are not combined yet" in model.requests[4].messages[-1].content
    assert result.output == "690.9"


@pytest.mark.parametrize(
    ("task", "calls", "tools", "pending"),
    [
        ("What is a tablet's price less one tenth of itself?", [{"key": "tablet"}], "lookup", ["0.1"]),
        ("What is a tablet's price less one tenth of itself?", [{"expression": "329 / 10"}], "calculator", []),
        ("Take half of the price of a desk.", [{"expression": "240 * 0.5"}], "calculator", []),
        ("What is twice the price of a pen?", [{"key": "pen"}], "lookup", ["2"]),
        ("double 21", [{"n": 21}], "double: doubles a number", []),  # the tool named by the word did it
        ("a desk plus three quarters of it", [{"key": "desk"}], "lookup", ["3/4"]),  # a count of parts
        ("a desk plus three quarters of it", [{"expression": "240 * 3 / 4"}], "calculator", []),
        ("a desk plus three quarters of it", [{"expression": "240 * 0.75"}], "calculator", []),
        ("two thirds of a tablet", [{"key": "tablet"}], "lookup", ["2/3"]),
        ("A desk lamp's price plus a third of that price?", [{"key": "desk lamp"}], "lookup", ["1/3"]),  # ag13
        ("A desk lamp's price plus a third of that price?", [{"expression": "32.4 / 3"}], "calculator", []),
        ("A desk lamp's price plus a third of that price?", [{"expression": "32.4 * 0.333"}], "calculator", []),
        ("The third item's price?", [{"key": "item"}], "lookup", []),  # an order, not a part
        ("a quarter of the price", [{"key": "desk"}], "lookup", ["0.25"]),  # read once, as before
    ],
)
def test_unused_parts(task: str, calls: list[dict[str, Any]], tools: str, pending: list[str]) -> None:
    assert unused_parts(task, calls, tools) == pending


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("最多10个", [10.0]), ("an mp3 at v2.1", []), ("12,500 and 3.5", [12500.0, 3.5]), ("café5", [])],
)
def test_numbers_in_reads_numbers_after_cjk_text_but_not_inside_latin_words(text: str, numbers: list[float]) -> None:
    assert numbers_in(text) == numbers


async def test_a_number_of_the_models_own_after_the_last_planned_step_is_settled_by_its_result() -> None:
    """compose17's o02: every step done, 6.515904 answered for 10.484096. Sent back with a call required, the
    model subtracted 4 again; the plan's last result answers instead."""
    model = ScriptedModel([call("lookup", key="laptop"), call("calculator", expression="899 * 3"), "2700"])
    result = await Agent(model, tools=[lookup, calculator]).run("Look up the laptop price and multiply it by 3.")
    assert result.output == "2697" and len(model.requests) == 3
    assert any(e["kind"] == "notice" and e.get("result") == "2697" for e in result.trace)


async def test_a_number_of_the_models_own_after_a_comparisons_difference_is_settled_by_it() -> None:
    """compose16's l09: 8.75 - 1.2 = 7.55, then 0.35 answered; required to call, the model took 1.2 off again."""
    script = [call("lookup", key="laptop"), call("lookup", key="chair"), call("calculator", expression="899 - 45")]
    model = ScriptedModel([*script, "0.35"])
    tools = [lookup, arithmetic_tools.calculator]
    result = await Agent(model, tools=tools).run("How much less does a chair cost than a laptop?")
    assert result.output == "854" and len(model.requests) == 4


async def test_a_number_a_call_took_is_a_source_even_on_made_up_inputs() -> None:
    """The 48 tasks' d04: "How many legs does a spider have?" called `6 * 8`, then answered 8, which is right. With
    a made-up call's inputs read as no source (tried for compose23's ad09), the 48 instead won and d04 and d08 were
    lost (compare35); so they stay a source."""
    model = ScriptedModel([call("calculator", expression="6*8"), "8"])
    result = await Agent(model, tools=[calculator]).run("How many legs does a spider have?")
    assert result.output == "8" and len(model.requests) == 2


def test_a_date_is_one_value_and_its_digits_use_no_number_of_the_task() -> None:
    """compose24's ae05: the 03 of "2022-03-01" went into the date_diff call, and "times 3" counted as done."""
    task = "Days from 2022-03-01 to 2022-05-01, times 3?"
    dates = {"start": "2022-03-01", "end": "2022-05-01"}
    assert unused_numbers(task, [dates]) == ["3"]
    assert unused_numbers(task, [dates, {"expression": "61 * 3"}]) == []
    assert premature(task, "61", "61", [dates]) == ["3"]
    slashed = [{"start": "2022-03-01", "end": "2022-05-01"}]  # the task's dates as the call wrote them
    assert unused_numbers("Days between 3/1/2022 and 5/1/2022 divided by 2?", slashed) == ["2"]


def test_a_date_with_its_month_in_words_is_one_value_too() -> None:
    """independent5's bx17: told the task still used 2, 2025 and 16 of "the 2nd of August 2025 ... the 16th of
    August 2025", the model added them to the nights."""
    task = "From the 2nd of August 2025 to the 16th of August 2025 at 95 dollars a night: the bill?"
    dates = {"start": "2025-08-02", "end": "2025-08-16"}
    assert unused_numbers(task, [dates]) == ["95"]
    assert unused_numbers("Days from 1 June to March 21st, 2024, times 4?", [{"start": "2024-06-01"}]) == ["4"]


@pytest.mark.parametrize(
    ("task", "unused"),
    [  # independent5's bx32: told the task still used 3, the model added it to the weights' sum
        ("Our 3 suitcases weigh 18 kg, 21.5 kg and 16 kg. The form wants the total in pounds.", []),
        ("Our 3 suitcases weigh 18 kg, 21.5 kg, and 16 kg.", []),
        ("Our 3 suitcases weigh 18 kg and 16 kg.", ["3"]),  # two listed: the 3 counts something else
        ("Buy 3 chairs. They weigh 18 kg, 21.5 kg and 16 kg.", ["3"]),  # the list is in another sentence
    ],
)
def test_a_count_of_the_numbers_listed_after_it_is_used_with_them(task: str, unused: list[str]) -> None:
    assert unused_numbers(task, [{"expression": "18 + 21.5 + 16"}]) == unused


HOLIDAY = "From the 2nd of August 2025 to the 16th of August 2025 at 95 dollars a night: the bill?"
NIGHTS = [("date_diff", {"start": "2025-08-02", "end": "2025-08-16"}, "14")]


@pytest.mark.parametrize(
    ("expression", "task", "taken"),
    [  # independent5's bx17 and bx04: a day or a year of a date the date tool took, as an operand
        ("14 + 2 + 2025 + 16 * 95", HOLIDAY, (["2", "16", "2025"], "14")),
        ("14 * 95", HOLIDAY, ([], "")),
        ("14 * 95 + 2", HOLIDAY + " Add 2 for the tax.", ([], "")),  # the task writes 2 outside a date too
    ],
)
def test_the_parts_of_a_date_the_date_tool_took_are_no_operands(
    expression: str, task: str, taken: tuple[list[str], str]
) -> None:
    assert date_parts({"expression": expression}, NIGHTS, task) == taken
    assert date_parts({"expression": expression}, [], task) == ([], "")  # no date went into a call yet
    assert date_parts({"start": "2025-08-02", "expression": expression}, NIGHTS, task) == ([], "")  # a date call


def test_dates_in_digits_no_call_took_are_still_to_use() -> None:
    """independent8's ca20: the second project's dates were never counted."""
    task = "Project A ran from 2023-02-14 to 2023-06-30 and project B from 2023-09-01 to 2024-01-20. Total days?"
    first = [{"start": "2023-02-14", "end": "2023-06-30"}]
    assert unused_dates(task, first) == ["2023-09-01", "2024-01-20"]
    assert premature(task, "136", "136", first) == ["2023-09-01", "2024-01-20"]
    assert unused_numbers(task, first) == []  # numbers only: other checks compare them as numbers
    both = [*first, {"start": "09-01-2023", "end": "2024/1/20"}]  # the same days in other layouts
    assert unused_dates(task, both) == []
    assert unused_dates(task, [{"expression": "3 * 4"}]) == []  # no date taken yet: nothing to compare


async def test_results_the_task_asks_a_total_of_are_combined() -> None:
    """independent8's ca20: both projects' days counted, the second answered alone."""
    from agentcore import Agent
    from agentcore.testing import ScriptedModel, call
    from bench import toolbox

    task = (
        "Project A ran from 2023-02-14 to 2023-06-30 and project B ran from 2023-09-01 to 2024-01-20. How many"
        " days did the two projects last in total?"
    )
    script = [call("date_diff", start="2023-02-14", end="2023-06-30"), call("date_diff", start="2023-09-01",
              end="2024-01-20"), "141", call("calculator", expression="136 + 141"), "277"]  # fmt: skip
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(["date_diff", "calculator"])).run(task)
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not done yet: the results 136, 141 are not combined yet.")  # the 2 counts them
    assert result.output == "277"


async def test_a_wordy_answer_after_one_of_two_listed_items_names_the_other() -> None:
    """independent10's cc14: "What's the damage?" answered in words once the keyboard's price was in."""
    script = [
        call("lookup", table="prices", key="keyboard"),
        "The keyboard and mouse are not necessary for your new setup.",
        call("lookup", table="prices", key="mouse"),
        call("calculator", expression="45.9 + 19.95"),
        "65.85",
    ]
    model = ScriptedModel(script)
    tools = toolbox.agent_tools(["calculator", "lookup"])
    result = await Agent(model, tools=tools).run("I need a keyboard and a mouse for my new setup. What's the damage?")
    assert result.output == "65.85"
    assert model.requests[2].messages[-1].content.startswith("Not done yet")  # sent back, not accepted


def test_a_result_whose_numbers_a_later_step_took_all_of_is_redone_not_open() -> None:
    """independent12's cd13: `240 + 2` before the chairs, redone as `240 + 2 * 85`; 242 waits for nothing."""
    desk = ({"table": "prices", "key": "desk"}, "240")
    early = ({"expression": "240 + 2"}, "242")
    chair = ({"table": "prices", "key": "chair"}, "85")
    redo = ({"expression": "240 + 2 * 85"}, "410")
    assert open_results([desk, early, chair, redo]) == ["410"]
    assert open_results([desk, early, chair]) == ["242", "85"]
    converted = ({"value": 40, "from_unit": "oz"}, "1.133981")  # one number: a later 40 redoes nothing
    assert open_results([converted, ({"expression": "40 * 2"}, "80")]) == ["1.133981", "80"]


async def test_a_date_no_call_took_sends_the_answer_back_once_more_and_to_the_date_tool() -> None:
    """independent14's cg21: one date range of two counted, a garbled sum ran, and its result was answered; the
    unfinished check had fired once, naming the unused date, and did not fire again."""
    from bench import toolbox

    task = (
        "For a school project: how many days are there from 2024-01-01 to 2024-03-15, how many from 2024-03-15 to"
        " 2024-12-25, and what is the difference between those two counts?"
    )
    first = [call("date_diff", start="2024-01-01", end="2024-03-15"), "74"]
    garbled = [call("calculator", expression="74 + 2024 - 1225")] * 2 + ["873"]
    rest = [call("date_diff", start="2024-03-15", end="2024-12-25"), call("calculator", expression="285 - 74"), "211"]
    model = ScriptedModel([*first, *garbled, *rest])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "date_diff"])).run(task)
    again = model.requests[5]
    assert again.messages[-1].content.startswith("Not done yet: 873 is only the result of the last step")
    assert "date_diff" in [t.name for t in again.tools]
    assert result.output == "211"
