"""A value added to the result of a sum that already counts it (agentcore.counted_twice)."""

from __future__ import annotations

from typing import Any

import pytest
from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.counted_twice import counted_twice, sum_terms
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

TASK = "What is the combined price of a laptop and a printer?"
SUM = [({"key": "laptop"}, "899"), ({"key": "printer"}, "159"), ({"expression": "899 + 159"}, "1058")]


@pytest.mark.parametrize(
    ("expression", "earlier", "task", "found"),
    [
        ("899 + 1058", SUM, TASK, ("899", "1058", "899 + 159")),
        ("1058 + 159", SUM, TASK, ("159", "1058", "899 + 159")),
        ("1058 * 2", SUM, TASK, None),  # no sum
        ("899 + 1058", [({"expression": "899 * 2"}, "1798")], TASK, None),  # 1058 is no result here
        ("45.9 + 4.59", [({"expression": "45.9 * 0.1"}, "4.59")], "Add 10% of 45.9 to it.", None),  # a part
        ("20 + 5", [({"expression": "15 + 5"}, "20")], "Add 5 to 15, and add 5 again.", None),  # the task's 5
    ],
)
def test_counted_twice(
    expression: str, earlier: list[tuple[dict[str, Any], str]], task: str, found: tuple[str, str, str] | None
) -> None:
    assert counted_twice({"expression": expression}, earlier, task) == found


def test_sum_terms_are_the_outermost_sums_numbers() -> None:
    assert sum_terms("899 + 159 + 3 * 4") == [899, 159]
    assert sum_terms("899 - 159") == [] and sum_terms("not arithmetic") == []


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product in dollars."""
    return {"laptop": "899", "printer": "159"}[key]


async def test_a_sums_term_added_to_its_result_is_held_back_and_the_sum_may_answer() -> None:
    """compose16's l08: `899 + 1058` after `899 + 159` = 1058."""
    script = [call("lookup", key="laptop"), call("lookup", key="printer"), call("calculator", expression="899 + 159")]
    model = ScriptedModel([*script, call("calculator", expression="899 + 1058"), "1058"])
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    notice = model.requests[4].messages[-1].content
    assert notice.startswith("Not run: 1058 (899 + 159) already counts 899; adding 899 to it counts 899 twice.")
    assert model.requests[4].allow_final and result.output == "1058"


@pytest.mark.parametrize("expression", ["\ud800 + 1", "1 +\x00 2", "(" * 400 + "1" + ")" * 400])
def test_expressions_python_cannot_parse_are_no_sum(expression: str) -> None:
    from agentcore.counted_twice import sum_terms
    from agentcore.unfinished import without_term

    assert sum_terms(expression) == []
    assert without_term(expression, "1") is None
