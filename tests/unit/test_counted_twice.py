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
FLOUR = "One bag of flour weighs 5 pounds. How many kilograms do 3 bags weigh?"
BAGS = [({"value": 5, "from_unit": "lb", "to_unit": "kg"}, "2.267962"), ({"expression": "3 * 2.267962"}, "6.803886")]


@pytest.mark.parametrize(
    ("expression", "earlier", "task", "found"),
    [
        ("899 + 1058", SUM, TASK, ("899", "1058", "899 + 159", "added")),
        ("1058 + 159", SUM, TASK, ("159", "1058", "899 + 159", "added")),
        ("3 * 6.803886", BAGS, FLOUR, ("3", "6.803886", "3 * 2.267962", "multiplied")),  # compose25's af18
        ("6.803886 * 3", BAGS, FLOUR, ("3", "6.803886", "3 * 2.267962", "multiplied")),
        # inside a sum (independent5's bx14: the change from 50 for 3 mugs, after `3 * 7.25`)
        ("3 * 6.803886 + 50", BAGS, FLOUR, ("3", "6.803886", "3 * 2.267962", "multiplied")),
        ("50 - 6.803886 * 3", BAGS, FLOUR, None),  # a difference: not the outermost sum's addend
        ("3 * 6.803886", BAGS, "Multiply by 3 bags, and by 3 again.", None),  # the task writes 3 twice
        ("2.267962 * 6.803886", BAGS, FLOUR, None),  # 2.267962 no number of the task
        ("3 * 6.803886", [({"expression": "3 + 2.267962"}, "6.803886")], FLOUR, None),  # a sum, not a product
        ("1058 * 2", SUM, TASK, None),  # no sum
        ("899 + 1058", [({"expression": "899 * 2"}, "1798")], TASK, None),  # 1058 is no result here
        ("45.9 + 4.59", [({"expression": "45.9 * 0.1"}, "4.59")], "Add 10% of 45.9 to it.", None),  # a part
        ("20 + 5", [({"expression": "15 + 5"}, "20")], "Add 5 to 15, and add 5 again.", None),  # the task's 5
    ],
)
def test_counted_twice(
    expression: str, earlier: list[tuple[dict[str, Any], str]], task: str, found: tuple[str, str, str, str] | None
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


async def test_a_count_multiplied_into_its_own_product_again_is_held_back() -> None:
    """compose25's af18: `3 * 6.803886` after `3 * 2.267962` = 6.803886; the product answers."""

    @tool(read_only=True)
    def unit_convert(value: float, from_unit: str, to_unit: str) -> str:
        """Convert a value between units."""
        return {(5.0, "lb", "kg"): "2.267962"}[float(value), from_unit, to_unit]

    script = [call("unit_convert", value=5, from_unit="lb", to_unit="kg")]
    script += [call("calculator", expression="3 * 2.267962")]
    model = ScriptedModel([*script, call("calculator", expression="3 * 6.803886"), "6.803886"])
    result = await Agent(model, tools=[unit_convert, calculator]).run(FLOUR)
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not run: 6.803886 (3 * 2.267962) already counts 3; multiplying it by 3 counts 3 twice.")
    assert result.output == "6.803886"


@pytest.mark.parametrize("expression", ["\ud800 + 1", "1 +\x00 2", "(" * 400 + "1" + ")" * 400])
def test_expressions_python_cannot_parse_are_no_sum(expression: str) -> None:
    from agentcore.counted_twice import sum_terms
    from agentcore.expression_edits import without_term

    assert sum_terms(expression) == []
    assert without_term(expression, "1") is None
