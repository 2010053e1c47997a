"""A model-free system that replays each task's reference calls: it checks the harness and the task files.

Not a benchmark contender (it is not in DEFAULT_SYSTEMS). Its answer is the last reference call's result, or,
for a task without one, the check's own value (a regex check then gets no answer and fails).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from bench import toolbox
from bench.suite import Task
from bench.systems.common import Emit, Settings, TaskResult, trace_line


def run(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    for task in tasks:
        emit(answer(task))
    return {"load_s": 0.0, "version": "oracle"}


def answer(task: Task) -> TaskResult:
    started, cpu_started = time.perf_counter(), time.process_time()
    trace, output = [], None
    for call in task.ref:
        output = toolbox.call(call["tool"], call["arguments"])
        trace.append(trace_line(call["tool"], call["arguments"], output))
    if not task.ref and task.check["kind"] != "regex":
        value = task.check["value"]
        output = " ".join(value) if isinstance(value, list) else str(value)
    wall = time.perf_counter() - started
    return TaskResult(
        id=task.id, family=task.family, status="completed", output=output, wall_s=wall,
        cpu_s=time.process_time() - cpu_started, model_s=0.0, tool_s=wall, calls=len(task.ref) + 1,
        prompt_tokens=0, cached_tokens=0, generated_tokens=0, tool_calls=[c["tool"] for c in task.ref], trace=trace,
    )  # fmt: skip
