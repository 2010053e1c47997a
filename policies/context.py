"""Agent-Omit style context policy: old tool observations are shortened or omitted, in blocks.

An observation is the user turn the loop writes after a tool call (`prompting.observation`). Old observations
matter less than new ones, so:

- the last `keep_last` observations stay verbatim;
- in older ones the tool result shrinks to a one-line summary;
- an old result that a later (also old) observation repeats is replaced by a pointer to that call;
- old observations lose their guidance (`omit_guidance`): the "Done: ... Original task: ..." lines and the
  closing instruction steer only the turn right after them (Agent-Omit's redundant observation parts). The
  task message and the recent observations keep the task, so no constraint is lost.

Observations are the loop's typed `ObservationPart`s: the trimmer edits their `result` and `guidance` fields
and `agentcore.prompting.render` writes the text again, so no wording is parsed here.

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

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.messages import Message, ModelRequest, ModelResponse, ObservationPart, TaskPart
from agentcore.notice_texts import clip
from agentcore.policy import CallModel, Policy


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
    """One observation message of a prompt: its index, its part, and the result as shown (clipped)."""

    index: int
    part: ObservationPart

    @property
    def call(self) -> Any:
        return self.part.call

    @property
    def result(self) -> str:
        return clip(self.part.result)

    def with_result(self, result: str, *, guidance: bool = True) -> Message:
        return prompting.render(replace(self.part, result=result, guidance=self.part.guidance and guidance))


def task_of(messages: Sequence[Message]) -> str | None:
    """The task of the loop's first task message, or None."""
    for message in messages:
        if isinstance(message.part, TaskPart):
            return message.part.task
    return None


def observations(messages: Sequence[Message]) -> list[Observation]:
    """The tool observations among `messages`, oldest first."""
    return [Observation(i, m.part) for i, m in enumerate(messages) if isinstance(m.part, ObservationPart)]


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
        out[obs.index] = obs.with_result(short, guidance=not config.omit_guidance)
    return out


class ContextPolicy(Policy):
    """Trims old observations before every model turn (see `trim_observations`)."""

    name = "context"

    def __init__(self, config: TrimConfig | None = None) -> None:
        self.config = config or TrimConfig()

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        trimmed = trim_observations(request.messages, self.config)
        return await call_next(replace(request, messages=tuple(trimmed)))
