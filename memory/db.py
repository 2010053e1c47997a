"""Opening the SQLite files of memory: WAL, a busy timeout for other processes, our schema stamp, and a clear
`MemoryStoreError` (never a reset) for a file that is corrupt, missing or someone else's."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from agentcore.memory.base import MemoryStoreError

T = TypeVar("T")

META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"

RESTORE_HINT = (
    "it was left untouched; move it away to start a new store, or restore it with `agentcore memory import`"
    " from an export"
)


class Database:
    """One SQLite file, one connection, one lock: every call runs in one transaction (BEGIN IMMEDIATE ...
    COMMIT), so a crash leaves each write whole or absent. Calls come from worker threads (asyncio.to_thread)."""

    def __init__(self, path: str | Path, schema: str, stamp: str, *, create: bool = True) -> None:
        self.path = Path(path).expanduser()
        self.stamp = stamp
        if not self.path.exists() and not create:
            raise MemoryStoreError(self.path, "no such file (pass create=True, or check the path)")
        self._lock = threading.Lock()
        self._conn = self._open(schema)

    def _open(self, schema: str) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a committed write survives a process kill
            if not fresh:
                self._check(conn)
            conn.executescript(f"BEGIN IMMEDIATE;\n{META}\n{schema}\nCOMMIT;")
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (self.stamp,))
        except sqlite3.DatabaseError as exc:
            raise MemoryStoreError(self.path, f"not a usable SQLite database ({exc}); {RESTORE_HINT}") from exc
        return conn

    def _check(self, conn: sqlite3.Connection) -> None:
        problem = conn.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise MemoryStoreError(self.path, f"the database is damaged ({problem}); {RESTORE_HINT}")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return
        stamp = None
        if "meta" in tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            stamp = row[0] if row else None
        if stamp is not None and stamp != self.stamp:
            raise MemoryStoreError(self.path, f"holds {stamp!r}, not {self.stamp!r}; open it with the matching store")
        if stamp is None:
            raise MemoryStoreError(self.path, f"is a SQLite file of something else (tables {sorted(tables)})")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                return fn(self._conn)
            except sqlite3.DatabaseError as exc:
                raise MemoryStoreError(self.path, f"read failed ({exc}); {RESTORE_HINT}") from exc

    def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            with self.transaction() as conn:
                return fn(conn)
        except sqlite3.DatabaseError as exc:
            raise MemoryStoreError(self.path, f"write failed ({exc}); nothing of it was saved") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()
