"""Batch task files and resumable results files. No Ray here: `agentcore batch run` works without it.

A task file is JSON Lines, one task a line, the bench format (bench/suite.py): `id` and `task` are required,
every other key (`family`, `tools`, `check`, ...) is kept and copied into the task's result line.

A results file is JSON Lines too, one line per finished task, appended and flushed as each task ends. On restart
the ids already there are skipped, so a killed batch resumes where it stopped and no task is written twice. A
line cut short by a kill is dropped before anything new is appended. A result with status `error` (the task
could not be run: a replica died twice, the run timed out) does not count as finished and runs again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agentcore.errors import UserError

RETRY_STATUSES = frozenset({"error"})  # results that a restart runs again


@dataclass(frozen=True, slots=True)
class BatchTask:
    id: str
    task: str
    extra: Mapping[str, Any] = field(default_factory=dict)  # the line's other keys, copied into its result


def parse_line(text: str, where: str) -> BatchTask:
    """One task from one line of a task file; UserError naming `where` (file:line) and what to fix."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise UserError(f"{where}: a task line must be a JSON object with 'id' and 'task'")
    for key in ("id", "task"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise UserError(f"{where}: '{key}' must be a non-empty string (a task line needs 'id' and 'task')")
    extra = {k: v for k, v in data.items() if k not in ("id", "task")}
    return BatchTask(data["id"], data["task"], extra)


def read_tasks(path: str | Path) -> list[BatchTask]:
    """Every task of a task file, in order. Blank lines and lines starting with # are skipped; a duplicate id
    is an error (results are keyed by id)."""
    file = Path(path)
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UserError(f"cannot read the task file {file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{file}: not UTF-8 text (byte {exc.start})") from None
    tasks: list[BatchTask] = []
    first_line: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        task = parse_line(text, f"{file}:{number}")
        if task.id in first_line:
            raise UserError(f"{file}:{number}: duplicate task id {task.id!r} (first on line {first_line[task.id]})")
        first_line[task.id] = number
        tasks.append(task)
    if not tasks:
        raise UserError(f"{file}: no tasks (one JSON object a line, with 'id' and 'task')")
    return tasks


def repair_tail(path: Path) -> int:
    """Drop a last line cut short by a kill (no newline at the end); returns the bytes dropped."""
    if not path.exists() or path.stat().st_size == 0:
        return 0
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return 0
    keep = data.rfind(b"\n") + 1
    with path.open("r+b") as handle:
        handle.truncate(keep)
    return len(data) - keep


def finished_ids(path: str | Path) -> set[str]:
    """Ids of the tasks a results file already holds as finished (see RETRY_STATUSES). Unreadable lines (a
    cut-short last line) are ignored; a later line for the same id wins."""
    file = Path(path)
    if not file.exists():
        return set()
    status: dict[str, str] = {}
    with file.open(encoding="utf-8", errors="replace") as handle:
        for text in handle:
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(data, dict) and isinstance(data.get("id"), str):
                status[data["id"]] = str(data.get("status", ""))
    return {task_id for task_id, s in status.items() if s not in RETRY_STATUSES}


def pending(tasks: Iterable[BatchTask], done: set[str]) -> list[BatchTask]:
    return [t for t in tasks if t.id not in done]


class ResultWriter:
    """Appends one JSON line per result, flushed at once (a kill loses at most the line being written)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        repair_tail(self.path)
        self._handle: IO[str] | None = self.path.open("a", encoding="utf-8")

    def write(self, result: Mapping[str, Any]) -> None:
        if self._handle is None:
            raise ValueError("the results file is closed")
        self._handle.write(json.dumps(result, ensure_ascii=False, default=str) + "\n")
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            self._handle = None

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
