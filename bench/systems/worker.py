"""Run one system in this process, one task at a time, as the harness asks (bench/workers.py is the other end).

    python -m bench.systems.worker SYSTEM SETTINGS.json

Protocol, one JSON object a line: tasks arrive on stdin; each gets one {"result": {...}} line back on stdout.
When stdin closes, a last {"done": true, ...} line carries the system's facts, its error if it failed, and peak
RSS: this process's, plus the largest child's (the llama.cpp server of the HTTP system) once that has exited.
Anything else written to stdout (by C libraries, say) is redirected to stderr, so it cannot break the protocol.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from bench import checks
from bench.suite import Task, parse_task
from bench.systems import SYSTEMS
from bench.systems.common import Settings, TaskResult


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in SYSTEMS:
        print(f"usage: python -m bench.systems.worker {{{','.join(SYSTEMS)}}} SETTINGS.json", file=sys.stderr)
        return 2
    name = argv[0]
    settings = Settings(**json.loads(Path(argv[1]).read_text(encoding="utf-8")))
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    seen: dict[str, Task] = {}

    def tasks() -> Iterator[Task]:
        for line in sys.stdin:
            task = parse_task(json.loads(line))
            seen[task.id] = task
            yield task

    def emit(result: TaskResult) -> None:
        result.ok = result.status == "completed" and checks.passes(seen[result.id].check, result.output)
        _send(protocol, {"result": result.to_json()})
        _progress(name, seen[result.id], result)

    done: dict[str, Any] = {"done": True, "info": {}, "error": None}
    try:
        module_name, _, function = SYSTEMS[name].partition(":")  # "module" or "module:function"
        module = importlib.import_module(module_name)
        done["info"] = getattr(module, function or "run")(tasks(), settings, emit)
    except Exception as exc:  # the harness reports a system that could not run; the others go on
        done["error"] = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
    done["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    done["children_peak_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    _send(protocol, done)
    return 0 if done["error"] is None else 1


def _send(stream: TextIO, message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, ensure_ascii=False) + "\n")
    stream.flush()


def _progress(name: str, task: Task, result: TaskResult) -> None:
    mark = "ok  " if result.ok else "FAIL"
    shown = (result.output or result.error or "").replace("\n", " ")[:70]
    print(
        f"[{name}] {mark} {task.id:<6} {result.wall_s:5.1f}s calls={result.calls}"
        f" tools={','.join(result.tool_calls) or '-'} status={result.status} -> {shown!r}",
        file=sys.stderr,
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
