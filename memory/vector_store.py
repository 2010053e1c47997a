"""Vector memory on chromadb: a local `PersistentClient` by default, an `HttpClient` when a server is given.

Embeddings are always computed here (`MiniLMEmbedder`, offline) and passed to chromadb explicitly; collections are
created with no embedding function, so chromadb's default one, which downloads a model, is never built or called.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentcore.errors import UserError
from agentcore.memory.base import MemoryRecord, MemoryStoreError
from agentcore.memory.embeddings import Embedder, default_embedder


class ChromaStore:
    """Memories in a chromadb collection, recalled by cosine similarity (`score` = 1 - cosine distance).

    `path`: a local store (PersistentClient). `host`/`port`: a chroma server (HttpClient), e.g. `chroma run`.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        host: str | None = None,
        port: int = 8000,
        collection: str = "agentcore_memory",
        embedder: Embedder | None = None,
        min_score: float = 0.3,
    ) -> None:
        if (path is None) == (host is None):
            raise UserError("ChromaStore needs exactly one of path= (a local store) or host= (a chroma server)")
        self.path = Path(path).expanduser() if path is not None else None
        self.host, self.port, self.name = host, port, collection
        self.embedder = embedder or default_embedder()
        self.min_score = min_score
        self._collection: Any = None

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else f"http://{self.host}:{self.port}"

    def _client(self) -> Any:
        try:
            import chromadb
            from chromadb.config import Settings
        except ImportError as exc:
            raise UserError("the vector store needs the memory extra: pip install 'agentcore[memory]'") from exc
        settings = Settings(anonymized_telemetry=False)
        if self.path is not None:
            return chromadb.PersistentClient(path=str(self.path), settings=settings)
        return chromadb.HttpClient(host=self.host or "127.0.0.1", port=self.port, settings=settings)

    def collection(self) -> Any:
        if self._collection is None:
            try:
                client = self._client()
                self._collection = client.get_or_create_collection(
                    self.name, embedding_function=None, metadata={"hnsw:space": "cosine"}
                )
            except UserError:
                raise
            except Exception as exc:  # chromadb raises many types: a damaged file, a server that is down
                raise MemoryStoreError(self.where, f"chromadb could not open it ({type(exc).__name__}: {exc})") from exc
        return self._collection

    def _add(self, text: str, kind: str, metadata: Mapping[str, Any]) -> str:
        record_id = uuid.uuid4().hex[:12]
        meta = {"kind": kind, "created": time.time(), "metadata": json.dumps(dict(metadata), default=str)}
        vector = self.embedder.embed([text])[0]
        self.collection().add(ids=[record_id], documents=[text], embeddings=[vector], metadatas=[meta])
        return record_id

    async def add(self, text: str, *, kind: str = "fact", metadata: Mapping[str, Any] | None = None) -> str:
        return await asyncio.to_thread(self._add, text, kind, metadata or {})

    def _search(self, query: str, k: int) -> list[MemoryRecord]:
        collection = self.collection()
        n = min(k, collection.count())
        if n < 1:
            return []
        found = collection.query(query_embeddings=self.embedder.embed([query]), n_results=n)
        hits = zip(found["ids"][0], found["documents"][0], found["metadatas"][0], found["distances"][0], strict=True)
        records = [_record(i, d, m, 1.0 - float(dist)) for i, d, m, dist in hits]
        return [r for r in records if r.score >= self.min_score]

    async def search(self, query: str, k: int = 3) -> list[MemoryRecord]:
        return await asyncio.to_thread(self._search, query, k)

    def _get(self, record_id: str) -> MemoryRecord | None:
        found = self.collection().get(ids=[record_id])
        if not found["ids"]:
            return None
        return _record(found["ids"][0], found["documents"][0], found["metadatas"][0])

    async def get(self, record_id: str) -> MemoryRecord | None:
        return await asyncio.to_thread(self._get, record_id)

    def _delete(self, record_id: str) -> bool:
        if not self.collection().get(ids=[record_id])["ids"]:
            return False
        self.collection().delete(ids=[record_id])
        return True

    async def delete(self, record_id: str) -> bool:
        return await asyncio.to_thread(self._delete, record_id)

    def _list(self, limit: int, offset: int) -> list[MemoryRecord]:
        found = self.collection().get(limit=limit, offset=offset)
        return [_record(i, d, m) for i, d, m in zip(found["ids"], found["documents"], found["metadatas"], strict=True)]

    async def list(self, limit: int = 50, offset: int = 0) -> list[MemoryRecord]:
        return await asyncio.to_thread(self._list, limit, offset)

    async def count(self) -> int:
        return int(await asyncio.to_thread(lambda: self.collection().count()))


def _record(record_id: str, text: str, meta: Mapping[str, Any] | None, score: float = 0.0) -> MemoryRecord:
    meta = meta or {}
    extra = json.loads(str(meta.get("metadata", "{}")))
    return MemoryRecord(record_id, text, str(meta.get("kind", "fact")), extra, float(meta.get("created", 0.0)), score)
