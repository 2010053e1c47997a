"""Typed events a run emits. `agent.stream()` yields them; the logger turns them into structlog lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentcore.messages import ToolCall, Usage


@dataclass(frozen=True, slots=True)
class Event:
    run_id: str
    step: int

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
        return {"run_id": self.run_id, "step": self.step, **out}


@dataclass(frozen=True, slots=True)
class RunStarted(Event):
    task: str
    model: str


@dataclass(frozen=True, slots=True)
class ModelCalled(Event):
    usage: Usage
    seconds: float
    tool_call: ToolCall | None
    content: str | None


@dataclass(frozen=True, slots=True)
class ToolCalled(Event):
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
    status: str
    output: Any
    usage: Usage
    seconds: float
