"""Agent-Omit style context policy: old tool observations are shortened or omitted, in blocks.

An observation is the user turn the loop writes after a tool call (`prompting.observation`). Old observations
matter less than new ones, so:

- the last `keep_last` observations stay verbatim;
- in older ones the tool result shrinks to a one-line summary;
- an old result that a later (also old) observation repeats is replaced by a pointer to that call;
- old observations lose their guidance (`omit_guidance`): the "Done: ... Original task: ..." lines and the
  closing instruction steer only the turn right after them (Agent-Omit's redundant observation parts). The
  task message and the recent observations keep the task, so no constraint is lost.

Only the result and the guidance inside an observation are rewritten: its head is kept as it is.
Observations are recognised by rendering `prompting.observation` around a marker, so the trimmer follows the
loop's turn design instead of parsing it with patterns.

Measured (`python -m bench.optimizer_bench`, replayed 10-step run): trimming cuts prompt tokens but costs
evaluated ones (the cut re-evaluates what follows it), so it is off by default; it is for long runs that
would outgrow the context window.

The KV cache wants an append-only prompt. Shortening observation N rewrites the middle of the prompt, so the
cut moves only in steps of `block` observations: between two moves every prompt extends the one before it
exactly, and the cache is reused. Which old results repeat a later one is decided within the trimmed region
alone, so an old message's rewrite depends only on the messages before the cut and never changes between
moves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall
from agentcore.policy import CallModel, Policy

_MARK = "\x00RESULT\x00"


@dataclass(frozen=True, slots=True)
class TrimConfig:
    """`keep_last` observations stay verbatim; the cut between old and recent moves `block` at a time."""

    keep_last: int = 2
    block: int = 3
    summary_chars: int = 80
    omit_repeats: bool = True
    omit_guidance: bool = True

    def __post_init__(self) -> None:
        if self.keep_last < 0 or self.block < 1 or self.summary_chars < 10:
            raise ValueError("TrimConfig needs keep_last >= 0, block >= 1 and summary_chars >= 10")


@dataclass(frozen=True, slots=True)
class Observation:
    """One observation message split around its tool result: `head + result + tail == content`."""

    index: int
    call: ToolCall
    error: bool
    head: str
    result: str
    tail: str

    def with_result(self, message: Message, result: str, *, guidance: bool = True) -> Message:
        return replace(message, content=self.head + result + (self.tail if guidance else ""))


def task_of(messages: Sequence[Message]) -> str | None:
    """The task text of the loop's task message (the first user message in its shape), or None."""
    head, _, tail = prompting.task_message(_MARK).content.partition(_MARK)
    for message in messages:
        text = message.content.split(prompting.FIRST_STEP_MARK)[0]  # a plan's first step follows the task
        if message.role == "user" and text.startswith(head) and text.endswith(tail):
            return text[len(head) : len(text) - len(tail)]
    return None


def _call_of(message: Message) -> ToolCall | None:
    """The tool call of an assistant turn written by the loop (canonical JSON), else None."""
    if message.role != "assistant" or not message.content.startswith("{"):
        return None
    try:
        data = json.loads(message.content)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("arguments"), dict) or "tool" not in data:
        return None
    call = ToolCall(str(data["tool"]), data["arguments"])
    return call if prompting.assistant_turn(call, None) == message else None


def _split(index: int, message: Message, call: ToolCall, task: str) -> Observation | None:
    """Split around the result. The tail's start is found from the template, its end is the message's end:
    with a step plan the closing lines name the next step, which the plain template does not know. An
    observation whose guidance was already omitted has no tail."""
    text = message.content
    for error in (False, True):
        head, _, tail = prompting.observation(task, call, _MARK, error=error).content.partition(_MARK)
        if not text.startswith(head):
            continue
        tail_start = tail.split(task)[0]  # "\nDone: name. Original task: " up to the task
        cut = text.rfind(tail_start)
        if cut < len(head):
            cut = len(text)
        return Observation(index, call, error, head, text[len(head) : cut], text[cut:])
    return None


def observations(messages: Sequence[Message]) -> list[Observation]:
    """The tool observations among `messages`, oldest first: user turns right after a loop tool-call turn."""
    task = task_of(messages)
    if task is None:
        return []
    found = []
    for i in range(1, len(messages)):
        call = _call_of(messages[i - 1])
        if call is not None and messages[i].role == "user":
            obs = _split(i, messages[i], call, task)
            if obs is not None:
                found.append(obs)
    return found


def trim_count(n_observations: int, config: TrimConfig) -> int:
    """How many of the oldest observations are trimmed: a multiple of `block`, so the cut moves rarely."""
    excess = max(0, n_observations - config.keep_last)
    return (excess // config.block) * config.block


def one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def trim_observations(messages: Sequence[Message], config: TrimConfig | None = None) -> list[Message]:
    """`messages` with old observations' results shortened (see the module doc). Nothing else changes."""
    config = config or TrimConfig()
    found = observations(messages)
    old = found[: trim_count(len(found), config)]
    out = list(messages)
    latest: dict[str, Observation] = {}
    for obs in reversed(old):  # newest first, so `latest` holds the latest old call with each result
        key = " ".join(obs.result.split())
        short = obs.result  # already shorter than its summary would be
        if len(key) > config.summary_chars:
            later = latest.get(key)
            if config.omit_repeats and later is not None:
                short = f"[same result as the later call {one_line(later.call.signature(), 80)}]"
            else:
                short = f"[older result, shortened] {one_line(obs.result, config.summary_chars)}"
                latest[key] = obs
        out[obs.index] = obs.with_result(messages[obs.index], short, guidance=not config.omit_guidance)
    return out


class ContextPolicy(Policy):
    """Trims old observations before every model turn (see `trim_observations`)."""

    name = "context"

    def __init__(self, config: TrimConfig | None = None) -> None:
        self.config = config or TrimConfig()

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        trimmed = trim_observations(request.messages, self.config)
        return await call_next(replace(request, messages=tuple(trimmed)))
