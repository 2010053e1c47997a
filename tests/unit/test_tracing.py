"""OpenTelemetry export (`agentcore.tracing`): the span tree, its attributes and times, on synthetic events and on a
real parent/child run with scripted models."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from agentcore import events, tracing
from agentcore.agent import Agent
from agentcore.errors import UserError
from agentcore.events import ModelCalled, Notice, RunFinished, RunStarted, ToolCalled, ToolStarted
from agentcore.messages import ToolCall, Usage
from agentcore.testing import ScriptedModel, call
from agentcore.tracing import MAX_ATTRIBUTE_CHARS, TracingSink, instrument

ROOT = Path(__file__).resolve().parents[2]
S = 1_000_000_000  # ns per second


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider


@pytest.fixture(autouse=True)
def _uninstrumented() -> Iterator[None]:
    yield
    if tracing._active is not None:
        tracing._active.uninstrument()


def by_name(spans: tuple[ReadableSpan, ...]) -> dict[str, ReadableSpan]:
    named = {span.name: span for span in spans}
    assert len(named) == len(spans), f"span names are not unique: {[s.name for s in spans]}"
    return named


def parent_of(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent is not None else None


def span_id(span: ReadableSpan) -> int:
    assert span.context is not None
    return int(span.context.span_id)


def trace_ids(spans: tuple[ReadableSpan, ...]) -> set[int]:
    return {span.context.trace_id for span in spans if span.context is not None}


ASK = ToolCall("ask_child", {"task": "What is the capital of France?"})


def parent_and_child_events() -> list[events.Event]:
    """A parent run that calls a child agent as a tool; times are exact binary fractions."""
    return [
        RunStarted("p1", 0, "Ask the child.", "main-model", agent="planner", trace_id="t" * 32, at=100.0),
        ModelCalled("p1", 1, Usage(50, 10, 5, 1), 0.5, ASK, None, model="main-model", at=100.125),
        ToolStarted("p1", 1, ASK, at=100.75),
        RunStarted("c1", 0, ASK.arguments["task"], "small-model", agent="geo", parent_run_id="p1", at=100.875),
        ModelCalled("c1", 1, Usage(20, 0, 3, 1), 0.25, None, "Paris", model="small-model", at=101.0),
        RunFinished("c1", 1, "completed", "Paris", Usage(20, 0, 3, 1), 0.5, at=101.375),
        ToolCalled("p1", 1, ASK, "Paris", 0.75, at=100.75),
        Notice("p1", 1, "answer checked", {"ok": True}, at=101.5),
        ModelCalled("p1", 2, Usage(80, 60, 4, 1), 0.25, None, "Paris", at=101.625),
        RunFinished("p1", 2, "completed", "Paris", Usage(150, 70, 12, 3), 2.0, at=102.0),
    ]


# --- (a) synthetic events fed straight to the sink ----------------------------------------------------------


def test_synthetic_parent_and_child_run_make_one_trace_with_the_exact_tree(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    sink = TracingSink(provider)
    for event in parent_and_child_events():
        sink(event)
    assert sink.open_runs == 0
    spans = exporter.get_finished_spans()
    assert sorted(s.name for s in spans) == [
        "chat main-model",
        "chat main-model",
        "chat small-model",
        "execute_tool ask_child",
        "invoke_agent geo",
        "invoke_agent planner",
    ]
    chats = sorted((s for s in spans if s.name == "chat main-model"), key=lambda s: s.start_time or 0)
    named = by_name(tuple(s for s in spans if s not in chats))
    run, tool, child, child_chat = (
        named[name]
        for name in ("invoke_agent planner", "execute_tool ask_child", "invoke_agent geo", "chat small-model")
    )
    assert len(trace_ids(spans)) == 1
    assert parent_of(run) is None
    assert [parent_of(s) for s in chats] == [span_id(run)] * 2
    assert parent_of(tool) == span_id(run)
    assert parent_of(child) == span_id(tool)  # the child run nests under the tool call that ran it
    assert parent_of(child_chat) == span_id(child)

    timings = [(s.start_time, s.end_time) for s in [run, *chats, tool, child, child_chat]]
    assert timings == [
        (100 * S, 102 * S),  # the run: RunStarted.at to RunFinished.at
        (100_125_000_000, 100_625_000_000),  # model calls: at to at + seconds
        (101_625_000_000, 101_875_000_000),
        (100_750_000_000, 101_500_000_000),  # the tool call: ToolStarted.at to ToolCalled.at + seconds
        (100_875_000_000, 101_375_000_000),  # the child run, inside the tool call
        (101 * S, 101_250_000_000),
    ]


def test_synthetic_spans_carry_the_gen_ai_attributes(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    sink = TracingSink(provider)
    for event in parent_and_child_events():
        sink(event)
    named = by_name(tuple(s for s in exporter.get_finished_spans() if s.start_time != 101_625_000_000))
    assert dict(named["invoke_agent planner"].attributes or {}) == {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "planner",
        "gen_ai.request.model": "main-model",
        "agentcore.run_id": "p1",
        "agentcore.trace_id": "t" * 32,
        "agentcore.status": "completed",
        "gen_ai.usage.input_tokens": 150,
        "gen_ai.usage.output_tokens": 12,
        "agentcore.cached_tokens": 70,
        "agentcore.model_calls": 3,
    }
    assert dict(named["invoke_agent geo"].attributes or {})["agentcore.parent_run_id"] == "p1"
    assert dict(named["chat main-model"].attributes or {}) == {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "main-model",
        "gen_ai.usage.input_tokens": 50,
        "gen_ai.usage.output_tokens": 5,
        "agentcore.cached_tokens": 10,
        "agentcore.run_id": "p1",
        "agentcore.step": 1,
        "agentcore.tool_call": "ask_child",
    }
    assert dict(named["execute_tool ask_child"].attributes or {}) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "ask_child",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.arguments": '{"task": "What is the capital of France?"}',
        "agentcore.run_id": "p1",
        "agentcore.step": 1,
    }
    kinds = {name: span.kind for name, span in named.items()}
    assert kinds["chat main-model"] == SpanKind.CLIENT and kinds["execute_tool ask_child"] == SpanKind.INTERNAL
    assert all(span.status.status_code == StatusCode.UNSET for span in named.values())
    (notice,) = named["invoke_agent planner"].events
    assert (notice.name, notice.timestamp) == ("agentcore.notice", 101_500_000_000)
    assert dict(notice.attributes or {}) == {"message": "answer checked", "agentcore.step": 1, "data": '{"ok": true}'}


def test_a_model_call_without_a_model_name_uses_the_runs_model(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    sink = TracingSink(provider)
    sink(RunStarted("r", 0, "task", "qwen", at=10.0))
    sink(ModelCalled("r", 1, Usage(1, 0, 1, 1), 0.5, None, "hi", at=10.0))
    sink(RunFinished("r", 1, "completed", "hi", Usage(1, 0, 1, 1), 1.0, at=10.0))  # `at` = the run's start
    named = by_name(exporter.get_finished_spans())
    assert set(named) == {"invoke_agent agent", "chat qwen"}
    assert named["invoke_agent agent"].end_time == 11 * S


def test_tool_errors_and_failed_runs_set_error_status(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    sink = TracingSink(provider)
    bad = ToolCall("divide", {"a": 1, "b": 0})
    sink(RunStarted("r", 0, "task", "m", at=1.0))
    sink(ToolStarted("r", 1, bad, at=1.5))
    sink(ToolCalled("r", 1, bad, "ZeroDivisionError: division by zero", 0.25, error=True, at=1.5))
    sink(RunFinished("r", 1, "max_steps", None, Usage(), 1.0, error="the run hit max_steps=1", at=2.0))
    named = by_name(exporter.get_finished_spans())
    tool, run = named["execute_tool divide"], named["invoke_agent agent"]
    assert tool.status.status_code == StatusCode.ERROR
    assert tool.status.description == "ZeroDivisionError: division by zero"
    assert (tool.attributes or {})["error.type"] == "tool_error"
    assert (run.status.status_code, run.status.description) == (StatusCode.ERROR, "the run hit max_steps=1")
    assert dict(run.attributes or {})["agentcore.status"] == "max_steps"
    assert dict(run.attributes or {})["error.type"] == "max_steps"


def test_a_tool_still_open_at_run_end_is_ended_with_the_run(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    sink = TracingSink(provider)
    sink(RunStarted("r", 0, "task", "m", at=1.0))
    sink(ToolStarted("r", 1, ToolCall("slow", {}), at=1.25))
    sink(RunFinished("r", 1, "cancelled", None, Usage(), 1.0, error="run cancelled", at=2.0))
    named = by_name(exporter.get_finished_spans())
    assert named["execute_tool slow"].end_time == 2 * S
    assert named["execute_tool slow"].status.status_code == StatusCode.ERROR
    assert sink.open_runs == 0


def test_tool_arguments_are_truncated(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    sink = TracingSink(provider)
    long_call = ToolCall("write", {"text": "x" * 5000})
    sink(RunStarted("r", 0, "task", "m", at=1.0))
    sink(ToolCalled("r", 1, long_call, "ok", 0.5, at=1.0))  # no ToolStarted: the span is made from ToolCalled
    sink(RunFinished("r", 1, "completed", "ok", Usage(), 1.0, at=2.0))
    arguments = (by_name(exporter.get_finished_spans())["execute_tool write"].attributes or {})[
        "gen_ai.tool.call.arguments"
    ]
    assert isinstance(arguments, str) and len(arguments) == MAX_ATTRIBUTE_CHARS
    assert arguments.startswith('{"text": "xxx') and arguments.endswith("…")


def test_interleaved_concurrent_runs_stay_apart(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    sink = TracingSink(provider)
    sink(RunStarted("a", 0, "task a", "m", agent="a", at=1.0))
    sink(RunStarted("b", 0, "task b", "m", agent="b", at=1.0))
    sink(ToolStarted("a", 1, ToolCall("ta", {}), at=1.25))
    sink(ToolStarted("b", 1, ToolCall("tb", {}), at=1.25))
    sink(ToolCalled("b", 1, ToolCall("tb", {}), "", 0.25, at=1.25))
    sink(ToolCalled("a", 1, ToolCall("ta", {}), "", 0.5, at=1.25))
    sink(RunFinished("b", 1, "completed", "", Usage(), 1.0, at=2.0))
    sink(RunFinished("a", 1, "completed", "", Usage(), 1.0, at=2.0))
    named = by_name(exporter.get_finished_spans())
    assert parent_of(named["execute_tool ta"]) == span_id(named["invoke_agent a"])
    assert parent_of(named["execute_tool tb"]) == span_id(named["invoke_agent b"])
    assert len(trace_ids(exporter.get_finished_spans())) == 2 and sink.open_runs == 0


def test_a_root_run_joins_the_callers_current_span(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    sink = TracingSink(provider)
    with provider.get_tracer("app").start_as_current_span("POST /ask") as request:
        sink(RunStarted("r", 0, "task", "m", at=1.0))
    sink(RunFinished("r", 0, "completed", "", Usage(), 1.0, at=2.0))
    run = by_name(exporter.get_finished_spans())["invoke_agent agent"]
    assert parent_of(run) == request.get_span_context().span_id


def test_events_of_unknown_runs_are_ignored(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    sink = TracingSink(provider)
    sink(ModelCalled("ghost", 1, Usage(), 0.1, None, "x", at=1.0))
    sink(ToolCalled("ghost", 1, ToolCall("t", {}), "", 0.1, at=1.0))
    sink(RunFinished("ghost", 1, "completed", "", Usage(), 1.0, at=2.0))
    assert exporter.get_finished_spans() == () and sink.open_runs == 0


# --- instrument() --------------------------------------------------------------------------------------------


def test_instrument_is_idempotent_and_uninstrument_removes_the_sink(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    handle = instrument(tracer_provider=provider)
    assert instrument() is handle and instrument(provider) is handle and handle.active
    assert events.global_sinks().count(handle.sink) == 1
    handle.sink(RunStarted("open", 0, "task", "m", at=1.0))
    handle.uninstrument()
    handle.uninstrument()
    assert handle.sink not in events.global_sinks() and not handle.active
    (cut,) = exporter.get_finished_spans()  # a run still open is ended, marked as cut short
    assert cut.status.status_code == StatusCode.ERROR and handle.sink.open_runs == 0
    assert instrument(provider) is not handle


def test_instrument_with_another_provider_replaces_the_first(provider: TracerProvider) -> None:
    first = instrument(provider)
    second = instrument(TracerProvider())
    assert second is not first and not first.active and second.active
    assert first.sink not in events.global_sinks() and second.sink in events.global_sinks()


def test_missing_opentelemetry_is_a_user_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    with pytest.raises(UserError, match=r"pip install 'agentcore\[otel\]'"):
        instrument()
    assert tracing._active is None


# --- (b) a real parent/child run -----------------------------------------------------------------------------


class Geographer(Agent[None, str]):
    instructions = "You answer geography questions."


async def test_child_agent_used_as_a_tool_nests_under_the_tool_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    child_model = ScriptedModel(["Paris"], name="child-model")
    child = Geographer(child_model)
    parent_model = ScriptedModel([call("ask_child", task="What is the capital of France?"), "Paris"], name="main")
    parent: Agent[None, str] = Agent(parent_model, tools=[child.as_tool("ask_child", "Ask the child agent")])
    handle = instrument(tracer_provider=provider)
    result = await parent.run("Ask the child agent for the capital of France.")
    handle.uninstrument()
    parent_model.assert_complete()
    child_model.assert_complete()
    assert result.output == "Paris" and handle.sink.open_runs == 0

    spans = exporter.get_finished_spans()
    runs = [s for s in spans if s.name.startswith("invoke_agent ")]
    (parent_run,) = [s for s in runs if "agentcore.parent_run_id" not in (s.attributes or {})]
    (child_run,) = [s for s in runs if s is not parent_run]
    (tool,) = [s for s in spans if s.name == "execute_tool ask_child"]
    parent_chats = [s for s in spans if s.name == "chat main"]
    (child_chat,) = [s for s in spans if s.name == "chat child-model"]
    assert len(spans) == 6 and len(parent_chats) == 2 and len(trace_ids(spans)) == 1
    assert (parent_run.name, child_run.name) == (f"invoke_agent {parent.name}", f"invoke_agent {child.name}")
    assert parent_of(parent_run) is None
    assert {parent_of(s) for s in [*parent_chats, tool]} == {span_id(parent_run)}
    assert parent_of(child_run) == span_id(tool)
    assert parent_of(child_chat) == span_id(child_run)

    parent_attributes, child_attributes = dict(parent_run.attributes or {}), dict(child_run.attributes or {})
    assert parent_attributes["agentcore.run_id"] == result.run_id
    assert child_attributes["agentcore.parent_run_id"] == result.run_id
    assert parent_attributes["agentcore.status"] == child_attributes["agentcore.status"] == "completed"
    assert parent_attributes["gen_ai.request.model"] == "main"
    assert child_attributes["gen_ai.request.model"] == "child-model"
    assert (tool.attributes or {})["gen_ai.tool.call.arguments"] == '{"task": "What is the capital of France?"}'
    output_tokens = parent_attributes["gen_ai.usage.output_tokens"]
    assert isinstance(output_tokens, int) and output_tokens >= 2

    def start(span: ReadableSpan) -> int:
        assert span.start_time is not None
        return span.start_time

    def end(span: ReadableSpan) -> int:
        assert span.end_time is not None
        return span.end_time

    assert start(parent_run) <= start(parent_chats[0]) <= start(tool) <= start(child_run) <= start(child_chat)
    assert end(child_chat) <= end(child_run) <= end(tool) <= start(parent_chats[1]) <= end(parent_run)


# --- (c) importing agentcore never imports OpenTelemetry ------------------------------------------------------


def test_importing_agentcore_and_its_tracing_module_imports_no_opentelemetry() -> None:
    code = (
        "import agentcore, agentcore.tracing, sys; "
        "loaded = [m for m in sys.modules if m.startswith('opentelemetry')]; "
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
