"""Arguments copied from a tool's own description (`lookup(key="product")`) go back once with the task's words."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.grounding import placeholders, task_words
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

DOC = "Look up a key in a table: capitals (country -> capital), prices (product -> price in dollars)."
SCHEMA = {"properties": {"table": {"enum": ["capitals", "prices"]}, "key": {"type": "string"}}}


@pytest.mark.parametrize(
    ("arguments", "task", "results", "copied"),
    [
        ({"table": "prices", "key": "product"}, "What do 3 monitors and 2 keyboards cost?", [], ["product"]),
        ({"table": "prices", "key": "Country"}, "What is the capital of Peru?", [], ["Country"]),
        ({"table": "prices", "key": "monitor"}, "What do 3 monitors and 2 keyboards cost?", [], []),  # the task's
        ({"table": "prices", "key": "price"}, "Look up the tablet's price.", [], []),  # the task writes it too
        ({"table": "capitals", "key": "capital"}, "Reverse it.", ["capital"], []),  # an earlier result has it
        ({"table": "prices", "key": "printer"}, "What does a printer cost?", [], []),  # not in the docs
    ],
)
def test_placeholders(arguments: dict[str, str], task: str, results: list[str], copied: list[str]) -> None:
    assert placeholders(arguments, DOC, SCHEMA, task, results) == copied


def test_task_words_leave_out_function_words_and_the_docs_own() -> None:
    assert task_words("What do 3 monitors and 2 keyboards cost?", DOC, SCHEMA) == ["monitors", "keyboards"]
    assert task_words("Count the words in 'a b c'.", DOC, SCHEMA) == ["a b c"]  # quoted material as written


@tool
def lookup(table: Literal["capitals", "prices"], key: str) -> str:
    """Look up a key in a table: capitals (country -> capital), prices (product -> price in dollars).

    Args:
        table: capitals or prices.
        key: The country or product name.
    """
    rows = {"monitor": "199", "keyboard": "70"}
    return rows[key.rstrip("s")]


async def test_a_placeholder_call_is_held_back_once_and_the_task_words_named() -> None:
    model = ScriptedModel(
        [call("lookup", table="prices", key="product"), call("lookup", table="prices", key="monitors"), "199"]
    )
    result = await Agent(model, tools=[lookup]).run("What does a monitor cost?")
    notice = model.requests[1].messages[-1].content
    assert notice.startswith('Not run: "product" is a word from the description of lookup, not a value from the task.')
    assert notice.endswith('task names (monitor), for example: {"tool": "lookup", "arguments": {"table": "prices", "key": "monitor"}}')
    assert [t.name for t in model.requests[1].tools] == ["lookup"] and not model.requests[1].allow_final
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran == [{"table": "prices", "key": "monitors"}] and result.output == "199"


async def test_a_second_placeholder_call_runs() -> None:
    model = ScriptedModel(
        [call("lookup", table="prices", key="product"), call("lookup", table="prices", key="country"), "none"]
    )
    result = await Agent(model, tools=[lookup]).run("What does a monitor cost?")
    errors = [s.result or "" for s in result.steps if s.tool_error]
    assert errors[0].startswith("not run") and errors[1].startswith("KeyError")


def test_adjacent_task_words_stay_together() -> None:
    assert task_words("How much does a desk lamp cost, in dollars?", DOC, SCHEMA) == ["desk lamp"]
