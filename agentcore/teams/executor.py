"""Where node work runs. The engine hands each node run to an `Executor` as a `NodeJob`; the default runs it
in this process under asyncio with bounded concurrency. A distributed executor (Ray, issue #16) implements the
same one method, so team files and the engine stay unchanged.

A job carries both a ready coroutine factory (`run`, used in-process) and what a remote worker needs to
rebuild it (`team_file`, `node`, `inputs`): a remote executor ships those and loads the team there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agentcore.messages import Usage


@dataclass(slots=True)
class NodeOutput:
    writes: dict[str, Any]
    usage: Usage = field(default_factory=Usage)
    run_id: str | None = None  # the node's own run (a child of the team run)
    detail: dict[str, Any] = field(default_factory=dict)  # e.g. a join's scores


@dataclass(slots=True)
class NodeJob:
    team: str
    node: str
    kind: str
    inputs: dict[str, Any]
    attempt: int
    run: Callable[[], Awaitable[NodeOutput]]
    team_file: str | None = None


class Executor(Protocol):
    async def submit(self, job: NodeJob) -> NodeOutput: ...


class LocalExecutor:
    """Runs jobs in this event loop, at most `concurrency` at a time."""

    def __init__(self, concurrency: int = 4) -> None:
        if concurrency < 1:
            raise ValueError("LocalExecutor needs a concurrency of at least 1")
        self.concurrency = concurrency
        self._limit: asyncio.Semaphore | None = None

    async def submit(self, job: NodeJob) -> NodeOutput:
        if self._limit is None:
            self._limit = asyncio.Semaphore(self.concurrency)
        async with self._limit:
            return await job.run()
