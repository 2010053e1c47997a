"""OpenTelemetry export of agent runs: one span per run, per model call and per tool call.

    from agentcore.tracing import instrument

    instrument()                              # spans go to the global TracerProvider
    instrument(tracer_provider=provider)      # or to this one

The spans follow the OpenTelemetry GenAI semantic conventions (`invoke_agent {agent}`, `chat {model}`,
`execute_tool {tool}`). A child run (an agent used as a tool) nests under the tool span of its parent that is
open when it starts. Spans take their times from the events, and their parents from explicit contexts, never from
the current OpenTelemetry context: the events of concurrent runs interleave. The one exception is a root run,
whose span joins the span that is current in the task that starts it (a web request's span, say).

Needs the `otel` extra (`pip install 'agentcore[otel]'`). Importing this module imports no OpenTelemetry;
`instrument()` and `TracingSink()` do.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentcore import __version__
from agentcore.errors import UserError
from agentcore.events import (
    Event,
    ModelCalled,
    Notice,
    RunFinished,
    RunStarted,
    ToolCalled,
    ToolStarted,
    add_sink,
    remove_sink,
)

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.trace import Span, SpanKind, Tracer, TracerProvider
    from opentelemetry.util.types import AttributeValue

MAX_ATTRIBUTE_CHARS = 1000
"""Tool arguments (as JSON), error messages and notices are cut to this many characters."""

_INSTALL = "agentcore.tracing needs OpenTelemetry; install it with: pip install 'agentcore[otel]'"
_log = logging.getLogger(__name__)


@dataclass(slots=True)
class _OpenRun:
    """What the sink keeps about a run until its RunFinished: its span and its open tool spans."""

    span: Span
    context: Context
    model: str
    started_at: float
    tools: list[tuple[str, Span]] = field(default_factory=list)  # (call signature, span), oldest first


class TracingSink:
    """An event sink that turns runs into spans. `instrument()` registers one; call it directly to feed events."""

    def __init__(self, tracer_provider: TracerProvider | None = None) -> None:
        try:
            from opentelemetry import trace
        except ImportError as exc:
            raise UserError(_INSTALL) from exc
        self.tracer_provider = tracer_provider
        self._tracer: Tracer = trace.get_tracer("agentcore", __version__, tracer_provider=tracer_provider)
        self._runs: dict[str, _OpenRun] = {}
        self._lock = threading.Lock()  # runs on other threads' event loops emit too

    @property
    def open_runs(self) -> int:
        """How many runs have started and not finished (state is dropped at RunFinished)."""
        return len(self._runs)

    def __call__(self, event: Event) -> None:
        try:
            with self._lock:
                self._handle(event)
        except Exception:  # telemetry must never fail a run
            _log.exception("agentcore.tracing: could not record %s of run %s", event.kind, event.run_id)

    def close(self) -> None:
        """End the spans of runs still open (status ERROR: they were cut short) and drop all state."""
        with self._lock:
            now = time.time()
            for run in self._runs.values():
                self._end_tools(run, now)
                _set_error(run.span, "tracing stopped before the run finished")
                run.span.end(end_time=_ns(now))
            self._runs.clear()

    def _handle(self, event: Event) -> None:
        match event:
            case RunStarted():
                self._run_started(event)
            case ModelCalled():
                self._model_called(event)
            case ToolStarted():
                self._tool_started(event)
            case ToolCalled():
                self._tool_called(event)
            case Notice():
                self._notice(event)
            case RunFinished():
                self._run_finished(event)

    def _run_started(self, event: RunStarted) -> None:
        from opentelemetry.trace import SpanKind

        attributes: dict[str, AttributeValue] = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": event.agent,
            "gen_ai.request.model": event.model,
            "agentcore.run_id": event.run_id,
        }
        if event.parent_run_id:
            attributes["agentcore.parent_run_id"] = event.parent_run_id
        if event.trace_id:
            attributes["agentcore.trace_id"] = event.trace_id
        name = f"invoke_agent {event.agent}"
        span = self._start(name, self._parent_of(event), SpanKind.INTERNAL, attributes, event.at)
        self._runs[event.run_id] = _OpenRun(span, _context_of(span), event.model, event.at)

    def _parent_of(self, event: RunStarted) -> Context:
        """A child run's parent: the parent run's open tool span (its latest), else the parent run's span."""
        parent = self._runs.get(event.parent_run_id) if event.parent_run_id else None
        if parent is None:
            from opentelemetry import context

            return context.get_current()  # a root run (or one whose parent started before instrument())
        return _context_of(parent.tools[-1][1]) if parent.tools else parent.context

    def _model_called(self, event: ModelCalled) -> None:
        from opentelemetry.trace import SpanKind

        run = self._runs.get(event.run_id)
        if run is None:
            return
        model = event.model or run.model
        usage = event.usage
        attributes: dict[str, AttributeValue] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": model,
            "gen_ai.usage.input_tokens": usage.prompt_tokens,
            "gen_ai.usage.output_tokens": usage.generated_tokens,
            "agentcore.cached_tokens": usage.cached_tokens,
            "agentcore.run_id": event.run_id,
            "agentcore.step": event.step,
        }
        if event.tool_call is not None:
            attributes["agentcore.tool_call"] = event.tool_call.name
        span = self._start(f"chat {model}", run.context, SpanKind.CLIENT, attributes, event.at)
        span.end(end_time=_ns(event.at + event.seconds))

    def _tool_started(self, event: ToolStarted) -> None:
        run = self._runs.get(event.run_id)
        if run is not None:
            run.tools.append((event.call.signature(), self._tool_span(run, event)))

    def _tool_called(self, event: ToolCalled) -> None:
        run = self._runs.get(event.run_id)
        if run is None:
            return
        signature = event.call.signature()
        index = next((i for i, (sig, _) in enumerate(run.tools) if sig == signature), None)
        span = run.tools.pop(index)[1] if index is not None else self._tool_span(run, event)
        if event.error:
            _set_error(span, event.result or "the tool call failed", "tool_error")
        span.end(end_time=_ns(event.at + event.seconds))

    def _tool_span(self, run: _OpenRun, event: ToolStarted | ToolCalled) -> Span:
        from opentelemetry.trace import SpanKind

        attributes: dict[str, AttributeValue] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.call.name,
            "gen_ai.tool.type": "function",
            "gen_ai.tool.call.arguments": _truncate(_json(event.call.arguments)),
            "agentcore.run_id": event.run_id,
            "agentcore.step": event.step,
        }
        return self._start(f"execute_tool {event.call.name}", run.context, SpanKind.INTERNAL, attributes, event.at)

    def _notice(self, event: Notice) -> None:
        run = self._runs.get(event.run_id)
        if run is None:
            return
        attributes: dict[str, AttributeValue] = {"message": _truncate(event.message), "agentcore.step": event.step}
        if event.data:
            attributes["data"] = _truncate(_json(event.data))
        run.span.add_event("agentcore.notice", attributes, timestamp=_ns(event.at))

    def _run_finished(self, event: RunFinished) -> None:
        run = self._runs.pop(event.run_id, None)
        if run is None:
            return
        # `at` is the run's start or its end, depending on the emitter: either way this is the end.
        end = max(event.at, run.started_at + event.seconds)
        self._end_tools(run, end)
        usage = event.usage
        run.span.set_attributes(
            {
                "agentcore.status": event.status,
                "gen_ai.usage.input_tokens": usage.prompt_tokens,
                "gen_ai.usage.output_tokens": usage.generated_tokens,
                "agentcore.cached_tokens": usage.cached_tokens,
                "agentcore.model_calls": usage.calls,
            }
        )
        if event.status != "completed":
            _set_error(run.span, event.error or f"the run ended with status {event.status!r}", event.status)
        run.span.end(end_time=_ns(end))

    def _end_tools(self, run: _OpenRun, at: float) -> None:
        for _, span in run.tools:
            _set_error(span, "the run ended before the tool call did", "unfinished")
            span.end(end_time=_ns(at))
        run.tools.clear()

    def _start(
        self, name: str, parent: Context, kind: SpanKind, attributes: dict[str, AttributeValue], at: float
    ) -> Span:
        return self._tracer.start_span(name, context=parent, kind=kind, attributes=attributes, start_time=_ns(at))


class Instrumentation:
    """The handle `instrument()` returns: `uninstrument()` stops the export."""

    def __init__(self, sink: TracingSink) -> None:
        self.sink = sink

    @property
    def active(self) -> bool:
        return _active is self

    def uninstrument(self) -> None:
        """Stop sending events to OpenTelemetry; spans of runs still open are ended now. Safe to call twice."""
        global _active
        with _install_lock:
            remove_sink(self.sink)
            self.sink.close()
            if _active is self:
                _active = None


_active: Instrumentation | None = None
_install_lock = threading.RLock()


def instrument(tracer_provider: TracerProvider | None = None) -> Instrumentation:
    """Export every run's spans to `tracer_provider` (default: the global one, even if it is set later).

    Idempotent: while instrumented, another call returns the same handle, unless it names a different provider,
    which then replaces the first. Raises UserError if OpenTelemetry is not installed.
    """
    global _active
    with _install_lock:
        if _active is not None:
            if tracer_provider is None or tracer_provider is _active.sink.tracer_provider:
                return _active
            _active.uninstrument()
        handle = Instrumentation(TracingSink(tracer_provider))
        add_sink(handle.sink)
        _active = handle
        return handle


def _context_of(span: Span) -> Context:
    from opentelemetry import trace
    from opentelemetry.context import Context

    return trace.set_span_in_context(span, Context())


def _set_error(span: Span, message: str, error_type: str | None = None) -> None:
    from opentelemetry.trace import Status, StatusCode

    span.set_status(Status(StatusCode.ERROR, _truncate(message)))
    if error_type:
        span.set_attribute("error.type", error_type)


def _ns(seconds: float) -> int:
    return round(seconds * 1_000_000_000)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _truncate(text: str) -> str:
    return text if len(text) <= MAX_ATTRIBUTE_CHARS else text[: MAX_ATTRIBUTE_CHARS - 1] + "…"


__all__ = ["MAX_ATTRIBUTE_CHARS", "Instrumentation", "TracingSink", "instrument"]
