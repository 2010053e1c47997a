"""Conversations that outlive one run: `agent.run(task, session=SQLiteSession("chat-1"))`.

A `Session` holds one conversation's messages (system prompt left out: each run writes its own). The Agent
reads them before a run and appends the run's new messages after a completed run, so a failed or cancelled turn
leaves the conversation as it was. Two implementations: `InMemorySession` and `SQLiteSession` (standard library,
WAL mode, one transaction per turn, keyed by session id; many sessions share one file).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Protocol, runtime_checkable

from agentcore.codec import message_from_dict, message_to_dict
from agentcore.errors import UserError
from agentcore.messages import Message


@runtime_checkable
class Session(Protocol):
    session_id: str

    async def messages(self) -> list[Message]: ...

    async def add(self, messages: Sequence[Message]) -> None: ...

    async def clear(self) -> None: ...


class InMemorySession:
    def __init__(self, session_id: str = "default") -> None:
        self.session_id = session_id
        self._messages: list[Message] = []

    async def messages(self) -> list[Message]:
        return list(self._messages)

    async def add(self, messages: Sequence[Message]) -> None:
        self._messages.extend(m for m in messages if m.role != "system")

    async def clear(self) -> None:
        self._messages.clear()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
)
"""


def default_sessions_path() -> Path:
    from agentcore.models.registry import cache_dir

    return cache_dir() / "sessions.db"


class SQLiteSession:
    """One conversation in a SQLite file. Writes run in a worker thread; one lock per instance."""

    def __init__(self, session_id: str, path: str | Path | None = None) -> None:
        if not session_id.strip():
            raise UserError("a session id must not be empty")
        self.session_id = session_id
        self.path = Path(path) if path is not None else default_sessions_path()
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise UserError(f"session store {self.path} is not a usable SQLite database: {exc}") from exc
        return connection

    async def messages(self) -> list[Message]:
        return await asyncio.to_thread(self._load)

    def _load(self) -> list[Message]:
        with self._lock, closing(self._connect()) as db:
            rows = db.execute(
                "SELECT seq, message FROM messages WHERE session_id = ? ORDER BY seq", (self.session_id,)
            ).fetchall()
        out = []
        for seq, text in rows:
            try:
                out.append(message_from_dict(json.loads(text)))
            except (json.JSONDecodeError, UserError) as exc:
                raise UserError(f"session {self.session_id!r} in {self.path}, message {seq}: {exc}") from exc
        return out

    async def add(self, messages: Sequence[Message]) -> None:
        rows = [json.dumps(message_to_dict(m), ensure_ascii=False) for m in messages if m.role != "system"]
        await asyncio.to_thread(self._append, rows)

    def _append(self, rows: list[str]) -> None:
        with self._lock, closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")  # one transaction per turn: a crash leaves the whole turn or none of it
            try:
                seq, turn = db.execute(
                    "SELECT COALESCE(MAX(seq), -1) + 1, COALESCE(MAX(turn), -1) + 1 FROM messages WHERE session_id = ?",
                    (self.session_id,),
                ).fetchone()
                db.executemany(
                    "INSERT INTO messages (session_id, seq, turn, message) VALUES (?, ?, ?, ?)",
                    [(self.session_id, seq + i, turn, row) for i, row in enumerate(rows)],
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    async def clear(self) -> None:
        await asyncio.to_thread(self._clear)

    def _clear(self) -> None:
        with self._lock, closing(self._connect()) as db:
            db.execute("DELETE FROM messages WHERE session_id = ?", (self.session_id,))
