"""How code observes and steers a run: Agent hooks, Policy middleware (order, rewritten calls, vetoes, wrapped
model turns, system blocks) and the typed events of `stream()` / `on_event`."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.events import Event, ModelCalled, RunFinished, RunStarted, ToolCalled
from agentcore.messages import ModelRequest, ModelResponse, ToolCall
from agentcore.policy import CallModel, Policy, Veto
from agentcore.result import RunResult
from agentcore.testing import FunctionModel, ScriptedModel, call
from agentcore.tools.function import tool

executed: list[dict[str, int]] = []


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    executed.append({"a": a, "b": b})
    return a + b


@tool
def explode() -> str:
    """Always fails."""
    raise RuntimeError("no")


class Recorder(Agent[None, str]):
    """Every hook appends its name (and what it saw) to `log`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[str] = []

    async def on_run_start(self, ctx: RunContext[None]) -> None:
        self.log.append(f"agent.on_run_start:{ctx.task}")

    async def before_model_call(self, ctx: RunContext[None], request: ModelRequest) -> ModelRequest:
        self.log.append(f"agent.before_model_call:{ctx.step}")
        return request

    async def after_model_call(self, ctx: RunContext[None], response: ModelResponse) -> ModelResponse:
        self.log.append(f"agent.after_model_call:{ctx.step}")
        return response

    async def before_tool_call(self, ctx: RunContext[None], call: ToolCall) -> ToolCall | Veto | None:
        self.log.append(f"agent.before_tool_call:{call.name}")
        return None

    async def after_tool_call(self, ctx: RunContext[None], call: ToolCall, result: str, error: bool) -> None:
        self.log.append(f"agent.after_tool_call:{call.name}={result}:{error}")

    async def on_run_end(self, ctx: RunContext[None], result: RunResult[str]) -> None:
        self.log.append(f"agent.on_run_end:{result.status}")


class Tracing(Policy):
    """A policy that records its hooks into a shared log."""

    def __init__(self, log: list[str], name: str = "policy") -> None:
        self.log, self.name = log, name

    async def on_run_start(self, ctx: RunContext[Any]) -> None:
        self.log.append(f"{self.name}.on_run_start")

    def system_blocks(self, ctx: RunContext[Any]) -> list[str]:
        self.log.append(f"{self.name}.system_blocks")
        return [f"Advice from {self.name}: check your arithmetic."]

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        self.log.append(f"{self.name}.wrap_in")
        response = await call_next(request)
        self.log.append(f"{self.name}.wrap_out")
        return response

    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto | None:
        self.log.append(f"{self.name}.before_tool_call")
        return None

    async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        self.log.append(f"{self.name}.after_tool_call")

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        self.log.append(f"{self.name}.on_run_end:{result.status}")


def setup_function() -> None:
    executed.clear()


async def test_agent_hooks_are_called_in_order() -> None:
    agent = Recorder(ScriptedModel([call("add", a=1, b=2), "3"]), tools=[add])
    await agent.run("1+2")
    assert agent.log == [
        "agent.on_run_start:1+2",
        "agent.before_model_call:1",
        "agent.after_model_call:1",
        "agent.before_tool_call:add",
        "agent.after_tool_call:add=3:False",
        "agent.before_model_call:2",
        "agent.after_model_call:2",
        "agent.on_run_end:completed",
    ]


async def test_policies_run_before_the_agent_hooks_and_wrap_the_model() -> None:
    agent = Recorder(ScriptedModel([call("explode"), "sorry"]), tools=[explode])
    agent.policies = [Tracing(agent.log, "outer"), Tracing(agent.log, "inner")]
    await agent.run("go")
    assert agent.log == [
        "outer.on_run_start",
        "inner.on_run_start",
        "agent.on_run_start:go",
        "outer.system_blocks",
        "inner.system_blocks",
        "outer.wrap_in",
        "inner.wrap_in",
        "agent.before_model_call:1",
        "agent.after_model_call:1",
        "inner.wrap_out",
        "outer.wrap_out",
        "outer.before_tool_call",
        "inner.before_tool_call",
        "agent.before_tool_call:explode",
        "outer.after_tool_call",
        "inner.after_tool_call",
        "agent.after_tool_call:explode=RuntimeError: no:True",
        "outer.wrap_in",
        "inner.wrap_in",
        "agent.before_model_call:2",
        "agent.after_model_call:2",
        "inner.wrap_out",
        "outer.wrap_out",
        "outer.on_run_end:completed",
        "inner.on_run_end:completed",
        "agent.on_run_end:completed",
    ]


async def test_model_hooks_can_rewrite_request_and_response() -> None:
    class Rewriting(Agent[None, str]):
        async def before_model_call(self, ctx: RunContext[None], request: ModelRequest) -> ModelRequest:
            return replace(request, max_tokens=7)

        async def after_model_call(self, ctx: RunContext[None], response: ModelResponse) -> ModelResponse:
            return replace(response, content=(response.content or "").upper())

    model = ScriptedModel(["quiet"])
    result = await Rewriting(model).run("x")
    assert model.requests[0].max_tokens == 7 and result.output == "QUIET"


async def test_before_tool_call_can_rewrite_the_call() -> None:
    class Clamp(Agent[None, str]):
        async def before_tool_call(self, ctx: RunContext[None], call: ToolCall) -> ToolCall | Veto | None:
            return ToolCall(call.name, {**call.arguments, "a": min(int(call.arguments["a"]), 10)})

    model = ScriptedModel([call("add", a=500, b=1), "11"])
    result = await Clamp(model, tools=[add]).run("500+1")
    assert executed == [{"a": 10, "b": 1}]
    assert result.steps[0].call == ToolCall("add", {"a": 10, "b": 1}) and result.steps[0].result == "11"
    assert model.requests[1].messages[-1] == prompting.observation("500+1", ToolCall("add", {"a": 10, "b": 1}), "11")


class Deny(Policy):
    def __init__(self, reason: str, stop: bool = False) -> None:
        self.reason, self.stop = reason, stop

    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto | None:
        return Veto(self.reason, stop=self.stop)


async def test_veto_skips_the_call_and_shows_the_reason() -> None:
    model = ScriptedModel([call("add", a=1, b=2), "cannot"])
    agent = Recorder(model, tools=[add], policies=[Deny("adding is not allowed here")])
    result = await agent.run("1+2")
    assert executed == [] and result.output == "cannot" and result.status == "completed"
    assert model.requests[1].messages[-1] == prompting.retry_message("1+2", "Calling add", "adding is not allowed here")
    assert "agent.before_tool_call:add" not in agent.log  # the first veto wins
    assert not any(entry.startswith("agent.after_tool_call") for entry in agent.log)
    vetoes = [t for t in result.trace if t["kind"] == "notice" and "vetoed" in t["message"]]
    assert len(vetoes) == 1 and "adding is not allowed here" in vetoes[0]["message"]


async def test_veto_with_stop_ends_the_run_blocked() -> None:
    model = ScriptedModel([call("add", a=1, b=2)])
    agent = Recorder(model, tools=[add], policies=[Deny("dangerous", stop=True)])
    result = await agent.run("1+2")
    model.assert_complete()
    assert (result.status, result.error, result.output, result.ok) == ("blocked", "dangerous", None, False)
    assert executed == [] and agent.log[-1] == "agent.on_run_end:blocked"


async def test_agent_veto_hook_also_blocks() -> None:
    class Careful(Agent[None, str]):
        async def before_tool_call(self, ctx: RunContext[None], call: ToolCall) -> ToolCall | Veto | None:
            return Veto(f"never on step {ctx.step}", stop=True)

    result = await Careful(ScriptedModel([call("add", a=1, b=1)]), tools=[add]).run("1+1")
    assert (result.status, result.error) == ("blocked", "never on step 1")


async def test_wrap_model_turn_can_replace_the_response() -> None:
    class Canned(Policy):
        async def wrap_model_turn(
            self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel
        ) -> ModelResponse:
            if ctx.step == 1:
                return ModelResponse(tool_call=ToolCall("add", {"a": 20, "b": 22}))
            return await call_next(request)

    model = ScriptedModel(["42"])  # only the second turn reaches the model
    result = await Agent(model, tools=[add], policies=[Canned()]).run("add 20 and 22")
    model.assert_complete()
    assert result.output == "42" and executed == [{"a": 20, "b": 22}]
    assert len(result.steps) == 2 and result.usage.calls == 1


async def test_wrap_model_turn_sees_and_can_change_the_request() -> None:
    class NoTools(Policy):
        async def wrap_model_turn(
            self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel
        ) -> ModelResponse:
            return await call_next(replace(request, tools=()))

    model = FunctionModel(lambda request: f"tools: {len(request.tools)}")
    result = await Agent(model, tools=[add], policies=[NoTools()]).run("x")
    assert result.output == "tools: 0"


async def test_system_blocks_land_in_the_system_prompt_once_per_run() -> None:
    log: list[str] = []
    model = ScriptedModel([call("add", a=1, b=1), "2"])
    await Agent(model, tools=[add], instructions="Be brief.", policies=[Tracing(log, "advisor")]).run("1+1")
    system = model.requests[0].messages[0].content
    assert system.startswith("Be brief.") and system.endswith("Advice from advisor: check your arithmetic.")
    assert model.requests[1].messages[0].content == system
    assert log.count("advisor.system_blocks") == 1


async def test_hooks_share_the_run_context() -> None:
    seen: list[tuple[str, int]] = []

    class Notes(Policy):
        async def on_run_start(self, ctx: RunContext[Any]) -> None:
            ctx.metadata["note"] = "kept"

        async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
            seen.append((ctx.metadata["note"], ctx.usage.calls))
            ctx.record("policy", verdict="fine")

    result = await Agent(ScriptedModel([call("add", a=1, b=1), "2"]), tools=[add], policies=[Notes()]).run("1+1")
    assert seen == [("kept", 1)]
    assert {"kind": "policy", "step": 1, "verdict": "fine"} in result.trace


# --- events -------------------------------------------------------------------------------------------------


async def test_stream_yields_typed_events_in_order() -> None:
    agent = Agent(ScriptedModel([call("add", a=2, b=2), "4"]), tools=[add])
    events = [event async for event in agent.stream("2+2")]
    kinds = [e.kind for e in events]
    assert kinds == ["RunStarted", "ModelCalled", "ToolStarted", "ToolCalled", "ModelCalled", "RunFinished"]
    assert len({e.run_id for e in events}) == 1
    started, called, _, tool_event, _, finished = events
    assert isinstance(started, RunStarted) and started.task == "2+2" and started.model == "scripted"
    assert isinstance(called, ModelCalled) and called.tool_call == ToolCall("add", {"a": 2, "b": 2})
    assert isinstance(tool_event, ToolCalled)
    assert (tool_event.result, tool_event.error, tool_event.step) == ("4", False, 1)
    assert isinstance(finished, RunFinished) and (finished.status, finished.output) == ("completed", "4")
    assert finished.usage.calls == 2 and finished.fields()["run_id"] == started.run_id


async def test_stream_ends_with_run_finished_on_timeout() -> None:
    agent = Agent(ScriptedModel(["never"], delay=1), timeout=0.05)
    events = [event async for event in agent.stream("wait")]
    assert isinstance(events[-1], RunFinished) and events[-1].status == "timeout"


async def test_breaking_out_of_a_stream_stops_the_run() -> None:
    async def slow(request: ModelRequest) -> ToolCall:
        await asyncio.sleep(0.02)
        return call("add", a=len(request.messages), b=1)

    model = FunctionModel(slow)
    async for event in Agent(model, tools=[add], max_steps=50).stream("loop"):
        assert isinstance(event, RunStarted)
        break
    await asyncio.sleep(0.15)  # a run left going would make a model call every 20 ms
    assert len(model.requests) <= 1


async def test_stream_raises_an_error_that_ended_the_run() -> None:
    def broken(request: ModelRequest) -> str:
        raise RuntimeError("backend down")

    seen: list[Event] = []
    async for event in Agent(FunctionModel(broken)).stream("hi"):
        seen.append(event)
    assert [e.kind for e in seen] == ["RunStarted", "RunFinished"]  # the run ends properly, whatever broke it
    finished = seen[-1]
    assert isinstance(finished, RunFinished) and finished.status == "error" and "backend down" in (finished.error or "")


async def test_stream_raises_an_error_that_stopped_the_run_before_it_started() -> None:
    with pytest.raises(UserError, match="empty"):
        async for _ in Agent(ScriptedModel([])).stream("  "):
            pass


async def test_on_event_receives_the_same_events() -> None:
    events: list[Event] = []
    result = await Agent(ScriptedModel(["hi"])).run("hello", on_event=events.append)
    assert [e.kind for e in events] == ["RunStarted", "ModelCalled", "RunFinished"]
    assert {e.run_id for e in events} == {result.run_id}
