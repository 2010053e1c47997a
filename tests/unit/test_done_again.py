"""The task's complete calculation done again on its own result (agentcore.done_again, agentcore.count_checks)."""

from __future__ import annotations

from typing import Any

import pytest
from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.done_again import again_in_call, again_in_head, last_computation
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

PRINTER = [({"key": "printer"}, "159"), ({"expression": "159 + 159 * 0.10"}, "174.9")]
WEBCAM = [({"key": "webcam"}, "64"), ({"expression": "64 * 64"}, "4096")]


def test_the_last_computation_is_an_expression_on_an_earlier_result() -> None:
    assert last_computation(PRINTER) == ("159 + 159 * 0.10", "174.9", frozenset({159.0}))
    assert last_computation([({"expression": "3 * 4"}, "12")]) is None  # nothing fetched
    assert last_computation([({"key": "pen"}, "1.2"), ({"expression": "3 * 4"}, "12")]) is None  # took no result
    assert last_computation([({"key": "pen"}, "1.2"), ({"key": "mug"}, "7.25")]) is None  # no expression
    assert last_computation([({"key": "pen"}, "1.2"), ({"expression": "1.2 + 1"}, "2.2 dollars")]) is None


@pytest.mark.parametrize(
    ("expression", "again"),
    [
        ("174.9 + 174.9 * 0.10", True),  # compose28's ai13
        ("174.9 + 159 * 0.10", True),  # the result in one of the two places
        ("174.9 + 174.9 * 0.2", False),  # another part
        ("159 + 174.9", False),  # a new calculation on the result
        ("159 + 159 * 0.10", False),  # the same call: a repeat, not a redo
        ("174.9 - 174.9 * 0.10", False),  # another operation
        ("174.9 +", False),  # not arithmetic
    ],
)
def test_a_call_that_is_the_last_calculation_on_its_own_result(expression: str, again: bool) -> None:
    assert again_in_call({"expression": expression}, "159 + 159 * 0.10", "174.9", frozenset({159.0})) is again


@pytest.mark.parametrize(
    ("steps", "answer", "worked"),
    [
        (WEBCAM, "262144", "4096 * 64"),  # compose28's ai15
        (WEBCAM, "16777216", "4096 * 4096"),
        (WEBCAM, "4096", None),  # the result itself
        (WEBCAM, "2048", None),  # half of it: no redo
        ([({"key": "keyboard"}, "45.9"), ({"expression": "45.9 * 2"}, "91.8")], "183.6", "91.8 * 2"),  # ah04
        ([({"key": "keyboard"}, "45.9"), ({"expression": "45.9 ** 2"}, "2106.81")], "1.0", None),
    ],
)
def test_an_answer_that_is_the_last_calculation_on_its_own_result(
    steps: list[tuple[dict[str, Any], str]], answer: str, worked: str | None
) -> None:
    last = last_computation(steps)
    assert last is not None
    assert again_in_head(answer, *last) == worked


def test_a_huge_power_is_not_evaluated() -> None:
    last = last_computation([({"key": "x"}, "2"), ({"expression": "2 ** 3"}, "8")])
    assert last is not None
    assert again_in_head("1", "2 ** 3", "100", frozenset({3.0})) is None  # 2 ** 100 is past the cap


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product in dollars."""
    return {"printer": "159", "webcam": "64", "pen": "1.2"}[key]


def agent(model: ScriptedModel) -> Agent[None, str]:
    return Agent(model, tools=[lookup, calculator])


async def test_the_complete_calculation_again_is_held_and_only_an_answer_offered() -> None:
    """compose28's ai13: `174.9 + 174.9 * 0.10` after `159 + 159 * 0.10` = 174.9."""
    script = [call("lookup", key="printer"), call("calculator", expression="159 + 159 * 0.10")]
    model = ScriptedModel([*script, call("calculator", expression="174.9 + 174.9 * 0.10"), "174.9"])
    result = await agent(model).run("What is a printer's price with a tenth of it added on?")
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not run: that is 159 + 159 * 0.10 again, on its own result 174.9.")
    assert model.requests[3].allow_final and not model.requests[3].tools
    assert result.steps[2].result == "not run: 159 + 159 * 0.10 again, on its own result 174.9"
    assert result.output == "174.9"


async def test_the_complete_calculation_again_in_the_head_gives_way_to_its_result() -> None:
    """compose28's ai15: 262144 (`4096 * 64`) after `64 * 64` = 4096, at once, with no turn spent."""
    script = [call("lookup", key="webcam"), call("calculator", expression="64 * 64"), "262144"]
    model = ScriptedModel(script)
    result = await agent(model).run("What is a webcam's price multiplied by itself?")
    assert result.output == "4096" and len(model.requests) == 3
    assert "final answer did the complete calculation again on its result; the result answers" in [
        e["message"] for e in result.trace if e["kind"] == "notice"
    ]


async def test_a_second_calculation_on_the_result_runs() -> None:
    """Two calls for "with a tenth added": `159 * 0.1` then `159 + 15.9` is a new calculation, not a redo."""
    script = [call("lookup", key="printer"), call("calculator", expression="159 * 0.1")]
    model = ScriptedModel([*script, call("calculator", expression="159 + 15.9"), "174.9"])
    result = await agent(model).run("What is a printer's price with a tenth of it added on?")
    assert result.steps[2].result == "174.9" and result.output == "174.9"


async def test_a_task_that_asks_for_the_step_again_gets_it() -> None:
    script = [call("lookup", key="printer"), call("calculator", expression="159 + 159 * 0.10")]
    model = ScriptedModel([*script, call("calculator", expression="174.9 + 174.9 * 0.10"), *["192.39"] * 4])
    result = await agent(model).run("What is a printer's price with a tenth added on, twice?")
    assert result.steps[2].result == "192.39"


async def test_a_redo_before_the_calculation_is_complete_names_what_is_still_to_use() -> None:
    """As compose26's ag07 (`3 * 425 + 2 * 425` after `3 * 85 + 2 * 85` = 425, the monitors' 215 never used):
    `95 + 10` after `85 + 10` = 95, with the monitor's price still to add."""

    @tool(read_only=True)
    def prices(key: str) -> str:
        """Price of a product in dollars."""
        return {"monitor": "215", "chair": "85"}[key]

    script = [call("prices", key="chair"), call("prices", key="monitor")]
    script += [call("calculator", expression="85 + 10"), call("calculator", expression="95 + 10")]
    model = ScriptedModel([*script, call("calculator", expression="95 + 215"), "310"])
    result = await Agent(model, tools=[prices, calculator]).run("What is a chair's price plus 10, plus a monitor's?")
    notice = model.requests[4].messages[-1].content
    assert notice.startswith("Not run: that is 85 + 10 again, on its own result 95. Still to use: 215.")
    assert [t.name for t in model.requests[4].tools] == ["prices", "calculator"]
    assert result.output == "310"


async def test_a_calculation_on_the_tasks_numbers_before_any_lookup_was_done_over() -> None:
    """compose28's ai13: `10 + 0.10` before the lookup left 10.1 unused; the printer's calculation completes."""
    script = [call("calculator", expression="10 + 0.10"), call("lookup", key="printer")]
    script += [call("calculator", expression="159 + 159 * 0.10")]
    model = ScriptedModel([*script, call("calculator", expression="174.9 + 174.9 * 0.10"), "174.9"])
    result = await agent(model).run("What is a printer's price with a tenth of it added on?")
    assert result.steps[3].result == "not run: 159 + 159 * 0.10 again, on its own result 174.9"
    assert result.output == "174.9"


async def test_a_number_the_task_writes_twice_may_be_taken_twice() -> None:
    """ "20% off, and 20% off the sale price": the second `- * 0.2` is the task's own second step."""
    script = [call("lookup", key="printer"), call("calculator", expression="159 - 159 * 0.2")]
    model = ScriptedModel([*script, call("calculator", expression="127.2 - 127.2 * 0.2"), *["101.76"] * 3])
    result = await agent(model).run("Take 20% off a printer's price, and 20% off the sale price.")
    assert result.steps[2].result == "101.76"


def test_odd_expressions_are_no_computation() -> None:
    """A negative number to a fractional power, an int past float's range, and a sum too long to be a step."""
    assert again_in_head("-12", "64 ** 0.5 - 20", "-12", frozenset({64.0})) is None
    huge = {"expression": "174.9 + 174.9 * 1" + "0" * 400}
    assert again_in_call(huge, "159 + 159 * 0.10", "174.9", frozenset({159.0})) is False
    assert last_computation([({"k": "x"}, "64"), ({"expression": " + ".join(["64"] * 1000)}, "64000")]) is None
