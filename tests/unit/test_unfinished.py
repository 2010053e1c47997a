"""A final answer that only repeats a tool result while a number of the task is unused goes back once."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unfinished import premature, unused_numbers


@tool
def lookup(key: str) -> str:
    """Price of a product."""
    return {"laptop": "899", "chair": "45"}[key]


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    left, _, right = expression.partition("*")
    return str(int(left) * int(right))


@pytest.mark.parametrize(
    ("task", "answer", "result", "calls", "pending"),
    [
        ("Convert 5 miles to km and multiply it by 3.", "8.04672", "8.04672", [{"value": 5}], ["3"]),
        ("What do 2 chairs and 1 desk cost?", "45", "45", [{"key": "chair"}], ["2", "1"]),
        ("What is the laptop price times 3?", '"899"', "899", [{"key": "laptop"}], ["3"]),
        ("Convert 5 miles to km.", "8.04672", "8.04672", [{"value": 5}], []),  # every number used
        ("What is 15% of 80?", "12", "12", [{"expression": "0.15 * 80"}], []),  # a percent used as a fraction
        ("Add 20% tax to 215.", "258", "258", [{"expression": "215 * 1.20"}], []),  # ... or as 1 + it
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
