"""What a run returns: the output, every step, token usage and a ledger of where the wall time went."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from agentcore.messages import Message, ToolCall, Usage

OutputT = TypeVar("OutputT")

RunStatus = Literal["completed", "max_steps", "timeout", "cancelled", "blocked", "error"]


@dataclass(slots=True)
class Ledger:
    """Wall time split three ways. Framework time is what agentcore itself costs."""

    total_seconds: float = 0.0
    model_seconds: float = 0.0
    tool_seconds: float = 0.0

    @property
    def framework_seconds(self) -> float:
        return max(0.0, self.total_seconds - self.model_seconds - self.tool_seconds)

    def summary(self) -> str:
        return (
            f"total {self.total_seconds:.2f}s = model {self.model_seconds:.2f}s"
            f" + tools {self.tool_seconds:.2f}s + framework {self.framework_seconds * 1000:.1f}ms"
        )


@dataclass(slots=True)
class Step:
    """One model turn and, if it called one, the tool call and its result."""

    index: int
    usage: Usage
    model_seconds: float
    call: ToolCall | None = None
    result: str | None = None
    tool_seconds: float = 0.0
    tool_error: bool = False
    content: str | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RunResult(Generic[OutputT]):
    run_id: str
    task: str
    output: OutputT | None
    status: RunStatus
    steps: list[Step]
    usage: Usage
    ledger: Ledger
    messages: list[Message]
    error: str | None = None
    trace: list[dict[str, Any]] = field(default_factory=list)
    parent_run_id: str | None = None  # set when this run ran inside another (an agent used as a tool)
    trace_id: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "completed"

    @property
    def cache_hit_rate(self) -> float:
        """Share of prompt tokens served from the KV cache over the whole run."""
        return self.usage.cached_tokens / self.usage.prompt_tokens if self.usage.prompt_tokens else 0.0
