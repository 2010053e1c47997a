"""The run loop as a small typed state machine: ModelTurn -> ToolTurn -> ModelTurn ... -> Finish.

Each step is a short coroutine that returns the next step. The `Run` object holds the state; the Agent supplies
model, toolset, hooks and policies. Nothing here blocks the event loop: models and sync tools run in threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.errors import ContextOverflowError, ModelError, ModelRetry
from agentcore.events import Event, ModelCalled, Notice, ToolCalled
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall, ToolSpec, Usage
from agentcore.policy import CallModel, Veto
from agentcore.result import Ledger, RunStatus, Step
from agentcore.steps import StepPlan

if TYPE_CHECKING:
    from agentcore.agent import Agent


@dataclass(slots=True)
class Run:
    """Mutable state of one run."""

    agent: Agent[Any, Any]
    ctx: RunContext[Any]
    specs: tuple[ToolSpec, ...]
    messages: list[Message]
    emit: Callable[[Event], None]
    max_steps: int
    steps: list[Step] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    ledger: Ledger = field(default_factory=Ledger)
    seen_calls: dict[str, str] = field(default_factory=dict)
    failed_calls: set[str] = field(default_factory=set)
    retries: dict[str, int] = field(default_factory=dict)
    final_only: bool = False
    excluded: frozenset[str] = frozenset()
    repeats: int = 0
    forced: frozenset[str] | None = None  # tools the next turn must call (None: no constraint; used once)
    forced_once: bool = False
    plan: StepPlan = field(default_factory=lambda: StepPlan(()))
    output: Any = None
    status: RunStatus = "completed"
    error: str | None = None

    def notice(self, message: str, **data: Any) -> None:
        self.ctx.record("notice", message=message, **data)
        self.emit(Notice(self.ctx.run_id, self.ctx.step, message, data))


@dataclass(frozen=True, slots=True)
class ModelTurn:
    async def execute(self, run: Run) -> NextStep:
        if len(run.steps) >= run.max_steps:
            return Finish("max_steps", f"stopped after max_steps={run.max_steps} model turns")
        run.ctx.step = len(run.steps) + 1
        request = build_request(run)
        started = time.perf_counter()
        try:
            response = await call_model(run, request)
        except ContextOverflowError as exc:
            return Finish("error", str(exc))
        except ModelError as exc:
            return retry_or_finish(run, "model", "the model output", str(exc))
        seconds = time.perf_counter() - started
        record_model_step(run, response, seconds)
        if response.tool_call is not None:
            return ToolTurn(response.tool_call, response.raw)
        return FinalTurn(response.content or "", response.raw)


@dataclass(frozen=True, slots=True)
class ToolTurn:
    call: ToolCall
    raw: str = ""

    async def execute(self, run: Run) -> NextStep:
        step = run.steps[-1]
        step.call = self.call
        run.messages.append(prompting.assistant_turn(self.call, None, self.raw))
        signature = self.call.signature()
        if signature in run.seen_calls:
            return repeated(run, self.call, signature)
        decision = await before_tool(run, self.call)
        if isinstance(decision, Veto):
            run.notice(f"tool call vetoed: {decision.reason}", call=signature)
            if decision.stop:
                return Finish("blocked", decision.reason)
            run.messages.append(prompting.retry_message(run.ctx.task, f"Calling {self.call.name}", decision.reason))
            return ModelTurn()
        call = decision
        result, error, retry = await execute_tool(run, call, step)
        if retry:
            return retry_or_finish(run, call.name, f"Calling {call.name}", result)
        run.seen_calls[call.signature()] = result
        if error:
            run.failed_calls.add(call.signature())
        else:
            run.plan.advance(result)
        run.retries.pop(call.name, None)  # retry limits count consecutive failures
        for policy in run.agent.policies:
            await policy.after_tool_call(run.ctx, call, result, error)
        await run.agent.after_tool_call(run.ctx, call, result, error)
        run.messages.append(prompting.observation(run.ctx.task, call, result, error=error, plan=run.plan))
        return ModelTurn()


@dataclass(frozen=True, slots=True)
class FinalTurn:
    content: str
    raw: str = ""

    async def execute(self, run: Run) -> NextStep:
        run.messages.append(prompting.assistant_turn(None, self.content, self.raw))
        missing = unused_named_tools(run)
        if missing:
            # A chain stopped one step early: the task names a tool that was never called. Once, force it.
            run.forced = frozenset(missing)
            run.notice("final answer before using a tool the task names; that tool is required next", tools=missing)
            run.messages.append(prompting.missing_tool_notice(run.ctx.task, missing))
            return ModelTurn()
        try:
            run.output = run.agent.parse_output(self.content)
        except ModelRetry as exc:
            return retry_or_finish(run, "output", "The final answer", str(exc))
        return Finish("completed", None)


@dataclass(frozen=True, slots=True)
class Finish:
    status: RunStatus
    error: str | None

    async def execute(self, run: Run) -> NextStep:
        run.status, run.error = self.status, self.error
        return self


NextStep = ModelTurn | ToolTurn | FinalTurn | Finish


async def drive(run: Run) -> None:
    """Run steps until Finish. Cancellation and timeouts propagate; the caller keeps the partial state."""
    step: NextStep = ModelTurn()
    while not isinstance(step, Finish):
        step = await step.execute(run)
    await step.execute(run)


def repeated(run: Run, call: ToolCall, signature: str) -> NextStep:
    """A repeated identical call: tell the model and take that tool out of the next turn's grammar.
    A second repeat, or a repeat of a call that failed, allows only a final answer: a small model that retries a
    failed call unchanged is usually calling a tool the task does not need ("calculator('capital(France)')")."""
    run.repeats += 1
    run.final_only = run.repeats >= 2 or signature in run.failed_calls
    run.excluded = frozenset({call.name})
    run.notice("repeated identical tool call; that tool is excluded from the next turn", call=signature)
    latest = next((s.result for s in reversed(run.steps) if s.result is not None and not s.tool_error), None)
    step = run.steps[-1]
    step.result, step.tool_error = run.seen_calls[signature], signature in run.failed_calls
    step.notes.append("repeated call: not executed again")
    run.messages.append(prompting.repeated_call_notice(run.ctx.task, call, run.seen_calls[signature], latest))
    return ModelTurn()


def unused_named_tools(run: Run) -> list[str]:
    """Tools the task names ("use the calculator") that the run has not called; checked once per run."""
    if run.forced_once or run.final_only:
        return []
    run.forced_once = True
    called = {step.call.name for step in run.steps if step.call is not None}
    return [name for name in prompting.named_tools(run.ctx.task, run.specs) if name not in called]


def build_request(run: Run) -> ModelRequest:
    tools = () if run.final_only else tuple(s for s in run.specs if s.name not in run.excluded)
    forced, run.forced, run.excluded = run.forced, None, frozenset()
    if forced and not run.final_only:
        tools = tuple(s for s in run.specs if s.name in forced)
    return ModelRequest(
        messages=tuple(run.messages),
        tools=tools,
        output_schema=run.agent.output_schema(),
        allow_final=not (forced and tools) and not (run.plan.done and run.plan.remaining and tools),
        max_tokens=run.agent.max_tokens,
        think=run.agent.think,
        constrain=bool(run.specs) or run.agent.output_schema() is not None or run.agent.constrain_final,
    )


async def call_model(run: Run, request: ModelRequest) -> ModelResponse:
    agent = run.agent
    request = await agent.before_model_call(run.ctx, request)

    async def base(req: ModelRequest) -> ModelResponse:
        return await agent.resolve_model().complete(req)

    call_next: CallModel = base
    for policy in reversed(agent.policies):
        call_next = partial(policy.wrap_model_turn, run.ctx, call_next=call_next)
    response = await call_next(request)
    return await agent.after_model_call(run.ctx, response)


def record_model_step(run: Run, response: ModelResponse, seconds: float) -> None:
    usage = response.usage
    run.usage.add(usage)
    run.ctx.usage.add(usage)
    run.ledger.model_seconds += seconds
    run.steps.append(Step(index=run.ctx.step, usage=usage, model_seconds=seconds, content=response.content))
    run.emit(ModelCalled(run.ctx.run_id, run.ctx.step, usage, seconds, response.tool_call, response.content))


async def before_tool(run: Run, call: ToolCall) -> ToolCall | Veto:
    for hook in [*(p.before_tool_call for p in run.agent.policies), run.agent.before_tool_call]:
        decision = await hook(run.ctx, call)
        if isinstance(decision, Veto):
            return decision
        if decision is not None:
            call = decision
    return call


async def execute_tool(run: Run, call: ToolCall, step: Step) -> tuple[str, bool, bool]:
    """(result text, error, retry). Exceptions never escape: the model sees them and carries on."""
    step.call = call
    started = time.perf_counter()
    error = retry = False
    try:
        value = await run.agent.toolset.call_tool(call.name, call.arguments, run.ctx)
        result = prompting.format_result(value)
    except ModelRetry as exc:
        result, retry = str(exc), True
    except TimeoutError:
        timeout, _ = run.agent.toolset.tool_settings(call.name)
        result, error = f"timed out after {timeout}s", True
    except Exception as exc:  # a crashing tool must not crash the run
        result, error = f"{type(exc).__name__}: {exc}", True
    seconds = time.perf_counter() - started
    step.result, step.tool_error, step.tool_seconds = result, error, seconds
    run.ledger.tool_seconds += seconds
    run.emit(ToolCalled(run.ctx.run_id, run.ctx.step, call, result, seconds, error or retry))
    return result, error, retry


def retry_or_finish(run: Run, key: str, what: str, message: str) -> NextStep:
    """Send the problem back to the model, a bounded number of times per tool / output."""
    run.retries[key] = run.retries.get(key, 0) + 1
    limit = run.agent.toolset.tool_settings(key)[1] if key not in ("model", "output") else run.agent.retries
    if run.retries[key] > limit:
        return Finish("error", f"{what} failed {run.retries[key]} times: {message}")
    run.notice(f"retry: {what} failed: {message}", attempt=run.retries[key])
    run.messages.append(prompting.retry_message(run.ctx.task, what, message))
    return ModelTurn()
