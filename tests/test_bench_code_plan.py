"""The code-plan experiment's parts (bench/code_plan.py): what it reads from a reply and what it lets run."""

from __future__ import annotations

import pytest

from bench import code_plan
from bench.toolbox import FUNCTIONS

TOOLS = {"lookup": FUNCTIONS["lookup"]}


def number(value: float) -> dict[str, object]:
    return {"kind": "number", "value": value}


def test_an_expression_over_a_tool_runs_the_tool() -> None:
    assert code_plan.evaluate("(lookup('prices', 'printer') * 2 - 18) / 5", TOOLS) == pytest.approx(60.0)


@pytest.mark.parametrize(
    "expression",
    ["__import__('os').getcwd()", "lookup.__call__('prices', 'printer')", "[1, 2][0]", "open('x')"],
)
def test_anything_but_the_offered_tools_and_arithmetic_is_refused(expression: str) -> None:
    with pytest.raises((ValueError, NameError)):
        code_plan.evaluate(expression, TOOLS)


def test_the_expression_is_the_last_line_of_the_reply_or_of_its_code_block() -> None:
    assert code_plan.expression_of("Here:\n```python\nx = 1\n2 * 3\n```\nDone.") == "2 * 3"
    assert code_plan.expression_of("4 + 5") == "4 + 5"
    assert code_plan.expression_of("") == ""


def test_a_run_scores_each_task_with_the_harness_check(capsys: pytest.CaptureFixture[str]) -> None:
    tasks = [
        {"id": "a", "task": "Printer doubled", "tools": ["lookup", "calculator"], "check": number(318)},
        {"id": "b", "task": "Printer halved", "tools": ["lookup"], "check": number(79.5)},
    ]
    replies = iter(["lookup('prices', 'printer') * 2", "print(lookup('prices', 'printer'))"])
    prompts: list[str] = []

    def complete(prompt: str) -> str:
        prompts.append(prompt)
        return next(replies)

    assert code_plan.run(tasks, complete) == 1
    assert "def lookup(table, key):" in prompts[0] and "def calculator" not in prompts[0]
    assert "solved 1/2" in capsys.readouterr().out
