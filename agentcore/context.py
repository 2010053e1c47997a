"""The typed run context that tools and hooks receive."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from agentcore.messages import Usage

DepsT = TypeVar("DepsT")


@dataclass(slots=True)
class RunContext(Generic[DepsT]):
    """What a tool or hook may know about the run it is part of. `deps` is whatever the app injected."""

    deps: DepsT
    run_id: str
    task: str
    step: int = 0
    usage: Usage = field(default_factory=Usage)
    metadata: dict[str, Any] = field(default_factory=dict)
    trace: list[dict[str, Any]] = field(default_factory=list)

    def record(self, kind: str, **data: Any) -> None:
        """Add an entry to the run's trace (policies explain their decisions here)."""
        self.trace.append({"kind": kind, "step": self.step, **data})
