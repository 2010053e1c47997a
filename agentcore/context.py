"""The typed run context that tools and hooks receive, and the current run of each asyncio task.

A run started while another run is current (an agent used as a tool, a decomposer's subtask) becomes its child:
it gets the parent's id and trace id, and its usage rolls up into the parent's.
"""

from __future__ import annotations

import uuid
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from agentcore.messages import Usage

DepsT = TypeVar("DepsT")


def new_id() -> str:
    return uuid.uuid4().hex[:12]


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
    parent_run_id: str | None = None
    trace_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    def record(self, kind: str, **data: Any) -> None:
        """Add an entry to the run's trace (policies explain their decisions here)."""
        self.trace.append({"kind": kind, "step": self.step, **data})


_current: ContextVar[RunContext[Any] | None] = ContextVar("agentcore_current_run", default=None)


def current_run() -> RunContext[Any] | None:
    """The run this task is part of, or None outside any run."""
    return _current.get()


def child_context(deps: Any, task: str, run_id: str | None = None) -> RunContext[Any]:
    """A context for a new run: a child of the current run when there is one, else a new trace."""
    parent = _current.get()
    ctx: RunContext[Any] = RunContext(deps=deps, run_id=run_id or new_id(), task=task)
    if parent is not None:
        ctx.parent_run_id, ctx.trace_id = parent.run_id, parent.trace_id
    return ctx


def enter(ctx: RunContext[Any]) -> Any:
    """Make `ctx` the current run of this task (and of tasks it creates); returns a token for `leave`."""
    return _current.set(ctx)


def leave(token: Any) -> None:
    _current.reset(token)
