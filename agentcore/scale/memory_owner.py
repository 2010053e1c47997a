"""Memory in distributed mode: one Ray actor owns the stores; every worker writes and reads through it.

    owner = MemoryOwner.start("~/.agentmem")           # once, on the machine that holds the directory
    memory = owned_memory(owner)                        # in any worker: a `Memory` whose stores are the owner's
    agent = Agent(model, memory=memory)

The owner is a named actor (by default "agentcore-memory-" and a hash of its directory), so every driver and worker
of the cluster finds the same one for a directory; it is placed on the node that created it (where the directory
is). Guarantees (docs/scaling.md):

- Serialised writes: the actor runs one call at a time (a sync actor, `max_concurrency=1`), so concurrent writes
  from any number of workers are applied one after another and none is lost. Each write is committed to SQLite
  before the caller's `await` returns.
- Per-caller order: calls from one worker run in the order it sent them, so a worker reads its own writes.
  Other workers see a write once it is acknowledged (the proxies cache nothing).
- `reflect()` runs only in the owner, between writes: runs recorded while it works wait for it and are
  reflected on next time, never twice.
- At most once: a call cut off by the owner's death is not retried (a retried `add` could store a fact twice);
  the caller gets an error. Ray restarts the owner, which reopens the same files; acknowledged writes are kept.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Coroutine, Mapping
from pathlib import Path
from typing import Any, TypeVar

from agentcore.memory.base import MemoryRecord, MemoryStore
from agentcore.memory.facade import Memory
from agentcore.memory.principles import PrincipleBank
from agentcore.scale.cluster import import_ray

T = TypeVar("T")
DEFAULT_NAME = "agentcore-memory"


class MemoryOwner:
    """The actor's body: a `Memory` over a directory (long-term SQLite store and EvolveR experience)."""

    def __init__(self, directory: str, reflect_model: Any = None) -> None:
        self.memory = Memory.open(directory, long_term=True, experience=True)
        self.reflect_model = reflect_model
        self._loop = asyncio.new_event_loop()

    @classmethod
    def start(cls, directory: str | Path, *, name: str | None = None, reflect_model: Any = None) -> Any:
        """The owner actor of `directory` (or of `name`), started here if it does not exist yet.
        `reflect_model`: the model `reflect()` uses when none is given (a `ReplicaPool` is a good one)."""
        folder = str(Path(directory).expanduser().resolve())
        name = name or f"{DEFAULT_NAME}-{hashlib.sha256(folder.encode()).hexdigest()[:12]}"
        ray = import_ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        actor = ray.remote(cls).options(name=name, get_if_exists=True, num_cpus=0, max_concurrency=1,
                                        max_restarts=3, max_task_retries=0, scheduling_strategy=here)  # fmt: skip
        handle = actor.remote(folder, reflect_model)
        ray.get(handle.counts.remote())  # the stores are open (a bad directory fails here, not at the first write)
        return handle

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(coro)

    # -- the long-term store ---------------------------------------------------------------------------------

    def add(self, text: str, kind: str, metadata: Mapping[str, Any] | None) -> str:
        return self._run(self._store().add(text, kind=kind, metadata=metadata))

    def search(self, query: str, k: int) -> list[MemoryRecord]:
        return self._run(self._store().search(query, k))

    def get(self, record_id: str) -> MemoryRecord | None:
        return self._run(self._store().get(record_id))

    def delete(self, record_id: str) -> bool:
        return self._run(self._store().delete(record_id))

    def list_records(self, limit: int, offset: int) -> list[MemoryRecord]:
        return self._run(self._store().list(limit, offset))

    def count(self) -> int:
        return self._run(self._store().count())

    def _store(self) -> MemoryStore:
        assert self.memory.long_term is not None  # Memory.open(long_term=True)
        return self.memory.long_term

    # -- experience ------------------------------------------------------------------------------------------

    def record(self, trajectory: Any) -> None:
        self._bank().record(trajectory)

    def search_experience(self, query: str, k: int, min_similarity: float = 0.3) -> list[Any]:
        return list(self._bank().search(query, k, min_similarity=min_similarity))

    def feedback(self, run_id: str, good: bool) -> bool:
        return bool(self._bank().feedback(run_id, good))

    def reflect(self, model: Any = None, limit: int | None = None) -> Any:
        chosen = model if model is not None else self.reflect_model
        if chosen is None:
            raise ValueError("reflect needs a model: give one, or start the owner with reflect_model=")
        return self._run(self.memory.reflect(chosen, limit=limit))

    def counts(self) -> dict[str, int]:
        counts = dict(self._bank().counts())
        counts["long_term"] = self.count()
        return counts

    def _bank(self) -> PrincipleBank:
        assert self.memory.experience is not None  # Memory.open(experience=True)
        return self.memory.experience


class OwnedStore:
    """A `MemoryStore` whose every call goes to the owner (nothing cached here)."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner

    async def add(self, text: str, *, kind: str = "fact", metadata: Mapping[str, Any] | None = None) -> str:
        record_id: str = await self.owner.add.remote(text, kind, dict(metadata or {}))
        return record_id

    async def search(self, query: str, k: int = 3) -> list[MemoryRecord]:
        found: list[MemoryRecord] = await self.owner.search.remote(query, k)
        return found

    async def get(self, record_id: str) -> MemoryRecord | None:
        found: MemoryRecord | None = await self.owner.get.remote(record_id)
        return found

    async def delete(self, record_id: str) -> bool:
        done: bool = await self.owner.delete.remote(record_id)
        return done

    async def list(self, limit: int = 50, offset: int = 0) -> list[MemoryRecord]:
        found: list[MemoryRecord] = await self.owner.list_records.remote(limit, offset)
        return found

    async def count(self) -> int:
        n: int = await self.owner.count.remote()
        return n


class OwnedBank:
    """The part of a `PrincipleBank` a `Memory` uses in a run (search, record, feedback), through the owner.
    Memory calls these from worker threads, where a blocking `ray.get` is fine."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner

    def search(self, query: str, k: int = 3, *, min_similarity: float = 0.3) -> list[Any]:
        found: list[Any] = import_ray().get(self.owner.search_experience.remote(query, k, min_similarity))
        return found

    def record(self, trajectory: Any) -> None:
        import_ray().get(self.owner.record.remote(trajectory))

    def feedback(self, trajectory_id: str, good: bool) -> bool:
        done: bool = import_ray().get(self.owner.feedback.remote(trajectory_id, good))
        return done


class OwnedMemory(Memory):
    """A `Memory` over the owner's stores; `reflect()` runs in the owner (with the owner's model when the run's
    model cannot travel: an in-process llama.cpp model stays where it is)."""

    def __init__(self, owner: Any, **options: Any) -> None:
        super().__init__(long_term=OwnedStore(owner), experience=OwnedBank(owner), **options)  # type: ignore[arg-type]
        self.owner = owner

    async def reflect(self, model: Any = None, *, limit: int | None = None) -> Any:
        from agentcore.scale.replicas import ReplicaPool

        travels = isinstance(model, ReplicaPool) or type(model).__name__ == "OpenAICompatModel"
        return await self.owner.reflect.remote(model if travels else None, limit)


def owned_memory(owner: Any, **options: Any) -> OwnedMemory:
    """A `Memory` for this worker over the owner's stores (options as for `Memory`: recall_k, learn, ...)."""
    return OwnedMemory(owner, **options)
