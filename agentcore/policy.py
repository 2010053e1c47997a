"""The interface policies implement: middleware around the steps of the loop.

A policy overrides only what it needs. The loop calls every policy in order, then the Agent's own hooks.
Tool-Guard wraps the model turn (it chooses the tool call); the advisor adds to the system prompt; the context
policy rewrites the request. The Toolset passes through them unchanged, so MCP tools are guarded like local ones.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import ModelRequest, ModelResponse, ToolCall, ToolSpec

CallModel = Callable[[ModelRequest], Awaitable[ModelResponse]]


@dataclass(frozen=True, slots=True)
class Veto:
    """Returned by before_tool_call to refuse a call. `reason` is shown to the model; `stop` ends the run."""

    reason: str
    stop: bool = False


class Policy:
    """Base class with pass-through defaults. Subclass and override the hooks you need."""

    name: str = "policy"

    async def on_run_start(self, ctx: RunContext[Any]) -> None:
        return None

    def filter_tools(self, ctx: RunContext[Any], tools: Sequence[ToolSpec]) -> Sequence[ToolSpec]:
        """The tools this run may see, decided once before the first turn (a router may offer none)."""
        return tools

    def system_blocks(self, ctx: RunContext[Any]) -> list[str]:
        """Extra blocks for the system prompt (experience, advice). Computed once per run: the prefix stays stable."""
        return []

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        return await call_next(request)

    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto | None:
        return None

    async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        return None

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        return None
