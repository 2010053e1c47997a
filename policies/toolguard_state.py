"""Tool-Guard's per-task state and what changes it: the description scan, rejections and the loop break.

`GuardState` lives in `ctx.metadata` (one ToolGuard serves concurrent runs); `Turn` is one model turn of the
agent with the usage of every call the guard makes for it. Quarantine has two sources: the deterministic
description scan (`scan`, before any plan reads a poisoned description) and a failed check (`Rejections`),
which also counts the tool's rejections and applies the loop-break rule (block, drop, or execute anyway).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import Message, ModelRequest, ModelResponse, NoticePart, ToolCall, ToolSpec, Usage
from agentcore.policies import toolguard_prompts as tp
from agentcore.policies.toolguard_checks import Verdict, description_injection, sanitized_description
from agentcore.policy import CallModel

STATE_KEY = "toolguard"
ON_REJECTIONS = ("block", "drop")


@dataclass(slots=True)
class GuardState:
    """Per-task state, kept in `ctx.metadata` so one ToolGuard can serve concurrent runs."""

    rng: random.Random
    influenced: set[str] = field(default_factory=set)
    steps: list[tp.GuardStep] = field(default_factory=list)
    rejections: dict[str, int] = field(default_factory=dict)
    iterations: int = 0
    instructions: str | None = None
    pending: ToolCall | None = None  # returned to the loop, not yet reported executed
    blocked: str | None = None
    guarded: bool = False  # a turn with tools went through the guard
    scanned: set[str] = field(default_factory=set)  # tools whose descriptions were scanned
    flagged: dict[str, str] = field(default_factory=dict)  # scan-flagged tool -> the description plans see
    dropped: set[str] = field(default_factory=set)  # tools out of both plans (on_rejections="drop")
    listed: tuple[ToolSpec, ...] = ()  # stable-first layout: the tools plan B's system message lists
    description_scan: bool = False  # descriptions were scanned, so the plans may share one tool list


@dataclass(slots=True)
class Turn:
    """One model turn of the agent, with the usage of every call the guard makes for it.

    `fixed_instructions`: ToolGuard(instructions=...); None derives them once per task from the system prompt."""

    ctx: RunContext[Any]
    state: GuardState
    request: ModelRequest
    call_next: CallModel
    fixed_instructions: str | None = None
    usage: Usage = field(default_factory=Usage)
    plan_layout: str = "stable_first"  # ToolGuard(plan_layout=...): toolguard_prompts.PLAN_LAYOUTS

    async def ask(self, request: ModelRequest) -> ModelResponse:
        if request.model is None:  # a model chosen before the guard (a routing tier) answers its plans too
            request = replace(request, model=self.request.model)
        response = await self.call_next(request)
        self.usage.add(response.usage)
        return response

    def record(self, event: str, **data: Any) -> None:
        self.ctx.record(STATE_KEY, event=event, **data)

    def instructions(self) -> str:
        """What the clean contexts use as the agent's instructions (never its tool list)."""
        if self.fixed_instructions is not None:
            return self.fixed_instructions
        if self.state.instructions is None:
            self.state.instructions = self._derive_instructions()
        return self.state.instructions

    def _derive_instructions(self) -> str:
        messages = self.request.messages
        system = messages[0] if messages and messages[0].role == "system" else Message("system", "")
        instructions = tp.derive_instructions(system, self.request.tools)
        if instructions is None:
            self.record(
                "instructions_fallback",
                reason="the system prompt has no typed sections; pass"
                " ToolGuard(instructions=...) to keep the agent's own instructions",
            )
            return tp.DEFAULT_INSTRUCTIONS
        return instructions


def scan(turn: Turn, enabled: bool = True) -> None:
    """Quarantine, before any plan reads them, the tools whose descriptions carry orders or identifiers."""
    state = turn.state
    state.description_scan = enabled
    names = [spec.name for spec in turn.request.tools]
    for spec in turn.request.tools:
        if spec.name in state.scanned:
            continue
        state.scanned.add(spec.name)
        reasons = description_injection(spec, names) if enabled else []
        if reasons:
            state.influenced.add(spec.name)
            state.flagged[spec.name] = sanitized_description(spec, names)
            turn.record(
                "quarantine",
                tool=spec.name,
                call=None,
                check="description",
                reason="; ".join(reasons),
                rejections=0,
            )


def note_unexecuted(turn: Turn) -> None:
    """Our last call never ran (another hook vetoed it, or the tool asked for a retry): keep why as its
    result, so the plans see it and do not propose it again."""
    state, messages = turn.state, turn.request.messages
    if state.pending is None:
        return
    last = messages[-1].part if messages else None
    text = f"{last.what} failed: {last.message}" if isinstance(last, NoticePart) and last.notice == "retry" else ""
    state.steps.append(tp.GuardStep.of(state.pending, text or "not executed", True))
    state.pending = None


@dataclass(frozen=True, slots=True)
class Rejections:
    """The loop-break rule: after `block_after` rejections of one tool, block the run or drop the tool
    (`on_rejections`); `execute_after`, when set, executes the call after that many instead (the paper's hole)."""

    block_after: int = 2
    on_rejections: str = "block"
    execute_after: int | None = None

    def reject(self, turn: Turn, call: ToolCall, verdict: Verdict) -> ModelResponse | None:
        """Quarantine and count; a response when the loop-break rule ends replanning (execute or block)."""
        state = turn.state
        state.influenced.add(call.name)
        count = state.rejections[call.name] = state.rejections.get(call.name, 0) + 1
        turn.record(
            "quarantine",
            tool=call.name,
            call=call.signature(),
            check=verdict.check,
            reason=verdict.detail,
            rejections=count,
        )
        if self.execute_after is not None:
            if count < self.execute_after:
                return None
            turn.record("executed_after_rejections", call=call.signature(), rejections=count)
            state.pending = call
            return ModelResponse(tool_call=call, usage=turn.usage)
        if count < self.block_after:
            return None
        if self.on_rejections == "drop":
            state.dropped.add(call.name)
            turn.record("dropped", tool=call.name, call=call.signature(), rejections=count, check=verdict.check)
            return None
        state.blocked = (
            f"Tool-Guard blocked {call.name}: rejected {count} times, last by the {verdict.check} check"
            f" ({verdict.detail})"
        )
        turn.record("blocked", call=call.signature(), reason=state.blocked)
        return ModelResponse(tool_call=call, usage=turn.usage)


__all__ = ["ON_REJECTIONS", "STATE_KEY", "GuardState", "Rejections", "Turn", "note_unexecuted", "scan"]
