"""The files of a memory directory and its stores, opened on demand: shared by the CLI and export/import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

LONG_TERM, EXPERIENCE = "longterm.db", "experience.db"


class Stores:
    """The memory directory's stores, opened on demand (reading commands never create them)."""

    def __init__(self, root: Path, create: bool) -> None:
        self.root, self.create = root, create

    def long_term(self) -> Any:
        from agentcore.memory.sqlite_store import SQLiteStore

        return SQLiteStore(self.root / LONG_TERM, create=self.create)

    def bank(self) -> Any:
        from agentcore.memory.principles import PrincipleBank

        return PrincipleBank(self.root / EXPERIENCE, create=self.create)

    def has(self, name: str) -> bool:
        return (self.root / name).exists()
