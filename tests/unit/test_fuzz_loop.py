"""Fuzzing the run loop with whatever a model (or a custom backend) may return, and whatever a tool may return.

Every run must end in a RunResult or a typed agentcore error (AgentRunError, ModelFailedError, UserError), with
on_run_end called and RunFinished emitted exactly once, never a hang or a raw exception.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from fuzz_settings import awkward_text, count, fuzz, json_values, report_cases
from hypothesis import given
from hypothesis import strategies as st

from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.errors import AgentcoreError
from agentcore.events import Event, RunFinished
from agentcore.messages import ModelRequest, ModelResponse, ToolCall
from agentcore.tools.function import tool


@pytest.fixture(scope="module", autouse=True)
def _cases(request: pytest.FixtureRequest) -> Iterator[None]:
    yield from report_cases(request)


@tool(timeout=1)
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


returned: dict[str, Any] = {}


@tool(timeout=1)
def anything() -> Any:
    """Returns whatever the test put there."""
    return returned.get("value")


tool_names = st.sampled_from(["add", "anything", "missing", "", "final_answer"]) | awkward_text
calls = st.builds(ToolCall, name=tool_names, arguments=st.dictionaries(awkward_text, json_values, max_size=4))
responses = st.builds(
    ModelResponse,
    content=st.none() | awkward_text | st.text(max_size=3000),
    tool_call=st.none() | calls,
    raw=st.just("") | awkward_text,
)
turns = st.one_of(responses, json_values, st.sampled_from([RuntimeError("down"), ValueError("bad"), KeyError("k")]))


class Script:
    name = "fuzz"

    def __init__(self, script: list[Any]) -> None:
        self.script = script

    async def complete(self, request: ModelRequest) -> Any:
        turn = self.script.pop(0) if self.script else ModelResponse(content="done")
        if isinstance(turn, BaseException):
            raise turn
        return turn


class Watched(Agent[None, str]):
    ends: ClassVar[list[str]] = []

    async def on_run_end(self, ctx: RunContext[None], result: Any) -> None:
        self.ends.append(result.status)


def run_once(script: list[Any], output: Any = None) -> None:
    Watched.ends.clear()
    events: list[Event] = []
    agent = Watched(Script(script), tools=[add, anything], max_steps=4, output_type=output)

    async def go() -> None:
        with contextlib.suppress(AgentcoreError):  # typed errors are a clean end; anything else fails the test
            await asyncio.wait_for(agent.run("add 2 and 3", on_event=events.append), 20)

    asyncio.run(go())
    assert Watched.ends and len(Watched.ends) == 1
    assert sum(isinstance(e, RunFinished) for e in events) == 1


@fuzz(150)
@given(st.lists(turns, min_size=1, max_size=6))
def test_any_model_return_ends_cleanly(script: list[Any]) -> None:
    count("loop.model_returns")
    run_once(script)


@fuzz(60)
@given(st.lists(turns, min_size=1, max_size=4))
def test_any_model_return_with_a_typed_output_ends_cleanly(script: list[Any]) -> None:
    count("loop.model_returns_typed_output")
    run_once(script, output=dict[str, int])


@fuzz(100)
@given(json_values | st.binary(max_size=40) | st.sets(st.integers(), max_size=3) | st.just(object()))
def test_any_tool_result_ends_cleanly(value: Any) -> None:
    count("loop.tool_results")
    returned["value"] = value
    run_once([ModelResponse(tool_call=ToolCall("anything", {})), ModelResponse(content="ok")])
