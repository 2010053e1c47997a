"""Long-term memory in SQLite (standard library): facts and past exchanges, recalled by keywords (FTS5, BM25)."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentcore.memory.base import MemoryRecord
from agentcore.memory.db import Database

STAMP = "agentcore-memory-longterm/1"
SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
  rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
  metadata TEXT NOT NULL, created REAL NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(text, content='entries', content_rowid='rowid');
CREATE TRIGGER IF NOT EXISTS entries_ai AFTER INSERT ON entries BEGIN
  INSERT INTO entries_fts(rowid, text) VALUES (new.rowid, new.text); END;
CREATE TRIGGER IF NOT EXISTS entries_ad AFTER DELETE ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END;
"""

# Words that match everything say nothing about relevance.
_STOP = (
    "a an and are as at be by can do does for from has have how i in is it its me my of on or our so that the "
    "their them then there these this to was we what when where which who why will with you your"
)
STOPWORDS = frozenset(_STOP.split(" "))
_WORD = re.compile(r"[A-Za-z0-9]+")


def keywords(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if len(word) > 1 and word not in STOPWORDS:
            seen.setdefault(word)
    return list(seen)


class SQLiteStore:
    """Facts and past exchanges in one SQLite file (WAL, one transaction per write). `search` ranks by BM25 over
    the query's keywords: an entry sharing no keyword with the query is never recalled."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.db = Database(path, SCHEMA, STAMP, create=create)
        self.path = self.db.path

    async def add(self, text: str, *, kind: str = "fact", metadata: Mapping[str, Any] | None = None) -> str:
        record_id = uuid.uuid4().hex[:12]
        row = (record_id, kind, text, json.dumps(dict(metadata or {}), default=str), time.time())
        await asyncio.to_thread(self.db.write, lambda c: c.execute(_INSERT, row))
        return record_id

    async def search(self, query: str, k: int = 3) -> list[MemoryRecord]:
        words = keywords(query)
        if not words or k < 1:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = await asyncio.to_thread(self.db.read, lambda c: c.execute(_SEARCH, (match, k)).fetchall())
        return [_record(row[:-1], score=-float(row[-1])) for row in rows]

    async def get(self, record_id: str) -> MemoryRecord | None:
        row = await asyncio.to_thread(self.db.read, lambda c: c.execute(_GET, (record_id,)).fetchone())
        return _record(row) if row else None

    async def delete(self, record_id: str) -> bool:
        def remove(c: sqlite3.Connection) -> bool:
            return c.execute("DELETE FROM entries WHERE id = ?", (record_id,)).rowcount > 0

        return await asyncio.to_thread(self.db.write, remove)

    async def list(self, limit: int = 50, offset: int = 0) -> list[MemoryRecord]:
        rows = await asyncio.to_thread(self.db.read, lambda c: c.execute(_LIST, (limit, offset)).fetchall())
        return [_record(row) for row in rows]

    async def count(self) -> int:
        row = await asyncio.to_thread(self.db.read, lambda c: c.execute("SELECT COUNT(*) FROM entries").fetchone())
        return int(row[0])

    def close(self) -> None:
        self.db.close()


_COLUMNS = "id, text, kind, metadata, created"
_INSERT = "INSERT INTO entries (id, kind, text, metadata, created) VALUES (?, ?, ?, ?, ?)"
_GET = f"SELECT {_COLUMNS} FROM entries WHERE id = ?"
_LIST = f"SELECT {_COLUMNS} FROM entries ORDER BY created DESC, rowid DESC LIMIT ? OFFSET ?"
_SEARCH = (
    "SELECT e.id, e.text, e.kind, e.metadata, e.created, bm25(entries_fts) FROM entries_fts "
    "JOIN entries e ON e.rowid = entries_fts.rowid WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts) LIMIT ?"
)


def _record(row: tuple[Any, ...], score: float = 0.0) -> MemoryRecord:
    record_id, text, kind, metadata, created = row
    return MemoryRecord(record_id, text, kind, json.loads(metadata), float(created), score)
