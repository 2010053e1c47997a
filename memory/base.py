"""The shapes every memory backend shares: a stored record, the async `MemoryStore` protocol, the store error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from agentcore.errors import UserError


class MemoryStoreError(UserError):
    """A store that cannot be used as it is (corrupt, missing, not ours). The message names the file; the file
    is always left as it was."""

    def __init__(self, path: str | Path, problem: str) -> None:
        super().__init__(f"memory store {path}: {problem}")
        self.path = str(path)


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """One stored memory. `kind` is `fact` (written by the user) or `exchange` (a past task and its answer);
    `score` is the relevance of a search hit (higher is closer), 0 outside searches."""

    id: str
    text: str
    kind: str = "fact"
    metadata: Mapping[str, Any] = field(default_factory=dict)
    created: float = 0.0
    score: float = 0.0


@runtime_checkable
class MemoryStore(Protocol):
    """An async store of text memories. `SQLiteStore` (keyword recall) and `ChromaStore` (vector recall)
    implement it; another backend needs only these six methods."""

    async def add(self, text: str, *, kind: str = "fact", metadata: Mapping[str, Any] | None = None) -> str: ...

    async def search(self, query: str, k: int = 3) -> list[MemoryRecord]: ...

    async def get(self, record_id: str) -> MemoryRecord | None: ...

    async def delete(self, record_id: str) -> bool: ...

    async def list(self, limit: int = 50, offset: int = 0) -> list[MemoryRecord]: ...

    async def count(self) -> int: ...
