"""One run of an Agent from start to finish: context and parentage, toolset scope, timeout and cancellation,
and the end that always happens (`on_run_end`, `RunFinished`) whatever stopped the run.

The Agent builds a `RunDriver`; the driver hands the loop (`agentcore.loop`) only a `RunDeps`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from agentcore import context as run_context
from agentcore import prompting
from agentcore.errors import (
    AgentRunError,
    ModelBackendError,
    ModelFailedError,
    ModelUnavailableError,
    RunCancelledError,
    RunTimeoutError,
    UsageLimitExceeded,
)
from agentcore.events import Event, Notice, RunFinished, RunStarted, global_sinks, no_sink
from agentcore.loop import drive
from agentcore.messages import Message, Usage
from agentcore.policy import Chain, Policy
from agentcore.result import Ledger, RunResult, RunStatus
from agentcore.run_state import LoopSettings, Run, RunDeps
from agentcore.steps import StepPlan
from agentcore.tool_fit import shares_docs
from agentcore.tool_order import in_flow_order
from agentcore.tools.toolset import Toolset, toolset_scope

if TYPE_CHECKING:
    from agentcore.models.base import Model


class RunOwner(Protocol):
    """What a run needs from whoever owns it (the Agent): its configuration, model and tools."""

    name: str
    model: Any
    instructions_text: str
    follow_steps: bool
    check_unfinished: bool
    check_sources: bool
    fetch_first: bool
    number_words: bool
    flow_order: bool
    max_tokens: int
    retries: int
    think: int
    constrain_final: bool

    def current_toolset(self) -> Toolset: ...

    async def aresolve_model(self, progress: Callable[[str], None] | None = None) -> Model: ...

    def output_schema(self) -> dict[str, Any] | None: ...

    def parse_output(self, content: str) -> Any: ...


class RunDriver:
    """Drives one run of `agent` on `task`, after `prior` messages (a conversation so far, system prompt left out)."""

    def __init__(
        self,
        agent: RunOwner,
        task: str,
        *,
        policies: Sequence[Policy],
        deps: Any,
        max_steps: int,
        prior: Sequence[Message],
        on_event: Callable[[Event], None] | None,
    ) -> None:
        self.agent, self.task, self.max_steps = agent, task, max_steps
        self.prior = [m for m in prior if m.role != "system"]
        self.prior_count = 1 + len(self.prior)  # the new system prompt, then the conversation so far
        self.parent = run_context.current_run()
        self.ctx = run_context.child_context(deps, task)
        self.chain = Chain(self._policies(policies))
        self.emit = _fanout([on_event, *_logger(), *global_sinks()])
        self.run: Run | None = None
        self.status: RunStatus = "completed"
        self.error: str | None = None
        self.ledger = Ledger()
        self.reraise: BaseException | None = None

    def _policies(self, policies: Sequence[Policy]) -> list[Policy]:
        """The owner's policies (its own hooks last), with the conversation window outermost in a conversation."""
        if not self.prior:
            return list(policies)
        from agentcore.policies.conversation import ConversationWindow

        return [ConversationWindow(), *policies]

    async def execute(self, limit: float | None, cancel: asyncio.Event | None) -> RunResult[Any]:
        token = run_context.enter(self.ctx)
        started = time.perf_counter()
        try:
            self.emit(self._started())
            await self._guarded(limit, cancel)
            self.ledger.total_seconds = time.perf_counter() - started
            result = await self._finish()
        finally:
            run_context.leave(token)
        self._raise_for(result)
        return result

    async def _guarded(self, limit: float | None, cancel: asyncio.Event | None) -> None:
        try:
            async with toolset_scope(self.agent.current_toolset()):
                await _race(self._prepare_and_drive(), limit, cancel)
        except TimeoutError:
            self._stop("timeout", f"run timed out after {limit}s")
        except asyncio.CancelledError as exc:
            self._stop("cancelled", "run cancelled")
            if cancel is None or not cancel.is_set():
                self.reraise = exc  # cancelled from outside: finish the run, then let the cancellation through
        except (ModelUnavailableError, ModelBackendError) as exc:
            self._stop("error", str(exc))
            self.reraise = exc
        except Exception as exc:  # a hook or toolset bug: the run still ends properly, then the error propagates
            self._stop("error", f"{type(exc).__name__}: {exc}")
            self.reraise = exc

    def _stop(self, status: RunStatus, error: str) -> None:
        self.status, self.error = status, error

    def _spell_out(self) -> None:
        """The task the model and the checks read when tools are offered: spelled quantities as digits. The
        run's result and events keep `self.task`, the user's words."""
        if not self.agent.number_words:
            return
        from agentcore.number_words import with_digits
        from agentcore.task_data import USER_TASK

        written = with_digits(self.task)
        if written != self.task:
            self.ctx.task = written
            self.ctx.metadata[USER_TASK] = self.task  # a text tool's data goes in the user's words (task_data)
            self.ctx.record("task_digits", task=written)

    async def _prepare_and_drive(self) -> None:
        agent, ctx = self.agent, self.ctx
        loading = time.perf_counter()
        model = await agent.aresolve_model(progress=lambda line: self.emit(Notice(ctx.run_id, 0, line)))
        self.ledger.model_seconds += time.perf_counter() - loading  # a first run pulls or loads: model time
        ctx.metadata["model"] = model  # policies that size prompts (the conversation window) read it
        await self.chain.run_start(ctx)
        toolset = agent.current_toolset()
        specs = self.chain.tools(ctx, await toolset.list_tools())
        if agent.flow_order:
            specs = in_flow_order(specs, ctx.task)
        if specs:
            self._spell_out()
        system = prompting.system_message(agent.instructions_text, specs, self.chain.blocks(ctx))
        # a step that no tool's docs share a word with is joined to the next one (agentcore.steps)
        plan = (
            StepPlan.of(ctx.task, lambda step: shares_docs(step, specs))
            if agent.follow_steps and specs
            else StepPlan(())
        )
        if plan.active:
            ctx.record("steps", steps=list(plan.steps))
        messages = [system, *self.prior, prompting.task_message(ctx.task, plan)]
        self.run = Run(RunDeps(model, toolset, self.chain, self._settings(), agent.parse_output), ctx, specs, messages,
                       self.emit, ledger=self.ledger, plan=plan)  # fmt: skip
        await drive(self.run)
        self.status, self.error = self.run.status, self.run.error
        if self.run.failure is not None:
            self.reraise = self.run.failure

    def _settings(self) -> LoopSettings:
        agent = self.agent
        return LoopSettings(
            max_steps=self.max_steps,
            max_tokens=agent.max_tokens,
            retries=agent.retries,
            think=agent.think,
            output_schema=agent.output_schema(),
            constrain_final=agent.constrain_final,
            check_unfinished=agent.check_unfinished,
            check_sources=agent.check_sources,
            fetch_first=agent.fetch_first,
        )

    def _started(self) -> RunStarted:
        ctx, model = self.ctx, self.agent.model
        label = model if isinstance(model, str) else getattr(model, "name", "default")
        return RunStarted(
            ctx.run_id, 0, self.task, str(label), self.agent.name, ctx.parent_run_id, ctx.trace_id
        )  # fmt: skip

    async def _finish(self) -> RunResult[Any]:
        run, ctx = self.run, self.ctx
        result: RunResult[Any] = RunResult(
            run_id=ctx.run_id,
            task=self.task,
            output=run.output if run is not None and self.status == "completed" else None,
            status=self.status,
            steps=run.steps if run is not None else [],
            usage=ctx.usage,
            ledger=self.ledger,
            messages=run.messages if run is not None else [],
            error=self.error if self.status != "completed" else None,
            trace=ctx.trace,
            parent_run_id=ctx.parent_run_id,
            trace_id=ctx.trace_id,
        )
        try:
            await self.chain.run_end(ctx, result)
        except Exception as exc:
            self.reraise = self.reraise or exc
        finally:
            self._roll_up(ctx.usage)
            self.emit(
                RunFinished(
                    ctx.run_id, ctx.step, result.status, result.output, ctx.usage, self.ledger.total_seconds,
                    error=result.error,
                )
            )  # fmt: skip
        return result

    def _roll_up(self, usage: Usage) -> None:
        if self.parent is not None:
            self.parent.usage.add(usage)
            self.parent.record("child_run", run_id=self.ctx.run_id, agent=self.agent.name, calls=usage.calls)

    def _raise_for(self, result: RunResult[Any]) -> None:
        failure = self.reraise
        if isinstance(failure, (ModelUnavailableError, ModelBackendError)):
            raise ModelFailedError(str(failure), result) from failure
        if failure is not None:
            raise failure
        errors: dict[str, type[AgentRunError]] = {
            "max_steps": UsageLimitExceeded,
            "timeout": RunTimeoutError,
            "cancelled": RunCancelledError,
        }
        error_type = errors.get(result.status)
        if error_type is not None:
            raise error_type(result.error or result.status, result)


def _logger() -> list[Callable[[Event], None]]:
    from agentcore.log import event_logger

    found = event_logger()
    return [found] if found is not None else []


def _fanout(sinks: Sequence[Callable[[Event], None] | None]) -> Callable[[Event], None]:
    active = [sink for sink in sinks if sink is not None]
    if not active:
        return no_sink
    if len(active) == 1:
        return active[0]

    def emit(event: Event) -> None:
        for sink in active:
            sink(event)

    return emit


async def _race(coro: Any, timeout: float | None, cancel: asyncio.Event | None) -> None:
    """Await `coro` under a timeout, cancelling it when `cancel` is set (then CancelledError is raised).
    A cancel event set before the start cancels the run before its first step."""
    if cancel is not None and cancel.is_set():
        coro.close()
        raise asyncio.CancelledError
    if cancel is None:
        await asyncio.wait_for(coro, timeout)
        return
    work = asyncio.ensure_future(asyncio.wait_for(coro, timeout))
    waiter = asyncio.ensure_future(cancel.wait())
    try:
        await asyncio.wait({work, waiter}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        work.cancel()  # the caller was cancelled: stop the run too, and wait until it has stopped
        with contextlib.suppress(asyncio.CancelledError):
            await work
        raise
    finally:
        waiter.cancel()
    if not work.done():
        work.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await work
        raise asyncio.CancelledError
    work.result()
