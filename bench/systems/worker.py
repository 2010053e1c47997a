"""Run one system on a task list, in this process, and write what happened as JSON.

    python -m bench.systems.worker SYSTEM JOB.json OUT.json

JOB.json holds {"settings": {...}, "tasks": [...]}. OUT.json is rewritten after every task, so a crash leaves
the results so far. Progress goes to stderr, one line per task. Peak RSS is this process's, plus the largest
child's (the llama.cpp server of the HTTP system) once that child has exited.
"""

from __future__ import annotations

import importlib
import json
import resource
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from bench import checks
from bench.suite import Task, parse_task
from bench.systems import SYSTEMS
from bench.systems.common import Settings, TaskResult


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in SYSTEMS:
        print(f"usage: python -m bench.systems.worker {{{','.join(SYSTEMS)}}} JOB.json OUT.json", file=sys.stderr)
        return 2
    name, job_path, out_path = argv[0], Path(argv[1]), Path(argv[2])
    job = json.loads(job_path.read_text(encoding="utf-8"))
    settings = Settings(**job["settings"])
    tasks = [parse_task(item) for item in job["tasks"]]
    by_id = {task.id: task for task in tasks}
    report: dict[str, Any] = {"system": name, "results": [], "info": {}, "error": None}

    def emit(result: TaskResult) -> None:
        result.ok = result.status == "completed" and checks.passes(by_id[result.id].check, result.output)
        report["results"].append(result.to_json())
        _progress(name, len(report["results"]), len(tasks), by_id[result.id], result)
        _write(out_path, report)

    started = time.perf_counter()
    try:
        module = importlib.import_module(SYSTEMS[name])
        report["info"] = module.run(tasks, settings, emit)
    except Exception as exc:  # the harness reports a system that could not run; it does not stop the others
        report["error"] = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
    report["seconds"] = time.perf_counter() - started
    report["peak_rss_mb"] = _max_rss_mb(resource.RUSAGE_SELF)
    report["children_peak_rss_mb"] = _max_rss_mb(resource.RUSAGE_CHILDREN)
    _write(out_path, report)
    return 0 if report["error"] is None else 1


def _max_rss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kilobytes on Linux


def _write(path: Path, report: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(report, indent=1), encoding="utf-8")
    tmp.replace(path)


def _progress(name: str, done: int, total: int, task: Task, result: TaskResult) -> None:
    mark = "ok  " if result.ok else "FAIL"
    shown = (result.output or result.error or "").replace("\n", " ")[:70]
    print(
        f"[{name}] {done}/{total} {mark} {task.id:<6} {result.wall_s:5.1f}s calls={result.calls}"
        f" tools={','.join(result.tool_calls) or '-'} status={result.status} -> {shown!r}",
        file=sys.stderr,
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
