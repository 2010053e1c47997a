"""Model replicas as Ray actors, behind one `Model`: `ReplicaPool`.

Each replica is an actor that loads one model: a registry name or GGUF path through `LlamaCppModel` with its
threads pinned (`threads`, and with `pin=True` its process bound to its own cores), an http(s) URL through the
OpenAI-compatible backend, or any zero-argument factory (tests use `agentcore.testing` models).

- Calls are spread: each goes to the replica with the fewest calls in flight from this process.
- A replica whose process dies is restarted by Ray (`max_restarts`), loading its model again.
- A call cut off by a dying replica is retried once by Ray (`max_task_retries=1`) on the restarted replica.
  That is safe because a model call has no side effects: tools never run in a replica, only in the caller (the
  batch driver, or the team node's task), so a retried request can never execute a tool twice.

The pool is picklable (it holds actor handles), so team nodes running in Ray workers share the same replicas.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agentcore.errors import ModelBackendError, ModelError, UserError
from agentcore.messages import Model, ModelRequest, ModelResponse
from agentcore.scale.cluster import import_ray

ModelFactory = str | Callable[[], Model]
MAX_RESTARTS = 4  # a model that kills its process on load must not restart forever


class ModelReplica:
    """The actor's body: one loaded model, serving `complete` (async: calls queue on the model's own lock)."""

    def __init__(
        self, factory: ModelFactory, settings: Mapping[str, Any], cpus: Sequence[int] | None, real_allowed: bool
    ) -> None:
        from agentcore.models.base import set_real_models_allowed

        set_real_models_allowed(real_allowed)  # the caller's test gate holds in its replicas too
        if cpus and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(cpus))  # llama.cpp's threads stay on this replica's cores
        if callable(factory):
            self.model = factory()
        else:
            from agentcore.models.loader import load_model

            self.model = load_model(factory, **settings)

    async def info(self) -> dict[str, Any]:
        """Loads the weights on the first call (so `start` returns once every replica can serve)."""
        aload = getattr(self.model, "aload", None)
        if aload is not None and not getattr(self.model, "loaded", True):
            await aload()
        return {"pid": os.getpid(), "name": self.model.name}

    async def complete(self, request: ModelRequest) -> ModelResponse:
        return await self.model.complete(request)


class ReplicaPool:
    """N replicas of one model as a single `Model`. Build it with `ReplicaPool.start(...)` once Ray is connected
    (`agentcore.scale.cluster.connect`); `close()` stops the replicas."""

    def __init__(self, handles: list[Any], name: str) -> None:
        self.handles = handles
        self._name = name
        self._inflight = [0] * len(handles)

    @classmethod
    def start(
        cls,
        factory: ModelFactory,
        replicas: int = 1,
        *,
        threads: int = 1,
        pin: bool = False,
        settings: Mapping[str, Any] | None = None,
    ) -> ReplicaPool:
        """Start `replicas` actors, each loading the model with `threads` llama.cpp threads (and reserving as
        many CPUs from Ray); `pin`: bind replica i to cores [i*threads, (i+1)*threads) of this machine."""
        if replicas < 1 or threads < 1:
            raise UserError(f"a replica pool needs at least 1 replica of at least 1 thread, got {replicas}x{threads}")
        from agentcore.models.base import real_models_allowed

        ray = import_ray()
        local = isinstance(factory, str) and not factory.startswith(("http://", "https://"))
        model_settings = {"n_threads": threads, **(settings or {})} if local else dict(settings or {})
        cpus_each = threads if local else 0
        _check_room(ray, replicas * cpus_each, replicas, threads)
        actor = ray.remote(ModelReplica).options(num_cpus=cpus_each, max_restarts=MAX_RESTARTS, max_task_retries=1)
        cores = os.cpu_count() or 1
        handles = []
        for i in range(replicas):
            cpus = [(i * threads + k) % cores for k in range(threads)] if pin else None
            handles.append(actor.remote(factory, model_settings, cpus, real_models_allowed()))
        infos = ray.get([h.info.remote() for h in handles])  # waits for the loads; a failed load raises here
        return cls(handles, f"{infos[0]['name']} x{replicas}")

    @property
    def name(self) -> str:
        return self._name

    @property
    def size(self) -> int:
        return len(self.handles)

    def __getstate__(self) -> dict[str, Any]:
        return {"handles": self.handles, "name": self._name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["handles"], state["name"])  # type: ignore[misc]

    async def complete(self, request: ModelRequest) -> ModelResponse:
        index = min(range(len(self.handles)), key=self._inflight.__getitem__)
        self._inflight[index] += 1
        try:
            response: ModelResponse = await self.handles[index].complete.remote(request)
        except Exception as exc:
            translated = _translated(exc, index)
            if translated is exc:
                raise
            raise translated from exc
        finally:
            self._inflight[index] -= 1
        return response

    def pids(self) -> list[int]:
        """The process id of each replica now (a restarted replica has a new one)."""
        ray = import_ray()
        return [info["pid"] for info in ray.get([h.info.remote() for h in self.handles])]

    def close(self) -> None:
        ray = import_ray()
        for handle in self.handles:
            ray.kill(handle, no_restart=True)
        self.handles = []


def _check_room(ray: Any, wanted: int, replicas: int, threads: int) -> None:
    """Refuse a pool the cluster can never place (Ray would wait for the CPUs forever)."""
    total = int(ray.cluster_resources().get("CPU", 0))
    if wanted > total:
        raise UserError(f"{replicas} replicas x {threads} threads need {wanted} CPUs, but the Ray cluster has {total}:"
                        " use fewer replicas or threads, or add machines (ray start --address=HEAD:6379)")  # fmt: skip


def _translated(exc: Exception, index: int) -> Exception:
    """Ray's failures as the model errors the run loop knows; a model's own error passes through."""
    from ray.exceptions import RayActorError, RayTaskError

    if isinstance(exc, RayTaskError):  # the model raised inside the replica: its own exception, as raised there
        cause = getattr(exc, "cause", None)
        return cause if isinstance(cause, Exception) else ModelError(str(exc))
    if isinstance(exc, RayActorError):
        return ModelBackendError(f"model replica {index} died and its retried call failed too: {exc}")
    return exc
