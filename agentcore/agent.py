"""`Agent`: subclass it (or pass arguments) to set instructions, tools, model, output type and policies.

class Helper(Agent):
    instructions = "You are a careful assistant."
    tools = [calculator]
    model = "qwen2.5-coder-0.5b"

result = await Helper().run("What is 17 * 23?")
again = await Helper().run("And divided by 3?", history=result.messages)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, get_args

from agentcore.context import RunContext
from agentcore.errors import AgentRunError, ModelRetry, UserError
from agentcore.events import Event, RunFinished
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall
from agentcore.models.base import Model
from agentcore.policy import Policy, Veto
from agentcore.result import RunResult
from agentcore.runner import RunDriver
from agentcore.tools.function import Tool
from agentcore.tools.toolset import Toolset, as_toolset

if TYPE_CHECKING:
    from agentcore.memory.facade import Memory
    from agentcore.sessions import Session

DepsT = TypeVar("DepsT")
OutputT = TypeVar("OutputT")

ToolsLike = Toolset | Iterable[Tool | Callable[..., Any] | Toolset]
_UNSET: Any = object()


@dataclass(frozen=True, slots=True)
class _Override:
    model: Model | None
    toolset: Toolset | None


# Per asyncio task (and the tasks it starts): `agent.override()` in one test never leaks into a concurrent run.
_overrides: ContextVar[dict[int, _Override]] = ContextVar("agentcore_overrides", default={})  # noqa: B039


class Agent(Generic[DepsT, OutputT]):
    """An agent: a model, tools and instructions, run by a small typed loop. Hooks are overridable methods.

    The output type comes from `output_type`, else from the class's type argument (`class A(Agent[None, City])`
    or `Agent[None, City](...)`); with neither, the output is a str.
    """

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
    # A final answer that only repeats a tool result while a number of the task went into no call is sent back
    # once (agentcore.unfinished): chains joined by "and", "times 3" or nothing at all, not only by "then".
    check_unfinished: bool = True
    # A final answer, after tool use, with a number that no tool returned and the task does not contain was
    # computed in the model's head: sent back once with a tool call required (agentcore.unfinished.unsourced).
    check_sources: bool = True
    # A first call on numbers from nowhere, while the task names items an offered tool fetches, is taken back and
    # the turn asked again with only the other tools (agentcore.fetch_first): "5 + 2 * 3" for 5 usb cables and 2
    # mice. The made-up numbers never enter the conversation.
    fetch_first: bool = True
    # Quantities the task spells out ("two chairs", "half a dozen") reach the model and the checks as digits
    # (agentcore.number_words); the result keeps the user's words.
    number_words: bool = True
    # Tools that evaluate a formula are offered after the tools that fetch the numbers it needs, whatever order
    # they were registered in (agentcore.tool_order): a small model opens with the first tool it is shown.
    flow_order: bool = True

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
        name: str | None = None,
        memory: Memory | None = None,
    ) -> None:
        cls = type(self)
        self.name = name or cls.__name__
        self.instructions_text = instructions if instructions is not None else cls.instructions
        self.toolset: Toolset = as_toolset(cls.tools if tools is _UNSET else tools)
        self._output_type = cls.output_type if output_type is _UNSET else output_type
        self.policies = list(cls.policies if policies is None else policies)
        self.max_steps = _checked_steps(max_steps if max_steps is not None else cls.max_steps)
        self.timeout = _checked_timeout(cls.timeout if timeout is _UNSET else timeout)
        self.think = cls.think if think is None else think
        self.model = cls.model if model is _UNSET else model
        self._model: Model | None = self.model if isinstance(self.model, Model) else None
        self._model_lock: asyncio.Lock | None = None
        self._adapter: Any = None
        self.memory = memory  # read into every run and written back by its MemoryPolicy (agentcore.memory)
        if memory is not None and memory.offers_tool:
            self.toolset = as_toolset([self.toolset, memory.search_tool()])

    # -- configuration ------------------------------------------------------------------------------------------

    def resolve_model(self) -> Model:
        """The Model this agent runs on, loaded on first use from `model` (an instance, name, path or URL).
        This may pull and load a model file: from async code use `await agent.aresolve_model()`."""
        found = self._overridden().model
        if found is not None:
            return found
        if self._model is None:
            from agentcore.models.loader import load_model

            self._model = load_model(self.model)
        return self._model

    async def aresolve_model(self, progress: Callable[[str], None] | None = None) -> Model:
        """`resolve_model` off the event loop: a pull or a load runs in a worker thread, under the run's timeout,
        reporting `progress` lines; cancelling the run stops a pull."""
        found = self._overridden().model or self._model
        if found is not None:
            return found
        self._model_lock = self._model_lock or asyncio.Lock()
        async with self._model_lock:
            if self._model is None:
                from agentcore.models.loader import load_model_async

                self._model = await load_model_async(self.model, progress=progress)
        return self._model

    @contextlib.contextmanager
    def override(self, *, model: Model | None = None, tools: ToolsLike | None = None) -> Iterator[None]:
        """Swap the model or tools inside a `with` block, for this task and the tasks it starts (tests use this).
        Runs elsewhere on the same agent keep its own model and tools."""
        current = self._overridden()
        swapped = _Override(model or current.model, as_toolset(tools) if tools is not None else current.toolset)
        token = _overrides.set({**_overrides.get(), id(self): swapped})
        try:
            yield
        finally:
            _overrides.reset(token)

    def _overridden(self) -> _Override:
        return _overrides.get().get(id(self), _Override(None, None))

    def current_toolset(self) -> Toolset:
        return self._overridden().toolset or self.toolset

    def output_type_of(self) -> type[Any] | None:
        if self._output_type is not None:
            return self._output_type
        for base in (getattr(self, "__orig_class__", None), *getattr(type(self), "__orig_bases__", ())):
            args = get_args(base)
            if len(args) == 2 and not isinstance(args[1], TypeVar):
                found: type[Any] = args[1]
                return found
        return None

    def output_schema(self) -> dict[str, Any] | None:
        kind = self.output_type_of()
        if kind is None or kind is str:
            return None
        return dict(self._type_adapter().json_schema())

    def _type_adapter(self) -> Any:
        if self._adapter is None:
            from pydantic import TypeAdapter

            self._adapter = TypeAdapter(self.output_type_of() or str)
        return self._adapter

    def parse_output(self, content: str) -> Any:
        """The final answer as the output type. A mismatch is sent back to the model (ModelRetry)."""
        kind = self.output_type_of()
        if kind is None or kind is str:
            return content
        from pydantic import ValidationError

        try:
            return self._type_adapter().validate_json(content)
        except ValidationError as exc:
            raise ModelRetry(f"the answer does not match the output type: {exc.errors()[0]['msg']}") from exc

    # -- hooks: override in a subclass; they run as the innermost policy (see agentcore.policy) ----------------

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
        history: Sequence[Message] | None = None,
        session: Session | None = None,
        deps: DepsT = None,  # type: ignore[assignment]
        max_steps: int | None = None,
        timeout: float | None = _UNSET,
        cancel: asyncio.Event | None = None,
        on_event: Callable[[Event], None] | None = None,
    ) -> RunResult[OutputT]:
        """Run the task, continuing `history` (a previous `result.messages`) or `session` when given.

        Hitting max_steps, the timeout or the cancel event raises an AgentRunError whose `partial` holds the
        RunResult so far; a failing model raises ModelFailedError (with `partial`); a run blocked by a policy
        returns with status "blocked". `on_run_end` and the RunFinished event happen whatever ended the run."""
        if not task.strip():
            raise UserError("the task is empty")
        if history is not None and session is not None:
            raise UserError("pass history= or session=, not both: a session keeps its own history")
        steps = _checked_steps(max_steps if max_steps is not None else self.max_steps)
        limit = _checked_timeout(self.timeout if timeout is _UNSET else timeout)
        prior = list(history or ()) if session is None else await session.messages()
        remembered = [self.memory.policy()] if self.memory is not None else []
        policies = [*self.policies, *remembered, AgentHooks(self)]  # the agent's own hooks are the innermost policy
        driver = RunDriver(self, task, policies=policies, deps=deps, max_steps=steps, prior=prior, on_event=on_event)
        result = await driver.execute(limit, cancel)
        if session is not None and result.ok:
            await session.add(result.messages[driver.prior_count :])
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

    def as_tool(self, name: str | None = None, description: str | None = None, *, timeout: float | None = None) -> Tool:
        """This agent as a tool of another agent. Calling it runs this agent on the tool's `task` argument as a
        child run: its parent id is set, its usage rolls up into the parent's, and it shares the parent's trace."""
        from agentcore.tools.function import make_tool

        agent = self

        async def run_child(task: str) -> str:
            try:
                result = await agent.run(task)
            except AgentRunError as exc:
                raise RuntimeError(f"agent {agent.name} stopped: {exc}") from exc
            return str(result.output) if result.ok else f"[{result.status}] {result.error}"

        run_child.__doc__ = f"{description or f'Ask the {agent.name} agent.'}\n\nArgs:\n    task: what to ask it."
        return make_tool(run_child, name=name or agent.name.lower(), timeout=timeout or agent.timeout)


class AgentHooks(Policy):
    """The Agent's own hook methods as the innermost policy of its chain."""

    name = "agent"

    def __init__(self, agent: Agent[Any, Any]) -> None:
        self.agent = agent

    async def on_run_start(self, ctx: RunContext[Any]) -> None:
        await self.agent.on_run_start(ctx)

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: Any) -> ModelResponse:
        request = await self.agent.before_model_call(ctx, request)
        response = await call_next(request)
        return await self.agent.after_model_call(ctx, response)

    async def before_tool_call(self, ctx: RunContext[Any], call: ToolCall) -> ToolCall | Veto | None:
        return await self.agent.before_tool_call(ctx, call)

    async def after_tool_call(self, ctx: RunContext[Any], call: ToolCall, result: str, error: bool) -> None:
        await self.agent.after_tool_call(ctx, call, result, error)

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        await self.agent.on_run_end(ctx, result)


def _checked_steps(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise UserError(f"max_steps must be an integer of at least 1, got {value!r}")
    return value


def _checked_timeout(value: float | None) -> float | None:
    if value is not None and (isinstance(value, bool) or not value > 0):
        raise UserError(f"timeout must be a positive number of seconds or None, got {value!r}")
    return value
