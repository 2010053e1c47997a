"""Scale-out: batch runs, team nodes, model replicas and one memory owner, on Ray when asked (see docs/scaling.md).

| module | job |
|---|---|
| `tasks` | batch task files (JSON Lines, the bench format) and resumable results files; no Ray |
| `batch`, `batch_cli` | `agentcore batch run`: many tasks, bounded concurrency, progress, resume |
| `ledger` | the executed-call ledger: a batch task run again replays the tool calls it already made |
| `cluster` | `--executor local|ray|ray://host:port|auto` to a connected Ray (small footprint), or local |
| `replicas` | model replicas as Ray actors behind one `Model`: spread, retried once, a dead one replaced |
| `ray_executor`, `team_executor` | the team engine's `Executor` on Ray (each node run a Ray task); `team run` flags |
| `memory_owner` | one Ray actor owns the memory stores: serialised writes, `reflect()` in one place |

Ray is an optional extra (`pip install 'agentcore[ray]'`): nothing here imports it until a Ray executor is asked
for, and `import agentcore` never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore.lazy import lazy_getattr

_EXPORTS = {
    "run_batch": "agentcore.scale.batch",
    "BatchReport": "agentcore.scale.batch",
    "BatchTask": "agentcore.scale.tasks",
    "read_tasks": "agentcore.scale.tasks",
    "finished_ids": "agentcore.scale.tasks",
    "connect": "agentcore.scale.cluster",
    "ReplicaPool": "agentcore.scale.replicas",
    "RayExecutor": "agentcore.scale.ray_executor",
    "MemoryOwner": "agentcore.scale.memory_owner",
}

if TYPE_CHECKING:
    from agentcore.scale.batch import BatchReport, run_batch
    from agentcore.scale.cluster import connect
    from agentcore.scale.memory_owner import MemoryOwner
    from agentcore.scale.ray_executor import RayExecutor
    from agentcore.scale.replicas import ReplicaPool
    from agentcore.scale.tasks import BatchTask, finished_ids, read_tasks

__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())

__all__ = [
    "BatchReport",
    "BatchTask",
    "MemoryOwner",
    "RayExecutor",
    "ReplicaPool",
    "connect",
    "finished_ids",
    "read_tasks",
    "run_batch",
]
