"""The core contract for composition (issue "Core contract"): typed messages with one renderer, model choice
inside the policy chain, conversations and sessions, nested runs with parent ids and events, toolset lifecycle,
models resolved off the event loop, per-tool retry counters, and no agent/loop import circle."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.codec import message_from_dict, message_to_dict
from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.events import Event, ModelCalled, Notice, RunFinished, RunStarted, ToolCalled, ToolStarted
from agentcore.messages import Message, ModelRequest, ModelResponse, ObservationPart, SystemPart, ToolCall
from agentcore.policies.context import TrimConfig, trim_observations
from agentcore.policies.conversation import ConversationWindow
from agentcore.policies.routing import RoutingPolicy
from agentcore.policy import CallModel, Policy
from agentcore.sessions import InMemorySession, SQLiteSession
from agentcore.testing import FunctionModel, Heartbeat, ScriptedModel, call
from agentcore.tools.function import tool


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


# -- 1. typed messages, one renderer -----------------------------------------------------------------------


async def test_loop_messages_carry_kinds_and_fields() -> None:
    model = ScriptedModel([call("mul", a=6, b=7), "42"])
    result = await Agent(model, tools=[mul]).run("What is 6 * 7?")
    kinds = [m.kind for m in result.messages]
    assert kinds == ["system", "task", "call", "observation", "final"]
    system = result.messages[0].part
    assert isinstance(system, SystemPart)
    assert [s.kind for s in system.sections] == ["instructions", "rules", "tools"]
    obs = result.messages[3].part
    assert isinstance(obs, ObservationPart) and obs.result == "42" and obs.call == call("mul", a=6, b=7)
    assert all(prompting.text_of(m.part) == m.content for m in result.messages if m.part is not None)


async def test_rendered_prefix_is_identical_from_step_to_step() -> None:
    model = ScriptedModel([call("mul", a=2, b=3), call("mul", a=6, b=7), "done"])
    await Agent(model, tools=[mul]).run("Multiply 2 by 3, then multiply 6 by 7.")
    texts = [[m.content for m in r.messages] for r in model.requests]
    for earlier, later in itertools.pairwise(texts):
        assert later[: len(earlier)] == earlier  # append-only, byte for byte: the KV prefix stays cached


def _reworded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change the wording of observations: policies that parsed the text would break."""
    original = prompting._observation_text
    monkeypatch.setattr(
        prompting, "_observation_text", lambda part: "OBS>> " + original(part).replace("Done:", "Finished:")
    )


async def test_context_trimming_edits_fields_whatever_the_wording(monkeypatch: pytest.MonkeyPatch) -> None:
    _reworded(monkeypatch)
    messages = [prompting.system_message("Be brief.", ()), prompting.task_message("t")]
    for i in range(6):
        c = ToolCall("read", {"i": i})
        messages += [prompting.assistant_turn(c, None), prompting.observation("t", c, f"result {i} " + "x" * 200)]
    trimmed = trim_observations(messages, TrimConfig(keep_last=2, block=3))
    shortened = [m for m in trimmed if "[older result, shortened]" in m.content]
    assert len(shortened) == 3
    assert all(m.content.startswith("OBS>> ") and "Finished:" not in m.content for m in shortened)


def test_messages_round_trip_through_the_codec() -> None:
    c = ToolCall("mul", {"a": 1})
    for message in (
        prompting.system_message("Hi", [mul.spec()], ["Advice: x"]),
        prompting.task_message("t"),
        prompting.assistant_turn(c, None, raw='{"tool":"mul"}'),
        prompting.observation("t", c, "1", error=True),
        prompting.retry_message("t", "Calling mul", "bad"),
        prompting.repeated_call_notice("t", c, "1", "2"),
        Message("user", "plain"),
    ):
        back = message_from_dict(message_to_dict(message))
        assert back.content == message.content and back.part == message.part


def test_a_damaged_stored_message_is_a_clear_error() -> None:
    with pytest.raises(UserError, match="damaged"):
        message_from_dict({"role": "user", "content": "x", "part": {"kind": "observation"}})
    with pytest.raises(UserError, match="role"):
        message_from_dict({"content": "x"})


# -- 2. model choice inside the chain ---------------------------------------------------------------------


class Recorder(Policy):
    def __init__(self) -> None:
        self.seen: list[ModelRequest] = []

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        self.seen.append(request)
        return await call_next(request)


async def test_a_tier_choice_keeps_every_later_policy_in_the_chain() -> None:
    main = ScriptedModel([])  # must never be called: the tier model answers
    tier = ScriptedModel([call("mul", a=6, b=7), "42"], name="tier")
    recorder = Recorder()
    routing = RoutingPolicy(tiers={"small": tier, "medium": tier, "large": tier})
    result = await Agent(main, tools=[mul], policies=[routing, recorder]).run("What is 6 * 7?")
    assert result.output == "42"
    assert len(recorder.seen) == 2 and all(r.model is tier for r in recorder.seen)
    assert main.requests == [] and len(tier.requests) == 2


# -- 3. conversations -------------------------------------------------------------------------------------


async def test_history_continues_a_conversation_with_a_cached_prefix() -> None:
    model = ScriptedModel(["Paris", "About 2.1 million"])
    agent = Agent(model)
    first = await agent.run("What is the capital of France?")
    second = await agent.run("How many people live there?", history=first.messages)
    assert second.output == "About 2.1 million"
    turn1 = [m.content for m in model.requests[0].messages]
    turn2 = [m.content for m in model.requests[1].messages]
    assert turn2[: len(turn1)] == turn1  # turn 2 extends turn 1's prompt: the KV prefix is reused
    assert "Paris" in turn2[len(turn1)]
    assert [m.kind for m in second.messages] == ["system", "task", "final", "task", "final"]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_sessions_keep_the_conversation(kind: str, tmp_path: Path) -> None:
    def make() -> Any:
        return InMemorySession("s1") if kind == "memory" else SQLiteSession("s1", tmp_path / "chat.db")

    session = make()
    model = ScriptedModel(["Paris", "It is in France", "Yes"])
    agent = Agent(model)
    await agent.run("Capital of France?", session=session)
    await agent.run("Where is it?", session=session if kind == "memory" else make())  # a new handle: from disk
    stored = await (session if kind == "memory" else make()).messages()
    assert [m.kind for m in stored] == ["task", "final", "task", "final"]
    third = await agent.run("Sure?", session=session)
    assert "Capital of France?" in third.messages[1].content and third.output == "Yes"
    if kind == "sqlite":
        other = SQLiteSession("s2", tmp_path / "chat.db")
        assert await other.messages() == []


async def test_a_failed_turn_leaves_the_session_unchanged(tmp_path: Path) -> None:
    session = SQLiteSession("s", tmp_path / "chat.db")
    await Agent(ScriptedModel(["hi"])).run("hello", session=session)
    with pytest.raises(Exception, match="max_steps"):
        await Agent(ScriptedModel([call("mul", a=1, b=2)]), tools=[mul], max_steps=1).run("x", session=session)
    assert len(await session.messages()) == 2


async def test_a_corrupt_session_store_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "chat.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UserError, match="not a usable SQLite database"):
        await SQLiteSession("s", path).messages()


async def test_history_and_session_together_are_refused() -> None:
    with pytest.raises(UserError, match="not both"):
        await Agent(ScriptedModel([])).run("x", history=[], session=InMemorySession())


async def test_a_long_conversation_is_trimmed_never_overflows() -> None:
    budget = 400

    def answer(request: ModelRequest) -> str:
        size = sum(len(m.content) // 3 + 6 for m in request.messages)
        assert size <= budget, f"prompt of {size} tokens sent past the window"
        return "ok " + "y" * 200

    model = FunctionModel(answer)
    model.n_ctx = budget + 256 + 64  # type: ignore[attr-defined]  # a context window: the window policy reads it
    agent = Agent(model)
    history: list[Message] = []
    for i in range(12):
        result = await agent.run(f"question {i} " + "z" * 100, history=history)
        history = result.messages
    assert result.ok
    # the window policy is added for conversations; with an explicit budget it can be used directly too
    window = ConversationWindow(budget=budget, count_tokens=lambda t: len(t) // 3)
    ctx: RunContext[None] = RunContext(None, "r", "t")
    seen: list[int] = []

    async def sink(req: ModelRequest) -> ModelResponse:
        seen.append(len(req.messages))
        return ModelResponse(content="x")

    await window.wrap_model_turn(ctx, ModelRequest(tuple(history)), sink)
    assert seen[0] < len(history) and ctx.trace[-1]["kind"] == "conversation_window"


# -- 4. nested runs and events ----------------------------------------------------------------------------


async def test_agent_as_tool_runs_a_child_with_parentage_and_usage_roll_up() -> None:
    child_model = ScriptedModel(["Paris"], name="child")
    child = Agent(child_model, name="Geo")
    parent_model = ScriptedModel([call("geo", task="capital of France?"), "The capital is Paris"], name="parent")
    events: list[Event] = []
    from agentcore.events import add_sink, remove_sink

    add_sink(events.append)
    try:
        result = await Agent(parent_model, tools=[child.as_tool("geo", "Ask the geography agent")]).run("Capital?")
    finally:
        remove_sink(events.append)
    assert result.output == "The capital is Paris"
    starts = [e for e in events if isinstance(e, RunStarted)]
    assert len(starts) == 2
    parent_start, child_start = starts
    assert child_start.parent_run_id == parent_start.run_id == result.run_id
    assert child_start.trace_id == parent_start.trace_id == result.trace_id
    assert result.usage.calls == 3  # two parent turns + the child's one
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ToolStarted") < kinds.index("RunStarted", 1) < kinds.index("ToolCalled")


async def test_events_carry_start_times_and_a_tool_start() -> None:
    events: list[Event] = []
    before = time.time()
    await Agent(ScriptedModel([call("mul", a=2, b=3), "6"]), tools=[mul]).run("2*3?", on_event=events.append)
    assert all(before <= e.at <= time.time() for e in events)
    started = next(e for e in events if isinstance(e, ToolStarted))
    called = next(e for e in events if isinstance(e, ToolCalled))
    model = next(e for e in events if isinstance(e, ModelCalled))
    assert started.at == called.at and model.model == "scripted"


class RaisingHooks(Agent[None, str]):
    ended: ClassVar[list[str]] = []

    async def before_tool_call(self, ctx: RunContext[None], call: ToolCall) -> None:
        raise KeyError("hook bug")

    async def on_run_end(self, ctx: RunContext[None], result: Any) -> None:
        self.ended.append(result.status)


async def test_run_finished_and_on_run_end_happen_when_a_hook_raises() -> None:
    events: list[Event] = []
    agent = RaisingHooks(ScriptedModel([call("mul", a=1, b=2)]), tools=[mul])
    with pytest.raises(KeyError, match="hook bug"):
        await agent.run("1*2?", on_event=events.append)
    assert agent.ended == ["error"]
    finished = [e for e in events if isinstance(e, RunFinished)]
    assert len(finished) == 1 and finished[0].status == "error" and "hook bug" in (finished[0].error or "")


async def test_decomposer_subtask_runs_have_a_parent() -> None:
    from agentcore.events import add_sink, remove_sink
    from agentcore.teams.decompose import Decomposer, single_node_dag

    events: list[Event] = []
    add_sink(events.append)
    try:
        out = await Decomposer(ScriptedModel([])).run(
            "say hi", lambda sub: Agent(ScriptedModel(["hi"])), plan=single_node_dag("say hi")
        )
    finally:
        remove_sink(events.append)
    runs = [e for e in events if isinstance(e, RunStarted)]
    assert runs and all(r.parent_run_id == out.run_id and r.trace_id == out.trace_id for r in runs)


# -- 5. models off the event loop -------------------------------------------------------------------------


async def test_model_loading_runs_off_the_event_loop_and_under_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentcore.models import loader

    def slow_load(spec: Any, progress: Any, *_: Any) -> Any:
        progress(f"pulling {spec}")
        time.sleep(0.6)  # a pull or a load: blocking work
        return ScriptedModel(["ok"])

    monkeypatch.setattr(loader, "_load", slow_load)
    events: list[Event] = []
    async with Heartbeat(0.05) as beat:
        with pytest.raises(Exception, match="timed out"):
            await Agent("some-model").run("hi", timeout=0.2)
        result = await Agent("some-model").run("hi", on_event=events.append)
    assert result.output == "ok"
    assert any(isinstance(e, Notice) and e.message == "pulling some-model" for e in events)  # progress, as events
    assert beat.ticks >= 8  # the loop kept ticking during both loads


# -- 6. hooks from one place, no import circle ------------------------------------------------------------


def test_the_loop_does_not_import_the_agent() -> None:
    code = "import sys, agentcore.loop; print('agentcore.agent' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


class Ordered(Agent[None, str]):
    order: ClassVar[list[str]] = []

    async def before_model_call(self, ctx: RunContext[None], request: ModelRequest) -> ModelRequest:
        self.order.append("agent")
        return request


class Outer(Policy):
    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        Ordered.order.append("policy")
        return await call_next(replace(request, max_tokens=7))


async def test_policies_run_before_the_agents_own_hooks() -> None:
    model = ScriptedModel(["x"])
    await Ordered(model, policies=[Outer()]).run("hi")
    assert Ordered.order == ["policy", "agent"] and model.requests[0].max_tokens == 7


# -- 7. retry counters ------------------------------------------------------------------------------------


async def test_a_tool_named_output_has_its_own_retry_counter() -> None:
    runs = 0

    @tool(name="output", max_retries=0)
    def output(n: int) -> int:
        """Echo."""
        nonlocal runs
        runs += 1
        return n

    model = ScriptedModel([call("output", n="not a number"), "gave up"])
    result = await Agent(model, tools=[output]).run("use output")
    assert result.status == "error" and "failed 1 times" in (result.error or "")
    assert len(model.requests) == 1 and runs == 0


# -- toolset lifecycle ------------------------------------------------------------------------------------


class Connected:
    """A toolset that must be connected before use (as an MCP server is)."""

    def __init__(self) -> None:
        self.opened = self.closed = 0
        self.is_open = False

    async def __aenter__(self) -> Connected:
        self.opened += 1
        self.is_open = True
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.closed += 1
        self.is_open = False

    async def list_tools(self) -> list[Any]:
        assert self.is_open, "listed before connect"
        return [mul.spec()]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        assert self.is_open
        await asyncio.sleep(0.01)  # a network round trip: the two runs overlap
        return arguments["a"] * arguments["b"]

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return 5.0, 1


async def test_a_toolset_context_manager_is_entered_per_run_or_once_by_the_user() -> None:
    toolset = Connected()
    agent = Agent(FunctionModel(lambda r: call("mul", a=2, b=3) if len(r.messages) == 2 else "6"), tools=toolset)
    await asyncio.gather(agent.run("2*3?"), agent.run("2*3 again?"))
    assert (toolset.opened, toolset.closed) == (1, 1)  # concurrent runs share one connection
    async with toolset:
        await agent.run("2*3?")
        await agent.run("2*3?")
    assert (toolset.opened, toolset.closed) == (2, 2)  # the user's own scope: the runs did not reopen it
