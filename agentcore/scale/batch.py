"""Many tasks through one agent, results appended as JSON Lines as they finish, resumable (see `tasks`).

    report = await run_batch(read_tasks("tasks.jsonl"), agent, "results.jsonl", concurrency=2)

Agent runs, and so their tool calls, happen here in this process; only model calls may go elsewhere (pass
`model=ReplicaPool.start(...)` to spread them over Ray replicas). A tool call is therefore executed once, by this
process, even when a replica dies and its request is retried. Across runs of the same task (a task retried after
an `error`, a killed batch restarted) the executed-call ledger (`ledger`) replays calls that already ran.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentcore.errors import AgentRunError, ModelFailedError
from agentcore.messages import Model
from agentcore.scale.ledger import CallLedger, LedgerToolset, ledger_path, task_scope
from agentcore.scale.tasks import BatchTask, ResultWriter, finished_ids, pending

Progress = Callable[["BatchReport"], None]
RESULT_KEYS = ("id", "status", "output", "error", "seconds", "run_id", "usage", "tool_calls")


@dataclass(slots=True)
class BatchReport:
    """Counts so far (updated as tasks finish), and the wall time of the tasks run in this call."""

    total: int
    skipped: int = 0  # already finished in the results file
    completed: int = 0
    failed: int = 0  # the agent ran and did not succeed (max steps, a blocked run, a timeout)
    errors: int = 0  # the task could not run (a model that kept failing): a restart runs it again
    replayed: int = 0  # tool calls answered from the executed-call ledger instead of running again
    seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter)

    @property
    def done(self) -> int:
        return self.skipped + self.completed + self.failed + self.errors

    @property
    def ran(self) -> int:
        return self.completed + self.failed + self.errors

    @property
    def tasks_per_minute(self) -> float:
        return 60.0 * self.ran / self.seconds if self.seconds > 0 else 0.0

    def count(self, status: str) -> None:
        if status == "completed":
            self.completed += 1
        elif status == "error":
            self.errors += 1
        else:
            self.failed += 1
        self.seconds = time.perf_counter() - self.started


async def run_batch(
    tasks: Sequence[BatchTask],
    agent: Any,
    out: str | Path,
    *,
    model: Model | None = None,
    concurrency: int = 1,
    timeout: float | None = None,
    progress: Progress | None = None,
) -> BatchReport:
    """Run every task of `tasks` not yet finished in `out`, at most `concurrency` at a time, appending one
    result line per task. `model` replaces the agent's model for these runs (e.g. a `ReplicaPool`). The agent's
    tools go through the executed-call ledger `<out stem>.calls.jsonl` (see `agentcore.scale.ledger`)."""
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    todo = pending(tasks, finished_ids(out))
    report = BatchReport(len(tasks), skipped=len(tasks) - len(todo))
    limit = asyncio.Semaphore(concurrency)
    ledger = CallLedger(ledger_path(out))
    with ResultWriter(out) as writer:

        async def one(task: BatchTask) -> None:
            async with limit:
                with task_scope(task.id):
                    result = await run_one(agent, task, timeout)
            writer.write(result)
            report.count(result["status"])
            if progress is not None:
                progress(report)

        if progress is not None:
            progress(report)
        tools = LedgerToolset(agent.current_toolset(), ledger)
        try:
            with agent.override(model=model, tools=tools):  # the runs' tasks inherit it (a context variable)
                await _all(one, todo)
        finally:
            ledger.close()
    report.replayed = ledger.replayed
    return report


async def _all(one: Callable[[BatchTask], Any], todo: Sequence[BatchTask]) -> None:
    running = [asyncio.create_task(one(task)) for task in todo]
    try:
        await asyncio.gather(*running)
    finally:
        for task in running:
            task.cancel()


async def run_one(agent: Any, task: BatchTask, timeout: float | None) -> dict[str, Any]:
    """One task's result line; never raises for a failed run (the line says what happened)."""
    started = time.perf_counter()
    result: Any = None
    try:
        result = await agent.run(task.task, **({"timeout": timeout} if timeout is not None else {}))
        status, error = ("completed" if result.ok else "failed"), result.error
    except ModelFailedError as exc:  # the model never answered: not the agent's outcome, so run it again later
        result, status, error = exc.partial, "error", str(exc)
    except AgentRunError as exc:
        result, status, error = exc.partial, "failed", str(exc)
    except Exception as exc:  # a bug or an unexpected backend failure: recorded, and retried on restart
        status, error = "error", f"{type(exc).__name__}: {exc}"
    line: dict[str, Any] = {k: v for k, v in task.extra.items() if k not in RESULT_KEYS}
    return line | {
        "id": task.id,
        "status": status,
        "output": _jsonable(result.output) if result is not None and status == "completed" else None,
        "error": error,
        "seconds": round(time.perf_counter() - started, 3),
        "run_id": result.run_id if result is not None else None,
        "usage": _usage(result),
        "tool_calls": [s.call.signature() for s in result.steps if s.call] if result is not None else [],
    }


def _jsonable(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def _usage(result: Any) -> dict[str, int]:
    if result is None:
        return {}
    u = result.usage
    return {"calls": u.calls, "prompt": u.prompt_tokens, "cached": u.cached_tokens, "generated": u.generated_tokens}
