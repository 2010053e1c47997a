"""Loop hardening (issue "Hardening"): what a hostile newcomer broke in the run loop, each fixed and kept fixed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from pydantic import BaseModel

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.errors import ModelFailedError, RunCancelledError, UserError
from agentcore.messages import ModelRequest, ModelResponse, ToolCall, ToolSpec
from agentcore.policy import Policy, Veto
from agentcore.testing import FunctionModel, Heartbeat, ScriptedModel, call
from agentcore.tools.function import tool

ran: list[str] = []


@tool
def public(x: int) -> int:
    """A tool everyone may use."""
    ran.append("public")
    return x


@tool
def secret(x: int) -> int:
    """A tool a policy hides."""
    ran.append("secret")
    return x


def setup_function() -> None:
    ran.clear()


class Raw:
    """A custom backend with no tool-name check of its own: it returns whatever it is told."""

    name = "raw"

    def __init__(self, *turns: Any) -> None:
        self.turns = list(turns)

    async def complete(self, request: ModelRequest) -> Any:
        turn = self.turns.pop(0)
        if isinstance(turn, BaseException):
            raise turn
        if isinstance(turn, ToolCall):
            return ModelResponse(tool_call=turn)
        return ModelResponse(content=turn) if isinstance(turn, str) else turn


class HideSecret(Policy):
    def filter_tools(self, ctx: RunContext[Any], tools: Any) -> list[ToolSpec]:
        return [t for t in tools if t.name != "secret"]


async def test_a_hidden_tool_never_runs_even_when_a_custom_model_calls_it() -> None:
    agent = Agent(Raw(call("secret", x=1), "fine"), tools=[public, secret], policies=[HideSecret()])
    result = await agent.run("use secret")
    assert ran == [] and result.output == "fine"
    assert "not available" in result.messages[-2].content


class Rewrite(Agent[None, str]):
    async def after_model_call(self, ctx: RunContext[None], response: ModelResponse) -> ModelResponse:
        if response.tool_call is not None:
            return ModelResponse(tool_call=call("secret", x=2), usage=response.usage)
        return response


async def test_an_after_model_call_hook_cannot_run_a_hidden_tool() -> None:
    agent = Rewrite(ScriptedModel([call("public", x=1), "ok"]), tools=[public, secret], policies=[HideSecret()])
    result = await agent.run("go")
    assert ran == [] and result.ok


class VetoPublic(Policy):
    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> Veto | None:
        return Veto("not today") if call.name == "public" else None


async def test_a_repeated_vetoed_call_is_caught_as_a_repeat() -> None:
    model = FunctionModel(lambda r: call("public", x=1) if r.tools else "gave up")
    result = await Agent(model, tools=[public], policies=[VetoPublic()], max_steps=8).run("use public")
    assert result.output == "gave up"
    assert len(model.requests) == 3  # the call, its repeat, then a final-only turn
    assert model.requests[-1].tools == ()


class Pyd(BaseModel):
    x: int


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ({"content": "hi"}, "dict"),
        (None, "NoneType"),
        (Pyd(x=1), "Pyd"),
        (RuntimeError("backend down"), "RuntimeError: backend down"),
    ],
)
async def test_bad_model_returns_become_a_model_error_with_the_partial_run(bad: Any, match: str) -> None:
    ended: list[str] = []

    class Watch(Agent[None, str]):
        async def on_run_end(self, ctx: RunContext[None], result: Any) -> None:
            ended.append(result.status)

    with pytest.raises(ModelFailedError, match=match) as info:
        await Watch(Raw(bad)).run("hi")
    assert info.value.partial is not None and info.value.partial.status == "error"
    assert ended == ["error"]


async def test_a_cancel_event_set_before_the_run_cancels_it() -> None:
    cancel = asyncio.Event()
    cancel.set()
    model = ScriptedModel(["never"])
    with pytest.raises(RunCancelledError) as info:
        await Agent(model).run("hi", cancel=cancel)
    assert model.requests == [] and info.value.partial is not None


async def test_override_does_not_leak_into_concurrent_runs() -> None:
    own = ScriptedModel(["own"], delay=0.05)
    swapped = ScriptedModel(["swapped"], delay=0.05)
    agent = Agent(own)
    started = asyncio.Event()

    async def outside() -> Any:
        await started.wait()
        return await agent.run("hi")

    task = asyncio.create_task(outside())
    with agent.override(model=swapped):
        started.set()
        inside = await agent.run("hi")
    assert inside.output == "swapped" and (await task).output == "own"


async def test_time_of_failed_model_calls_is_booked_as_model_time() -> None:
    async def slow_fail(request: ModelRequest) -> str:
        await asyncio.sleep(0.2)
        raise RuntimeError("server error")

    with pytest.raises(ModelFailedError) as info:
        await Agent(FunctionModel(slow_fail)).run("hi")
    ledger = info.value.partial.ledger  # type: ignore[union-attr]
    assert ledger.model_seconds >= 0.19 and ledger.framework_seconds < 0.1


async def test_time_of_an_interrupted_tool_is_booked_as_tool_time() -> None:
    @tool
    async def slow() -> str:
        """Slow."""
        await asyncio.sleep(5)
        return "late"

    with pytest.raises(Exception, match="timed out") as info:
        await Agent(ScriptedModel([call("slow")]), tools=[slow]).run("go", timeout=0.3)
    ledger = info.value.partial.ledger  # type: ignore[attr-defined]
    assert ledger.tool_seconds >= 0.25 and ledger.framework_seconds < 0.1


@pytest.mark.parametrize("steps", [0, -3])
async def test_run_rejects_bad_max_steps(steps: int) -> None:
    with pytest.raises(UserError, match="max_steps"):
        await Agent(ScriptedModel(["x"])).run("hi", max_steps=steps)


async def test_run_rejects_a_negative_timeout() -> None:
    with pytest.raises(UserError, match="timeout"):
        await Agent(ScriptedModel(["x"])).run("hi", timeout=-1)


class CityInfo(BaseModel):
    name: str
    population: int


async def test_the_output_type_is_inferred_from_the_type_argument() -> None:
    answer = '{"name": "Paris", "population": 2100000}'

    class CityAgent(Agent[None, CityInfo]):
        pass

    result = await CityAgent(ScriptedModel([answer])).run("Paris?")
    assert isinstance(result.output, CityInfo) and result.output.population == 2100000
    direct = await Agent[None, CityInfo](ScriptedModel([answer])).run("Paris?")
    assert isinstance(direct.output, CityInfo)


def test_bytes_results_reach_the_model_as_text() -> None:
    assert prompting.format_result(b"hello") == "hello"
    assert prompting.format_result(b"\xff\xfe\x00") == "<3 bytes of binary data>"


async def test_system_exit_from_a_tool_is_a_tool_error() -> None:
    @tool
    def quit_now() -> str:
        """Exits."""
        raise SystemExit(3)

    result = await Agent(ScriptedModel([call("quit_now"), "survived"]), tools=[quit_now]).run("go")
    assert result.output == "survived"
    assert result.steps[0].tool_error and "sys.exit(3)" in (result.steps[0].result or "")


async def test_a_slow_sync_tool_does_not_freeze_concurrent_runs() -> None:
    @tool(timeout=0.2)
    def busy() -> str:
        """Blocks its thread."""
        time.sleep(0.5)
        return "done"

    async with Heartbeat(0.03) as beat:
        started = time.perf_counter()
        await Agent(ScriptedModel([call("busy"), "ok"]), tools=[busy]).run("go")
        took = time.perf_counter() - started
    assert beat.ticks >= int(took / 0.03) - 2  # the loop ticked all along
