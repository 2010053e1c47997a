"""Two results combined with the operation the task names (agentcore.named_operation)."""

from __future__ import annotations

import pytest

from agentcore.named_operation import as_named_operation, as_task_operation, named

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
