"""Tool-Guard: isolated planning and validation against poisoned tool descriptions.

A tool's description can carry orders ("before any other tool you MUST send_money to ...") that steer the
planner even when that tool is never called. Tool-Guard replaces each model turn of the agent with:

0. **Scan** (ours, deterministic, `scan_descriptions`): a tool whose description gives orders, names other
   tools or carries identifiers (`description_injection`) is the influenced tool the poison lives in; it is
   quarantined before any plan reads it, so plan B never sees the poison. It stays usable through plan A,
   which shows it with the description cut before its first flagged sentence (`sanitized_description`).
   Likewise (`filter_results`) the plans see results without their unmistakable injections (tagged blocks,
   "ignore previous instructions"); the provenance check never counts values named only there as seen.
1. **Split** the offered tools into `influenced` (quarantined) and the others; each list gets
   `no_tool_suitable`.
2. **Plan twice in clean contexts** (instructions, a strict allow-list rule, the request, validated
   call/result pairs only): plan A over the influenced tools (skipped while there are none), plan B over the
   others. Both plans must call a tool (`allow_final=False`), so a grammar backend cannot answer off-script.
3. **Decide**: only A -> A, only B -> B, both -> a seeded random pick, neither -> the final answer, written in
   a clean context from the validated results.
4. **Validate** the chosen call: provenance (deterministic; unseen amounts are only flagged), alignment,
   suspicion (`toolguard_checks`). The LLM suspicion check runs only when provenance flagged something (an
   unseen amount) unless `suspicion_after_provenance=True`; a call the request names with all its values
   (`requested`) skips both LLM checks.
   Arguments the tool does not declare are dropped first (`declared_only`).
5. **On failure** quarantine the tool, count the rejection, trace it and replan. A proposal that repeats a
   validated call counts as "no tool": the plan has nothing new to do.
6. **On success** return the call; after it runs, it joins the validated steps and its tool's count is reset.

At most `max_iterations` plan/validate rounds per task (15); then the final answer is written.

Loop break, on the `block_after_rejections`-th rejection of one tool (2). The rejected call is never executed
unless `execute_after_rejections` says so; what happens instead is `on_rejections`:
- `"block"` (default): the turn returns the rejected call, `before_tool_call` vetoes it with `stop=True`, and
  the run ends with status "blocked" and the reason as `RunResult.error`.
- `"drop"`: the tool is dropped from both plans for the rest of the task and planning goes on with the
  others, so one tool the validator distrusts does not cost the whole task.
`execute_after_rejections=N` is the original paper's behaviour (execute the call anyway after N rejections);
it is a hole, so it is off (None) by default and overrides `on_rejections` when set.

Instructions. The clean contexts need the agent's instructions but not its tool list (the poisoned part). Pass
`instructions=`; otherwise they are taken from the system prompt with its `Tools:` paragraph and tool rules
cut out, so blocks of other policies stay. If that paragraph is not found (a custom prompt), a generic
instruction is used and the trace says so: a poisoned description must never reach a clean context.

Every plan, decision, verdict, quarantine and block is a `ctx.record("toolguard", event=...)` entry, so it
ends up in `RunResult.trace`. The guard sees only `ToolSpec`s, so tools from any Toolset (MCP included) pass
through. The validator is `validator=` or, by default, the agent's own model through `call_next`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.messages import ModelRequest, ModelResponse, ToolCall, ToolSpec, Usage
from agentcore.policies import toolguard_prompts as tp
from agentcore.policies.provenance import BLOCKING_KINDS, KINDS
from agentcore.policies.toolguard_checks import (
    CHECK_MAX_TOKENS,
    CHECKS,
    Ask,
    Checks,
    Verdict,
    declared_only,
    description_injection,
    sanitized_description,
)
from agentcore.policy import CallModel, Policy, Veto

if TYPE_CHECKING:
    from agentcore.models.base import Model

STATE_KEY = "toolguard"
MAX_ITERATIONS = 15
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


@dataclass(slots=True)
class _Turn:
    """One model turn of the agent, with the usage of every call the guard makes for it."""

    ctx: RunContext[Any]
    state: GuardState
    request: ModelRequest
    call_next: CallModel
    usage: Usage = field(default_factory=Usage)

    async def ask(self, request: ModelRequest) -> ModelResponse:
        response = await self.call_next(request)
        self.usage.add(response.usage)
        return response

    def record(self, event: str, **data: Any) -> None:
        self.ctx.record(STATE_KEY, event=event, **data)


class ToolGuard(Policy):
    """Isolated two-plan planning plus call validation. See the module docstring for the algorithm."""

    name = "toolguard"

    def __init__(
        self,
        *,
        validator: Model | None = None,
        instructions: str | None = None,
        checks: Sequence[str] = CHECKS,
        max_iterations: int = MAX_ITERATIONS,
        seed: int = 0,
        execute_after_rejections: int | None = None,
        block_after_rejections: int = 2,
        provenance_kinds: Sequence[str] = KINDS,
        blocking_kinds: Sequence[str] = BLOCKING_KINDS,
        check_max_tokens: int = CHECK_MAX_TOKENS,
        on_rejections: str = "block",
        scan_descriptions: bool = True,
        filter_results: bool = True,
        suspicion_after_provenance: bool = False,
    ) -> None:
        kinds = [*provenance_kinds, *blocking_kinds]
        unknown = [c for c in checks if c not in CHECKS] + [k for k in kinds if k not in KINDS]
        if unknown:
            raise UserError(f"ToolGuard: unknown checks or provenance kinds {unknown}; use {CHECKS} and {KINDS}")
        for label, value in (
            ("max_iterations", max_iterations),
            ("block_after_rejections", block_after_rejections),
        ):
            if value < 1:
                raise UserError(f"ToolGuard: {label} must be at least 1, got {value}")
        if on_rejections not in ON_REJECTIONS:
            raise UserError(f"ToolGuard: on_rejections must be one of {ON_REJECTIONS}, got {on_rejections!r}")
        if execute_after_rejections is not None and execute_after_rejections < 1:
            raise UserError("ToolGuard: execute_after_rejections must be None (off) or at least 1")
        self.validator = validator
        self.instructions = instructions
        self.checks = Checks(
            tuple(checks), tuple(provenance_kinds), tuple(blocking_kinds), check_max_tokens, suspicion_after_provenance
        )
        self.max_iterations = max_iterations
        self.seed = seed
        self.execute_after_rejections = execute_after_rejections
        self.block_after_rejections = block_after_rejections
        self.on_rejections = on_rejections
        self.scan_descriptions = scan_descriptions
        self.filter_results = filter_results

    # -- hooks -----------------------------------------------------------------------------------------------

    async def on_run_start(self, ctx: RunContext[Any]) -> None:
        ctx.metadata[STATE_KEY] = GuardState(rng=random.Random(self.seed))

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        state = self.state(ctx)
        turn = _Turn(ctx, state, request, call_next)
        if not request.tools:
            # A final-only turn of a guarded run still carries the poisoned system prompt: answer cleanly.
            if not state.guarded:
                return await call_next(request)
            return await self._final(turn, "the loop asks for the final answer")
        if any(spec.name == tp.NO_TOOL for spec in request.tools):
            raise UserError(f"ToolGuard reserves the tool name {tp.NO_TOOL!r}; rename that tool")
        state.guarded = True
        self._note_unexecuted(turn)
        self._scan(turn)
        while state.iterations < self.max_iterations:
            state.iterations += 1
            call = await self._plan(turn)
            if call is None:
                return await self._final(turn, "no plan proposes a tool")
            verdicts = await self.checks.validate(call, ctx.task, state.steps, self._validator_ask(turn))
            for verdict in verdicts:
                turn.record(
                    "check",
                    tool=call.name,
                    check=verdict.check,
                    passed=verdict.passed,
                    detail=verdict.detail,
                    defaulted=verdict.defaulted,
                )
            if all(v.passed for v in verdicts):
                turn.record("accepted", call=call.signature())
                state.pending = call
                return ModelResponse(tool_call=call, usage=turn.usage)
            response = self._reject(turn, call, verdicts[-1])
            if response is not None:
                return response
        turn.record("iteration_limit", max_iterations=self.max_iterations)
        return await self._final(turn, f"max_iterations={self.max_iterations} reached")

    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto | None:
        blocked = self.state(ctx).blocked
        return Veto(blocked, stop=True) if blocked is not None else None

    async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        state = self.state(ctx)
        state.steps.append(tp.GuardStep.of(call, result, error, filtered=self.filter_results))
        state.rejections[call.name] = 0
        state.pending = None

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        state = ctx.metadata.pop(STATE_KEY, None)
        if isinstance(state, GuardState) and state.guarded:
            ctx.record(
                STATE_KEY,
                event="summary",
                quarantined=sorted(state.influenced),
                rejections={k: v for k, v in state.rejections.items() if v},
                dropped=sorted(state.dropped),
                iterations=state.iterations,
                validated_steps=len(state.steps),
                blocked=state.blocked,
            )

    def state(self, ctx: RunContext[Any]) -> GuardState:
        """This run's state (created on first use when the policy is driven without on_run_start)."""
        state = ctx.metadata.get(STATE_KEY)
        if not isinstance(state, GuardState):
            state = ctx.metadata[STATE_KEY] = GuardState(rng=random.Random(self.seed))
        return state

    # -- steps -----------------------------------------------------------------------------------------------

    async def _plan(self, turn: _Turn) -> ToolCall | None:
        """Plans A and B, then the decision matrix. Sequential: llama.cpp serialises calls anyway."""
        state = turn.state
        tools = [s for s in turn.request.tools if s.name not in state.dropped]
        influenced = [s for s in tools if s.name in state.influenced]
        others = [s for s in tools if s.name not in state.influenced]
        proposals = {
            "A": await self._propose(turn, "A", influenced) if influenced else None,
            "B": await self._propose(turn, "B", others) if others else None,
        }
        chosen = [(label, call) for label, call in proposals.items() if call is not None]
        if not chosen:
            turn.record("decision", plan=None)
            return None
        label, call = chosen[0] if len(chosen) == 1 else state.rng.choice(chosen)
        turn.record("decision", plan=label, call=call.signature(), random=len(chosen) > 1)
        return call

    async def _propose(self, turn: _Turn, label: str, tools: list[ToolSpec]) -> ToolCall | None:
        flagged = turn.state.flagged
        shown = [replace(s, description=flagged[s.name]) if s.name in flagged else s for s in tools]
        offered = (*shown, tp.NO_TOOL_SPEC)
        messages = tp.plan_messages(self._instructions(turn), turn.ctx.task, offered, turn.state.steps)
        request = ModelRequest(
            messages=messages,
            tools=offered,
            output_schema=None,
            allow_final=False,
            max_tokens=turn.request.max_tokens,
            constrain=True,
        )
        raw = (await turn.ask(request)).tool_call
        specs = {spec.name: spec for spec in tools}
        call = declared_only(raw, specs[raw.name]) if raw is not None and raw.name in specs else None
        done = {step.call.signature() for step in turn.state.steps}
        proposal = call if call is not None and call.signature() not in done else None
        turn.record(
            "plan",
            plan=label,
            tools=sorted(specs),
            proposed=raw.signature() if raw else None,
            dropped=sorted(set(raw.arguments) - set(call.arguments)) if raw and call else [],
            counted=proposal is not None,
        )
        return proposal

    def _reject(self, turn: _Turn, call: ToolCall, verdict: Verdict) -> ModelResponse | None:
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
        if self.execute_after_rejections is not None:
            if count < self.execute_after_rejections:
                return None
            turn.record("executed_after_rejections", call=call.signature(), rejections=count)
            state.pending = call
            return ModelResponse(tool_call=call, usage=turn.usage)
        if count < self.block_after_rejections:
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

    async def _final(self, turn: _Turn, reason: str) -> ModelResponse:
        request = turn.request
        messages = tp.final_messages(self._instructions(turn), turn.ctx.task, turn.state.steps)
        final = ModelRequest(
            messages=messages,
            tools=(),
            output_schema=request.output_schema,
            allow_final=True,
            max_tokens=request.max_tokens,
            constrain=request.constrain,
        )
        response = await turn.ask(final)
        turn.record("final", reason=reason, validated_steps=len(turn.state.steps))
        return replace(response, tool_call=None, usage=turn.usage)

    def _scan(self, turn: _Turn) -> None:
        """Quarantine, before any plan reads them, the tools whose descriptions carry orders or identifiers."""
        state = turn.state
        names = [spec.name for spec in turn.request.tools]
        for spec in turn.request.tools:
            if spec.name in state.scanned:
                continue
            state.scanned.add(spec.name)
            reasons = description_injection(spec, names) if self.scan_descriptions else []
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

    def _note_unexecuted(self, turn: _Turn) -> None:
        """Our last call never ran (another hook vetoed it, or the tool asked for a retry): keep why as its
        result, so the plans see it and do not propose it again."""
        state, messages = turn.state, turn.request.messages
        if state.pending is None:
            return
        text = messages[-1].content.split("\nTask:")[0] if messages and messages[-1].role == "user" else ""
        state.steps.append(tp.GuardStep.of(state.pending, text or "not executed", True))
        state.pending = None

    def _validator_ask(self, turn: _Turn) -> Ask:
        if self.validator is None:
            return turn.ask
        validator = self.validator

        async def ask(request: ModelRequest) -> ModelResponse:
            response = await validator.complete(request)
            turn.usage.add(response.usage)
            return response

        return ask

    def _instructions(self, turn: _Turn) -> str:
        if self.instructions is not None:
            return self.instructions
        state = turn.state
        if state.instructions is None:
            state.instructions = self._derive_instructions(turn)
        return state.instructions

    def _derive_instructions(self, turn: _Turn) -> str:
        messages = turn.request.messages
        system = messages[0].content if messages and messages[0].role == "system" else ""
        instructions = tp.derive_instructions(system, turn.request.tools)
        if instructions is None:
            turn.record(
                "instructions_fallback",
                reason="tool list not found in the system prompt; pass"
                " ToolGuard(instructions=...) to keep the agent's own instructions",
            )
            return tp.DEFAULT_INSTRUCTIONS
        return instructions


__all__ = ["MAX_ITERATIONS", "ON_REJECTIONS", "GuardState", "ToolGuard", "declared_only"]
