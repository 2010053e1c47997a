"""Deterministic models for tests — ours and our users'.

- `ScriptedModel`: a queue of scripted turns. Records every request, fails on an unexpected extra call, and
  `assert_complete()` checks that every scripted turn was used.
- `FunctionModel`: a function from the request to a response, for behaviour that depends on the prompt.

Turns are given as `ToolCall`s, strings (final answers) or full `ModelResponse`s. Constrained requests are
checked as a real backend would: a scripted call to a tool the request does not offer is a test error.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace

from agentcore.errors import ModelError
from agentcore.messages import ModelRequest, ModelResponse, ToolCall, Usage

Turn = ModelResponse | ToolCall | str
ModelFunction = Callable[[ModelRequest], Turn | Awaitable[Turn]]


def call(name: str, /, **arguments: object) -> ToolCall:
    """Shorthand for a scripted tool call: `call("calculator", expression="2+2")`."""
    return ToolCall(name=name, arguments=dict(arguments))


def _as_response(turn: Turn, request: ModelRequest) -> ModelResponse:
    if isinstance(turn, ToolCall):
        offered = {spec.name for spec in request.tools}
        if turn.name not in offered:
            raise ModelError(f"scripted call to {turn.name!r}, but the request offers only {sorted(offered)}")
        response = ModelResponse(tool_call=turn)
    else:
        response = ModelResponse(content=turn) if isinstance(turn, str) else turn
        if response.tool_call is None and request.tools and not request.allow_final:
            raise ModelError("scripted final answer, but the request's grammar allows only a tool call")
    prompt = sum(len(m.content.split()) for m in request.messages)
    usage = response.usage if response.usage.calls else Usage(prompt_tokens=prompt, generated_tokens=1, calls=1)
    return replace(response, usage=usage)


class ScriptedModel:
    """Plays back `turns` in order, one per call."""

    def __init__(self, turns: Iterable[Turn], *, name: str = "scripted", delay: float = 0.0) -> None:
        self._turns = list(turns)
        self._name = name
        self.delay = delay
        self.requests: list[ModelRequest] = []

    @property
    def name(self) -> str:
        return self._name

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        if len(self.requests) > len(self._turns):
            raise AssertionError(
                f"ScriptedModel: unexpected call #{len(self.requests)}; only {len(self._turns)} turns were scripted"
            )
        if self.delay:
            await asyncio.sleep(self.delay)
        return _as_response(self._turns[len(self.requests) - 1], request)

    def assert_complete(self) -> None:
        if len(self.requests) != len(self._turns):
            raise AssertionError(f"ScriptedModel: {len(self._turns)} turns scripted, {len(self.requests)} used")


class FunctionModel:
    """Answers each request with `function(request)` (sync or async)."""

    def __init__(self, function: ModelFunction, *, name: str = "function") -> None:
        self._function = function
        self._name = name
        self.requests: list[ModelRequest] = []

    @property
    def name(self) -> str:
        return self._name

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        turn = self._function(request)
        if inspect.isawaitable(turn):
            turn = await turn
        return _as_response(turn, request)


__all__ = ["FunctionModel", "Heartbeat", "ScriptedModel", "call"]


class Heartbeat:
    """Counts ticks of a task that sleeps `interval` seconds in a loop: a test's proof that the event loop stayed
    free while a tool, a model load or a pull ran (`async with Heartbeat() as beat: ...; beat.ticks`)."""

    def __init__(self, interval: float = 0.02) -> None:
        self.interval = interval
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.ticks += 1

    async def __aenter__(self) -> Heartbeat:
        self._task = asyncio.create_task(self._beat())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
