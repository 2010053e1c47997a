"""Typed events a run emits. `agent.stream()` yields them; the logger and the OpenTelemetry exporter consume them.

Every event carries `at`, the wall-clock time (time.time()) when what it reports started: a model or tool call's
start, a run's start. `RunStarted` names the run's parent and trace, so a sink can rebuild the run tree.
Global sinks (`add_sink`) see every run's events: that is how `agentcore.tracing` exports spans.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentcore.messages import ToolCall, Usage

Sink = Callable[["Event"], None]
_global_sinks: list[Sink] = []


def no_sink(event: Event) -> None:
    """The sink of a run nobody listens to: the loop then skips building its events."""


def add_sink(sink: Sink) -> None:
    """Send every run's events to `sink` too (called in the emitting task; it must not block)."""
    if sink not in _global_sinks:
        _global_sinks.append(sink)


def remove_sink(sink: Sink) -> None:
    if sink in _global_sinks:
        _global_sinks.remove(sink)


def global_sinks() -> list[Sink]:
    return list(_global_sinks)


@dataclass(frozen=True, slots=True)
class Event:
    run_id: str
    step: int
    at: float = field(default_factory=time.time, kw_only=True)

    @property
    def kind(self) -> str:
        return type(self).__name__

    def fields(self) -> dict[str, Any]:
        """The event as flat loggable fields (run_id and step included)."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if isinstance(value, ToolCall):
                value = value.signature()
            elif isinstance(value, Usage):
                value = {
                    "prompt": value.prompt_tokens,
                    "cached": value.cached_tokens,
                    "gen": value.generated_tokens,
                }
            out[name] = value
        return {"run_id": self.run_id, "step": self.step, "at": self.at, **out}


@dataclass(frozen=True, slots=True)
class RunStarted(Event):
    task: str
    model: str
    agent: str = "agent"
    parent_run_id: str | None = None
    trace_id: str = ""


@dataclass(frozen=True, slots=True)
class ModelCalled(Event):
    """A model turn ended; `at` is when it started. `model` is the model that answered (a policy may choose)."""

    usage: Usage
    seconds: float
    tool_call: ToolCall | None
    content: str | None
    model: str = ""


@dataclass(frozen=True, slots=True)
class ToolStarted(Event):
    call: ToolCall


@dataclass(frozen=True, slots=True)
class ToolCalled(Event):
    """A tool call ended; `at` is when it started."""

    call: ToolCall
    result: str
    seconds: float
    error: bool = False


@dataclass(frozen=True, slots=True)
class Notice(Event):
    """Something the loop decided: a retry, a repeated call caught, a veto, a policy verdict."""

    message: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunFinished(Event):
    """Emitted whatever ended the run. `status` says why; `error` carries the message of a failure."""

    status: str
    output: Any
    usage: Usage
    seconds: float
    error: str | None = None
