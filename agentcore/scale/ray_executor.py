"""The team engine's `Executor` on Ray: each node run is a Ray task that loads the team file in a Ray worker and
runs the node there. The team file format and the engine are unchanged; only the executor differs.

    ray = connect()                                  # agentcore.scale.cluster
    team = Team.load(path, registry=registry, executor=RayExecutor(registry))

- The registry (tools, functions, agents, models) is shipped to the workers once (`ray.put`); give it a
  `ReplicaPool` as a model and every node's model calls are spread over the replicas.
- Join nodes run here, in the driver: they are cheap and keep their learned statistics in one place.
- A node task is never retried by Ray (`max_retries=0`): a node runs tools, and a tool call must not run twice
  behind the engine's back. A worker that dies fails that attempt, and the node's own `retries` decide, exactly
  as in a local run. Model calls inside the node are the ones retried (by the replicas, where it is safe).
- Node tasks reserve no CPU (they mostly wait on model calls; the replicas hold the CPUs), so concurrency is
  bounded here, like the local executor's.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agentcore import context as run_context
from agentcore.errors import UserError
from agentcore.scale.cluster import import_ray
from agentcore.teams.executor import NodeJob, NodeOutput

LOCAL_KINDS = frozenset({"join"})


class RayExecutor:
    """Runs team nodes as Ray tasks, at most `concurrency` at a time. Ray must be connected (`connect`)."""

    def __init__(self, registry: Any = None, *, concurrency: int = 4) -> None:
        if concurrency < 1:
            raise ValueError("RayExecutor needs a concurrency of at least 1")
        self.registry, self.concurrency = registry, concurrency
        self._ray = import_ray()
        if not self._ray.is_initialized():
            raise UserError("RayExecutor needs a connected Ray: call agentcore.scale.cluster.connect() first")
        self._registry_ref: Any = None
        self._task: Any = None
        self._limit: asyncio.Semaphore | None = None

    async def submit(self, job: NodeJob) -> NodeOutput:
        if job.kind in LOCAL_KINDS:
            return await job.run()
        if job.team_file is None:
            raise UserError(f"node '{job.node}': the Ray executor runs teams loaded from a file (Team.load(path)),"
                            " so that workers can load the same file")  # fmt: skip
        self._limit = self._limit or asyncio.Semaphore(self.concurrency)
        async with self._limit:
            output = await self._remote(job)
        parent = run_context.current_run()
        if parent is not None:  # as a local node's child run would: its usage rolls up into the team run
            parent.usage.add(output.usage)
        return output

    async def _remote(self, job: NodeJob) -> NodeOutput:
        ray = self._ray
        if self._task is None:
            self._registry_ref = ray.put(self.registry)
            self._task = ray.remote(run_node_task).options(num_cpus=0, max_retries=0)
        # The registry's ref goes in a list so Ray does not resolve it per call: workers fetch it once, by its id.
        ref = self._task.remote(job.team_file, job.node, job.inputs, [self._registry_ref])
        try:
            output: NodeOutput = await ref
        except asyncio.CancelledError:  # the node's timeout, or a cancelled run: stop the remote work too
            ray.cancel(ref, force=False)
            raise
        except ray.exceptions.RayTaskError as exc:  # the node's own failure, as raised there (NodeFailed, ...)
            cause = getattr(exc, "cause", None)
            raise (cause if isinstance(cause, Exception) else RuntimeError(str(exc))) from None
        return output


# -- in the worker --------------------------------------------------------------------------------------------

_teams: dict[tuple[str, str], Any] = {}
_loop: asyncio.AbstractEventLoop | None = None


def run_node_task(team_file: str, node: str, inputs: dict[str, Any], registry_box: list[Any]) -> NodeOutput:
    """One node run in a Ray worker. The team is loaded once per worker and shipped registry; the worker keeps
    one event loop, so models loaded here keep their loop-bound locks and clients across node runs."""
    global _loop
    import ray

    from agentcore.teams.engine import Team
    from agentcore.teams.nodes import run_node

    key = (team_file, registry_box[0].hex())
    if key not in _teams:
        _teams[key] = Team.load(team_file, registry=ray.get(registry_box[0]))
    team = _teams[key]
    _loop = _loop or asyncio.new_event_loop()
    return _loop.run_until_complete(run_node(team.env, node, inputs, {}))
