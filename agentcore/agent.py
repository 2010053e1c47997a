"""`Agent`: subclass it (or pass arguments) to set instructions, tools, model, output type and policies.

class Helper(Agent):
    instructions = "You are a careful assistant."
    tools = [calculator]
    model = "qwen2.5-coder-0.5b"

result = await Helper().run("What is 17 * 23?")
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.errors import (
    AgentRunError,
    ModelRetry,
    RunCancelledError,
    RunTimeoutError,
    UsageLimitExceeded,
    UserError,
)
from agentcore.events import Event, RunFinished, RunStarted
from agentcore.loop import Run, drive
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall
from agentcore.models.base import Model
from agentcore.policy import Policy, Veto
from agentcore.result import RunResult
from agentcore.steps import StepPlan
from agentcore.tools.function import Tool
from agentcore.tools.toolset import Toolset, as_toolset

DepsT = TypeVar("DepsT")
OutputT = TypeVar("OutputT")

ToolsLike = Toolset | Iterable[Tool | Callable[..., Any] | Toolset]
_UNSET: Any = object()


class Agent(Generic[DepsT, OutputT]):
    """An agent: a model, tools and instructions, run by a small typed loop. Hooks are overridable methods."""

    instructions: ClassVar[str] = "You are a helpful assistant."
    tools: ClassVar[ToolsLike | None] = None
    model: Model | str | None = None
    output_type: ClassVar[type[Any] | None] = None
    policies: Sequence[Policy] = ()
    max_steps: int = 8
    max_tokens: int = 256
    retries: int = 2
    timeout: float | None = None
    think: int = 0  # > 0: each turn starts with a bounded "thought" (see docs/architecture.md for when it helps)
    constrain_final: bool = True  # JSON final answers even without tools: one clean stop, no rambling
    follow_steps: bool = True  # a task written as "do X, then Y" gets no final answer before each step ran

    def __init__(
        self,
        model: Model | str | None = _UNSET,
        *,
        instructions: str | None = None,
        tools: ToolsLike | None = _UNSET,
        output_type: type[Any] | None = _UNSET,
        policies: Sequence[Policy] | None = None,
        max_steps: int | None = None,
        timeout: float | None = _UNSET,
        think: int | None = None,
    ) -> None:
        cls = type(self)
        self.instructions_text = instructions if instructions is not None else cls.instructions
        self.toolset: Toolset = as_toolset(cls.tools if tools is _UNSET else tools)
        self._output_type = cls.output_type if output_type is _UNSET else output_type
        self.policies = list(cls.policies if policies is None else policies)
        self.max_steps = max_steps if max_steps is not None else cls.max_steps
        self.timeout = cls.timeout if timeout is _UNSET else timeout
        self.think = cls.think if think is None else think
        if max_steps is not None and max_steps < 1:
            raise UserError(f"max_steps must be at least 1, got {max_steps}")
        self.model = cls.model if model is _UNSET else model
        self._model: Model | None = self.model if isinstance(self.model, Model) else None
        self._adapter: Any = None

    # -- configuration ------------------------------------------------------------------------------------------

    def resolve_model(self) -> Model:
        """The Model this agent runs on, loaded on first use from `model` (an instance, name, path or URL)."""
        if self._model is None:
            from agentcore.models.loader import load_model

            self._model = load_model(self.model)
        return self._model

    @contextlib.contextmanager
    def override(self, *, model: Model | None = None, tools: ToolsLike | None = None) -> Iterator[None]:
        """Swap the model or tools for the duration of a `with` block (tests use this)."""
        saved = (self._model, self.toolset)
        if model is not None:
            self._model = model
        if tools is not None:
            self.toolset = as_toolset(tools)
        try:
            yield
        finally:
            self._model, self.toolset = saved

    def output_schema(self) -> dict[str, Any] | None:
        if self._output_type is None or self._output_type is str:
            return None
        return dict(self._type_adapter().json_schema())

    def _type_adapter(self) -> Any:
        if self._adapter is None:
            from pydantic import TypeAdapter

            self._adapter = TypeAdapter(self._output_type or str)
        return self._adapter

    def parse_output(self, content: str) -> Any:
        """The final answer as the output type. A mismatch is sent back to the model (ModelRetry)."""
        if self._output_type is None or self._output_type is str:
            return content
        from pydantic import ValidationError

        try:
            return self._type_adapter().validate_json(content)
        except ValidationError as exc:
            raise ModelRetry(f"the answer does not match the output type: {exc.errors()[0]['msg']}") from exc

    # -- hooks: override in a subclass -------------------------------------------------------------------------

    async def on_run_start(self, ctx: RunContext[DepsT]) -> None:
        return None

    async def before_model_call(self, ctx: RunContext[DepsT], request: ModelRequest) -> ModelRequest:
        return request

    async def after_model_call(self, ctx: RunContext[DepsT], response: ModelResponse) -> ModelResponse:
        return response

    async def before_tool_call(self, ctx: RunContext[DepsT], call: ToolCall) -> ToolCall | Veto | None:
        """Return None to proceed, a rewritten ToolCall, or a Veto to refuse the call."""
        return None

    async def after_tool_call(self, ctx: RunContext[DepsT], call: ToolCall, result: str, error: bool) -> None:
        return None

    async def on_run_end(self, ctx: RunContext[DepsT], result: RunResult[OutputT]) -> None:
        return None

    # -- running ---------------------------------------------------------------------------------------------

    async def run(
        self,
        task: str,
        *,
        deps: DepsT = None,  # type: ignore[assignment]
        max_steps: int | None = None,
        timeout: float | None = _UNSET,
        cancel: asyncio.Event | None = None,
        on_event: Callable[[Event], None] | None = None,
    ) -> RunResult[OutputT]:
        """Run the task. Hitting max_steps, the timeout or the cancel event raises an AgentRunError whose
        `partial` holds the RunResult so far; a run blocked by a policy returns with status "blocked"."""
        run = await self._start(task, deps, max_steps, on_event)
        limit = self.timeout if timeout is _UNSET else timeout
        started = time.perf_counter()
        try:
            await _race(drive(run), limit, cancel)
        except TimeoutError:
            run.status, run.error = "timeout", f"run timed out after {limit}s"
        except asyncio.CancelledError:
            run.status, run.error = "cancelled", "run cancelled"
            if cancel is None or not cancel.is_set():
                raise
        finally:
            run.ledger.total_seconds = time.perf_counter() - started
        result = await self._finish(run)
        _raise_for_status(result)
        return result

    def run_sync(self, task: str, **kwargs: Any) -> RunResult[OutputT]:
        """`run` for code that is not async (scripts, notebooks without a loop)."""
        return asyncio.run(self.run(task, **kwargs))

    async def stream(self, task: str, **kwargs: Any) -> AsyncIterator[Event]:
        """Yield the run's typed events as they happen; the last one is RunFinished.
        Run errors that ended with a RunFinished (max_steps, timeout) are in that event; others are raised."""
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        runner = asyncio.create_task(self._run_to_queue(task, queue, kwargs))
        finished = False
        try:
            while (event := await queue.get()) is not None:
                finished = finished or isinstance(event, RunFinished)
                yield event
        finally:
            if not runner.done():
                runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                error = await runner
                if error is not None and not finished:
                    raise error

    async def _run_to_queue(
        self, task: str, queue: asyncio.Queue[Event | None], kwargs: dict[str, Any]
    ) -> BaseException | None:
        try:
            await self.run(task, on_event=queue.put_nowait, **kwargs)
        except Exception as exc:
            return exc
        finally:
            queue.put_nowait(None)
        return None

    async def _start(
        self, task: str, deps: Any, max_steps: int | None, on_event: Callable[[Event], None] | None
    ) -> Run:
        if not task.strip():
            raise UserError("the task is empty")
        from agentcore.log import event_logger

        ctx: RunContext[Any] = RunContext(deps=deps, run_id=uuid.uuid4().hex[:12], task=task)
        sinks = [sink for sink in (on_event, event_logger()) if sink is not None]
        emit = _fanout(sinks)
        for policy in self.policies:
            await policy.on_run_start(ctx)
        await self.on_run_start(ctx)
        specs = tuple(await self.toolset.list_tools())
        for policy in self.policies:
            specs = tuple(policy.filter_tools(ctx, specs))
        blocks = [block for policy in self.policies for block in policy.system_blocks(ctx)]
        system = prompting.system_prompt(self.instructions_text, specs, blocks)
        plan = StepPlan.of(task) if self.follow_steps and specs else StepPlan(())
        if plan.active:
            ctx.record("steps", steps=list(plan.steps))
        messages = [Message("system", system), prompting.task_message(task, plan)]
        emit(RunStarted(ctx.run_id, 0, task, self.resolve_model().name))
        return Run(self, ctx, specs, messages, emit, max_steps or self.max_steps, plan=plan)

    async def _finish(self, run: Run) -> RunResult[OutputT]:
        result: RunResult[OutputT] = RunResult(
            run_id=run.ctx.run_id,
            task=run.ctx.task,
            output=run.output if run.status == "completed" else None,
            status=run.status,
            steps=run.steps,
            usage=run.usage,
            ledger=run.ledger,
            messages=run.messages,
            error=run.error,
            trace=run.ctx.trace,
        )
        for policy in self.policies:
            await policy.on_run_end(run.ctx, result)
        await self.on_run_end(run.ctx, result)
        run.emit(
            RunFinished(run.ctx.run_id, run.ctx.step, run.status, result.output, run.usage, run.ledger.total_seconds)
        )
        return result


def _fanout(sinks: list[Callable[[Event], None]]) -> Callable[[Event], None]:
    if not sinks:
        return lambda event: None
    if len(sinks) == 1:
        return sinks[0]

    def emit(event: Event) -> None:
        for sink in sinks:
            sink(event)

    return emit


async def _race(coro: Any, timeout: float | None, cancel: asyncio.Event | None) -> None:
    """Await `coro` under a timeout, cancelling it when `cancel` is set (then CancelledError is raised)."""
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


def _raise_for_status(result: RunResult[Any]) -> None:
    errors: dict[str, type[AgentRunError]] = {
        "max_steps": UsageLimitExceeded,
        "timeout": RunTimeoutError,
        "cancelled": RunCancelledError,
    }
    error_type = errors.get(result.status)
    if error_type is not None:
        raise error_type(result.error or result.status, result)
