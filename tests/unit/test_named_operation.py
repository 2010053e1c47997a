"""Two results combined with the operation the task names (agentcore.named_operation)."""

from __future__ import annotations

import pytest

from agentcore import Agent
from agentcore.named_operation import as_distance, as_gap, as_named_operation, as_task_operation, named
from agentcore.testing import ScriptedModel, call
from bench import toolbox

DAYS = "Count the days in February 2024 and in February 2023, and multiply the two counts together."


@pytest.mark.parametrize(
    ("task", "operation"),
    [
        (DAYS, "*"),
        ("What is the product of the two word counts?", "*"),
        ("Give me the sum of the two conversions.", "+"),
        ("Add the two counts together.", "+"),
        ("What's the total, multiplied by 3?", None),  # both named
        ("Which is longer?", None),
    ],
)
def test_named(task: str, operation: str | None) -> None:
    assert named(task) == operation


def test_two_results_added_where_the_task_multiplies_them_are_multiplied() -> None:
    """independent10's cc21 ran `29 + 28`."""
    assert as_named_operation({"expression": "29 + 28"}, DAYS, ["29", "28"]) == {"expression": "29 * 28"}
    assert as_named_operation({"expression": "7 * 8"}, "the sum of the two counts", ["7", "8"]) == {
        "expression": "7 + 8"
    }


def test_a_number_of_the_task_or_one_result_alone_is_left() -> None:
    arguments = {"expression": "29 + 3"}
    assert as_named_operation(arguments, DAYS + " Use 3.", ["29", "28"]) is arguments  # 3 is the task's
    arguments = {"expression": "29 + 29"}
    assert as_named_operation(arguments, DAYS, ["29", "28"]) is arguments  # one value twice
    arguments = {"expression": "29 + 28"}
    assert as_named_operation(arguments, DAYS, ["57"]) is arguments  # one result: nothing to combine
    assert as_named_operation(arguments, "Add the two counts together.", ["29", "28"]) is arguments


CONVERT = "Please convert 68 degrees Fahrenheit to Celsius and add 10 to whatever you get. Thanks!"


@pytest.mark.parametrize(
    ("expression", "task", "runs"),
    [
        ("10 * 20", CONVERT, "20 + 10"),  # independent10's cc05
        ("215 + 3", "the monitor price multiplied by 3", "215 * 3"),
        ("215 * 25", "the monitor plus 25", "215 + 25"),
        ("85 * 2", "add 2 chairs to my desk order", "85 * 2"),  # a count of items: a product may be a first step
        ("215 * 8", "the monitor plus 8% tax", "215 * 8"),  # a percentage: agentcore.percents reads it
        ("215 + 3", "the monitor price times 3, plus 3", "215 + 3"),  # both named for 3
        ("20 + 10", CONVERT, "20 + 10"),
    ],
)
def test_a_result_and_a_task_number_go_with_the_operation_written_before_it(
    expression: str, task: str, runs: str
) -> None:
    results = ["20"] if task == CONVERT else ["215" if "monitor" in task else "85"]
    assert as_task_operation({"expression": expression}, task, results) == {"expression": runs}


NURSE = "Nurse here: patient's temp is 103.1 F. How many degrees Celsius above 37 is that?"


@pytest.mark.parametrize("written", ["39.5 + 37", "37 + 39.5", "37 - 39.5", "(39.5 + 37)"])
def test_how_far_above_a_number_is_the_result_less_it(written: str) -> None:
    """independent12's cd34: `39.5 + 37` after 103.1 F came back as 39.5 C."""
    assert as_distance({"expression": written}, NURSE, ["39.5"]) == {"expression": "39.5 - 37"}


def test_how_far_below_a_number_is_it_less_the_result() -> None:
    assert as_distance({"expression": "50 + 12"}, "How much under 50 was my score?", ["12"]) == {
        "expression": "50 - 12"
    }


@pytest.mark.parametrize(
    ("task", "written", "results"),
    [
        (NURSE, "39.5 - 37", ["39.5"]),  # already so
        (NURSE, "103.1 - 37", ["39.5"]),  # no result in it
        ("How many km over 7 days did I run?", "7 + 12", ["12"]),  # a count of days, not a mark
        ("Is 39.5 above 37?", "39.5 + 37", ["39.5"]),  # no "how many"
        (NURSE, "39.5 + 37 + 1", ["39.5"]),  # not a pair
    ],
)
def test_other_expressions_run_as_written(task: str, written: str, results: list[str]) -> None:
    arguments = {"expression": written}
    assert as_distance(arguments, task, results) is arguments


async def test_the_nurses_question_runs_as_the_difference() -> None:
    script = [
        call("unit_convert", value=103.1, from_unit="F", to_unit="C"),
        call("calculator", expression="39.5 + 37"),
        "2.5",
    ]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "unit_convert"])).run(NURSE)
    assert [s.result for s in result.steps if s.call is not None] == ["39.5", "2.5"]
    assert result.output == "2.5"


SHORT = "The bread recipe wants 2.5 lb of flour but I only have a 500 g bag. How many grams short am I?"


@pytest.mark.parametrize(
    ("expression", "task", "results", "runs"),
    [
        ("1133.980925 + 500", SHORT, ["1133.980925"], "1133.980925 - 500"),  # independent14's cg18
        ("500 + 1133.980925", SHORT, ["1133.980925"], "1133.980925 - 500"),
        ("1133.980925 - 500", SHORT, ["1133.980925"], "1133.980925 - 500"),  # already a difference
        ("1133.980925 + 1133.980925", SHORT, ["1133.980925"], "1133.980925 + 1133.980925"),  # no task number
        ("1133.980925 + 500", "How many grams are 2.5 lb and 500 g together?", ["1133.980925"], "1133.980925 + 500"),
        ("40 + 12", "I had 40 dollars. How much is left after a 12 dollar lunch?", [], "40 + 12"),  # no result
    ],
)
def test_as_gap(expression: str, task: str, results: list[str], runs: str) -> None:
    assert as_gap({"expression": expression}, task, results) == {"expression": runs}
