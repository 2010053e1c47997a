"""The interface policies implement, and `Chain`, the one place that runs them.

A policy overrides only what it needs. The order is the list order, outermost first, and the Agent's own hooks
run last, as the innermost policy (`agentcore.agent.AgentHooks`):

- `on_run_start`, `filter_tools`, `system_blocks`: each policy in order, then the agent.
- `wrap_model_turn`: the first policy wraps all the others; the agent's `before_model_call` /
  `after_model_call` sit right around the model. A policy picks the model for a turn by setting
  `request.model` before `call_next`: every policy after it still runs. A wrapper that answers without
  `call_next` (Tool-Guard's own planning calls go through `call_next` too) hides the turn from the policies
  after it, so none of ours does.
- `before_tool_call`: in order; the first `Veto` wins, a returned `ToolCall` replaces the call for the next.
- `after_tool_call`, `on_run_end`: in order. `on_run_end` runs for every policy even when one raises (the first
  error is re-raised after all have run), whatever ended the run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import ModelRequest, ModelResponse, Section, ToolCall, ToolSpec

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

    def system_blocks(self, ctx: RunContext[Any]) -> Sequence[str | Section]:
        """Extra blocks for the system prompt: text (advice) or typed sections (recalled memory). Computed once per
        run: the prefix stays stable."""
        return []

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        return await call_next(request)

    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto | None:
        return None

    async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        return None

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        return None


class Chain:
    """Runs a run's policies at each hook point, in the documented order (see the module doc)."""

    def __init__(self, policies: Sequence[Policy]) -> None:
        self.policies = tuple(policies)

    async def run_start(self, ctx: RunContext[Any]) -> None:
        for policy in self.policies:
            await policy.on_run_start(ctx)

    def tools(self, ctx: RunContext[Any], specs: Sequence[ToolSpec]) -> tuple[ToolSpec, ...]:
        for policy in self.policies:
            specs = tuple(policy.filter_tools(ctx, specs))
        return tuple(specs)

    def blocks(self, ctx: RunContext[Any]) -> list[str | Section]:
        return [block for policy in self.policies for block in policy.system_blocks(ctx)]

    def model_turn(self, ctx: RunContext[Any], base: CallModel) -> CallModel:
        call_next = base
        for policy in reversed(self.policies):
            call_next = partial(policy.wrap_model_turn, ctx, call_next=call_next)
        return call_next

    async def before_tool(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto:
        for policy in self.policies:
            decision = await policy.before_tool_call(ctx, call)
            if isinstance(decision, Veto):
                return decision
            if decision is not None:
                call = decision
        return call

    async def after_tool(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        for policy in self.policies:
            await policy.after_tool_call(ctx, call, result, error)

    async def run_end(self, ctx: RunContext[Any], result: Any) -> None:
        first: BaseException | None = None
        for policy in self.policies:
            try:
                await policy.on_run_end(ctx, result)
            except Exception as exc:  # every policy cleans up; the first failure is raised afterwards
                first = first or exc
        if first is not None:
            raise first
