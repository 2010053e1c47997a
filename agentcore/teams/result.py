"""What a team run returns and reports: the result with its final state and per-node ledger, and progress
events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from agentcore.messages import Usage

TeamStatus = Literal["completed", "failed", "incomplete", "limit", "timeout", "cancelled"]


@dataclass(slots=True)
class NodeRecord:
    """One node run in the ledger."""

    node: str
    kind: str
    status: Literal["completed", "failed"]
    attempts: int
    seconds: float
    usage: Usage
    writes: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    run_id: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class TeamEvent:
    """Progress of a team run: node_start, node_retry, node_end, loop_bound, team_end."""

    kind: str
    team: str
    run_id: str
    node: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class TeamResult:
    run_id: str
    trace_id: str
    team: str
    status: TeamStatus
    state: dict[str, Any]
    ledger: list[NodeRecord]
    usage: Usage
    seconds: float
    answer_key: str
    error: str | None = None
    parent_run_id: str | None = None
    trace: list[dict[str, Any]] = field(default_factory=list)  # the team run's own entries: node ends, child runs
    sources: dict[str, list[str]] = field(default_factory=dict)  # list key -> the node that added each item

    @property
    def ok(self) -> bool:
        return self.status == "completed"

    @property
    def output(self) -> Any:
        return self.state.get(self.answer_key)

    def summary(self) -> str:
        nodes = ", ".join(f"{r.node} {r.seconds:.2f}s" for r in self.ledger)
        u = self.usage
        return (f"team {self.team} {self.status} in {self.seconds:.2f}s; {len(self.ledger)} node runs ({nodes});"
                f" {u.calls} model calls, prompt tokens {u.prompt_tokens}, generated {u.generated_tokens}")  # fmt: skip
