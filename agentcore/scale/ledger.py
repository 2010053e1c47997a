"""The executed-call ledger of a batch: a tool call that already ran is never run again, even across restarts.

Each batch task's tool calls are keyed by (task id, position in the run, tool name, arguments). A call whose key
is in the ledger returns the recorded result instead of running; a new call runs, and its result is appended
(and flushed) to `<results>.calls.jsonl` before the run goes on. So when a task is run again (after an `error`,
a kill, or a restart), the calls it already made replay from the ledger, and only the calls it had not reached
yet run. A call that raised is not recorded: it had no result to keep, and runs again.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import ToolSpec
from agentcore.scale.tasks import ResultWriter

# The batch task this asyncio task runs, and how many tool calls its run has made so far.
_current: ContextVar[list[Any] | None] = ContextVar("agentcore_batch_task", default=None)


@contextlib.contextmanager
def task_scope(task_id: str) -> Iterator[None]:
    """Tool calls inside are keyed under `task_id` (run_batch enters one per task)."""
    token = _current.set([task_id, 0])
    try:
        yield
    finally:
        _current.reset(token)


def ledger_path(results: str | Path) -> Path:
    path = Path(results)
    return path.with_name(path.stem + ".calls.jsonl")


class CallLedger:
    """Recorded tool results by key, loaded from and appended to one JSON Lines file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.results: dict[str, Any] = {}
        if self.path.exists():
            for text in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
                with contextlib.suppress(json.JSONDecodeError, KeyError, TypeError):
                    entry = json.loads(text)
                    self.results[entry["key"]] = entry["result"]
        self._writer = ResultWriter(self.path)  # drops a cut-off last line, appends and flushes
        self.replayed = 0

    def record(self, key: str, result: Any) -> None:
        self._writer.write({"key": key, "result": result})
        self.results[key] = result

    def close(self) -> None:
        self._writer.close()


def call_key(name: str, arguments: dict[str, Any]) -> str | None:
    """The key of this call in the current batch task (None outside a batch task)."""
    state = _current.get()
    if state is None:
        return None
    state[1] += 1
    return f"{state[0]}#{state[1]}:{name}({json.dumps(arguments, sort_keys=True, default=str)})"


class LedgerToolset:
    """A toolset that runs each keyed call at most once, replaying recorded results (see the module doc)."""

    def __init__(self, inner: Any, ledger: CallLedger) -> None:
        self.inner, self.ledger = inner, ledger

    async def __aenter__(self) -> LedgerToolset:
        from agentcore.tools.toolset import toolset_scope

        self._scope = toolset_scope(self.inner)  # the inner toolset's connection (an MCP server) opens as usual
        await self._scope.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._scope.__aexit__(None, None, None)

    async def list_tools(self) -> Sequence[ToolSpec]:
        specs: Sequence[ToolSpec] = await self.inner.list_tools()
        return specs

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        settings: tuple[float | None, int] = self.inner.tool_settings(name)
        return settings

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        key = call_key(name, arguments)
        if key is not None and key in self.ledger.results:
            self.ledger.replayed += 1
            return self.ledger.results[key]
        result = await self.inner.call_tool(name, arguments, ctx)
        if key is not None:
            self.ledger.record(key, _jsonable(result))
        return result


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
