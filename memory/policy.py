"""`MemoryPolicy`: reads memory into every run and writes the run back.

Before the first turn it recalls facts and lessons for the task and puts them in the system prompt as one typed
`memory` section (rendered by `agentcore.prompting` as notes and advice, never as instructions); computed once per
run, so the prompt prefix stays stable. After the run it stores the exchange and records the run as a trajectory
with its outcome (the memory's verifier, else unknown until feedback).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agentcore.context import RunContext
from agentcore.messages import MemoryItem, Section, ToolCall
from agentcore.policy import Policy

if TYPE_CHECKING:
    from agentcore.messages import Model
    from agentcore.result import RunResult


class RunMemory(Protocol):
    """What the policy needs of a memory (agentcore.memory.facade.Memory, which builds this policy: a protocol
    here keeps the two modules from importing each other)."""

    async def recall(self, task: str, model: Model | None = None) -> tuple[tuple[MemoryItem, ...], tuple[str, ...]]: ...

    async def after_run(
        self, ctx: RunContext[Any], result: RunResult[Any], retrieved: tuple[str, ...], tool_texts: tuple[str, ...]
    ) -> None: ...


TOOL_TEXT_CHARS = 400  # of each tool result kept to check lessons against (a planted instruction is short)


@dataclass(slots=True)
class _RunMemo:
    items: tuple[MemoryItem, ...] = ()
    retrieved: tuple[str, ...] = ()
    tool_texts: list[str] = field(default_factory=list)


class MemoryPolicy(Policy):
    name = "memory"

    def __init__(self, memory: RunMemory) -> None:
        self.memory = memory
        self._runs: dict[str, _RunMemo] = {}

    async def on_run_start(self, ctx: RunContext[Any]) -> None:
        items, retrieved = await self.memory.recall(ctx.task, ctx.metadata.get("model"))
        self._runs[ctx.run_id] = _RunMemo(items, retrieved)
        if items:
            ctx.record(self.name, recalled=[i.ref for i in items])

    def system_blocks(self, ctx: RunContext[Any]) -> Sequence[str | Section]:
        memo = self._runs.get(ctx.run_id)
        return [Section("memory", items=memo.items)] if memo is not None and memo.items else []

    async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        memo = self._runs.get(ctx.run_id)
        if memo is not None:
            memo.tool_texts.append(result[:TOOL_TEXT_CHARS])

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        memo = self._runs.pop(ctx.run_id, None) or _RunMemo()
        await self.memory.after_run(ctx, result, memo.retrieved, tuple(memo.tool_texts))
