"""Task files: JSON Lines, one task a line, validated with the line number in every error.

    {"id": "s01", "family": "single", "task": "What is 347 * 29?", "tools": ["calculator"],
     "check": {"kind": "number", "value": 10063}}

Optional "ref": the reference tool calls, [{"tool": name, "arguments": {...}}, ...]. The last call's result
must pass the check (the unit tests verify this), and its length is the number of tool calls the task needs.
Optional "class": a free-form subgroup of the family (the phrasing of a compose task, the kind of a trap task);
the report breaks results down by it. Optional "split": "dev" (for tuning) or "test" (held out, the headline);
a task without one belongs to both splits.
Families are free-form; the shipped suite uses single, chain, direct and distractor, plus compose and trap
(multi-step tasks in varied phrasings, and tasks that tempt a small model to answer from memory).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import checks, toolbox

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
FAMILIES = ("single", "chain", "direct", "distractor")
SPLITS = ("dev", "test")
_KEYS = {"id", "family", "task", "tools", "check"}


class TaskFileError(ValueError):
    """A task file is malformed; the message names the file, the line and what to fix."""


@dataclass(frozen=True, slots=True)
class Task:
    id: str
    family: str
    task: str
    tools: tuple[str, ...]
    check: dict[str, Any]
    ref: tuple[dict[str, Any], ...] = field(default=())
    task_class: str | None = None  # the task file's "class" (a Python keyword, hence the other name)
    split: str | None = None  # "dev", "test", or None for both

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "family": self.family, "task": self.task, "tools": list(self.tools)}
        data |= {"class": self.task_class} if self.task_class else {}
        data |= {"split": self.split} if self.split else {}
        return {**data, "check": self.check, **({"ref": list(self.ref)} if self.ref else {})}

    def in_split(self, split: str | None) -> bool:
        """Whether the task belongs to `split` (None: every task does)."""
        return split is None or self.split is None or self.split == split


def parse_task(data: Any) -> Task:
    """A Task from one decoded line. Raises ValueError saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a task line must be a JSON object")
    missing = sorted(_KEYS - set(data))
    if missing:
        raise ValueError(f"missing key(s) {', '.join(missing)}; a task needs {', '.join(sorted(_KEYS))}")
    for key in ("id", "family", "task"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise ValueError(f"{key!r} must be a non-empty string")
    tools = data["tools"]
    if not isinstance(tools, list) or not all(isinstance(name, str) for name in tools):
        raise ValueError("'tools' must be a list of tool names")
    toolbox.check_names(tools)
    problem = checks.validate(data["check"])
    if problem:
        raise ValueError(problem)
    ref = data.get("ref", [])
    if not isinstance(ref, list) or not all(_is_call(item, tools) for item in ref):
        raise ValueError("'ref' must be a list of {'tool': one of the task's tools, 'arguments': {...}}")
    task_class = data.get("class")
    if task_class is not None and (not isinstance(task_class, str) or not task_class.strip()):
        raise ValueError("'class' must be a non-empty string when given")
    split = data.get("split")
    if split is not None and split not in SPLITS:
        raise ValueError(f"'split' must be one of {', '.join(SPLITS)} when given, got {split!r}")
    return Task(data["id"], data["family"], data["task"], tuple(tools), data["check"], tuple(ref), task_class, split)


def _is_call(item: Any, tools: Sequence[str]) -> bool:
    return isinstance(item, dict) and item.get("tool") in tools and isinstance(item.get("arguments"), dict)


def load_task_file(path: str | Path) -> list[Task]:
    path = Path(path)
    if not path.is_file():
        raise TaskFileError(f"no task file at {path}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{path} is not UTF-8 text: {exc}") from None
    tasks = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            tasks.append(parse_task(json.loads(line)))
        except ValueError as exc:  # JSONDecodeError is a ValueError too
            raise TaskFileError(f"{path}:{number}: {str(exc)[:300]}") from None
        except RecursionError:  # json.loads of "[" * 100000
            raise TaskFileError(f"{path}:{number}: the JSON nests too deeply") from None
    return tasks


def load_tasks(paths: Iterable[str | Path] = ()) -> list[Task]:
    """Tasks from the given files, or from every bench/tasks/*.jsonl when none are given. Ids must be unique."""
    files = list(paths) or sorted(TASKS_DIR.glob("*.jsonl"))
    tasks = [task for path in files for task in load_task_file(path)]
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise TaskFileError(f"task id {task.id!r} appears twice; ids must be unique across task files")
        seen.add(task.id)
    if not tasks:
        raise TaskFileError(f"no tasks in {', '.join(str(f) for f in files) or TASKS_DIR}")
    return tasks


def families_of(tasks: Sequence[Task]) -> list[str]:
    """Families in a stable order: the shipped four first, then others as they first appear."""
    present = list(dict.fromkeys(task.family for task in tasks))
    return [f for f in FAMILIES if f in present] + [f for f in present if f not in FAMILIES]


def quick_select(tasks: Sequence[Task], count: int = 10) -> list[Task]:
    """`count` tasks spread over the families: round-robin, each family in file order."""
    queues = {family: [t for t in tasks if t.family == family] for family in families_of(tasks)}
    chosen: list[Task] = []
    while len(chosen) < min(count, len(tasks)):
        for queue in queues.values():
            if queue and len(chosen) < count:
                chosen.append(queue.pop(0))
    return chosen
