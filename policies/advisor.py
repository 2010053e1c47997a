"""Advisor: a second (often smaller) model advises the main model, as in "Advisor Models" (ICML 2026).

Two patterns, chosen with `mode`:

- `advice_first`: before the run, the advisor reads the task and writes a few sentences of advice (free text,
  capped at `max_advice_words`). The advice joins the system prompt as an "Advice: ..." block, computed once
  per run so the prompt prefix, and the KV cache, stay stable.
- `review_revise`: when the main model gives a final answer, the advisor reviews it against the task (a
  grammar-constrained `{"ok": bool, "issue": str}`); if it is not ok, the main model answers once more with
  the review appended, and that revised answer is the turn's result. At most `max_reviews` reviews per run.
- `both`: advice first, and a review of the final answer.

Advice and reviews are recorded in the run's trace (`ctx.record("advisor", ...)`). A failing advisor never
fails the run: the error is recorded and the run goes on without advice or review.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.errors import ModelError, UserError
from agentcore.messages import Message, ModelRequest, ModelResponse, Usage
from agentcore.policy import CallModel, Policy

if TYPE_CHECKING:
    from agentcore.models.base import Model

AdvisorMode = Literal["advice_first", "review_revise", "both"]
MODES: tuple[AdvisorMode, ...] = get_args(AdvisorMode)

REVIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}, "issue": {"type": "string", "maxLength": 200}},
    "required": ["ok", "issue"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class AdvisorTemplate:
    """The advisor's system prompts for one domain: one to write advice, one to review an answer."""

    advice: str
    review: str


_ADVICE_TAIL = (
    " Write 3 or 4 short sentences of advice for solving the task: what to check, which steps to take, and "
    "which mistakes to avoid. Do not solve the task, and do not repeat it."
)
_REVIEW_TAIL = (
    " Check the proposed answer against the task. Set ok to true if it answers the whole task correctly and "
    "follows every constraint of the task; otherwise set ok to false and state the main problem in issue."
)

TEMPLATES: dict[str, AdvisorTemplate] = {
    "general": AdvisorTemplate(
        "You are an advisor to an AI assistant." + _ADVICE_TAIL,
        "You review an AI assistant's answers." + _REVIEW_TAIL,
    ),
    "math": AdvisorTemplate(
        "You are a mathematics advisor to an AI assistant. Point to the quantities, units and formulas that "
        "matter, and to where arithmetic slips happen; advise using a calculator tool for arithmetic." + _ADVICE_TAIL,
        "You review an AI assistant's answers to mathematical tasks; recheck the arithmetic and the units."
        + _REVIEW_TAIL,
    ),
    "code": AdvisorTemplate(
        "You are a senior software engineer advising an AI coding assistant. Point to edge cases, the right "
        "library or API, and how to test the result." + _ADVICE_TAIL,
        "You review an AI coding assistant's answers: check correctness, edge cases and that the code does "
        "what the task asks." + _REVIEW_TAIL,
    ),
    "tools": AdvisorTemplate(
        "You advise an AI agent that solves tasks by calling tools. Say which tools to call in which order, "
        "which arguments matter, and when to stop and answer." + _ADVICE_TAIL,
        "You review the final answer of an AI agent that used tools: check that it uses the tool results and "
        "answers the whole task." + _REVIEW_TAIL,
    ),
}

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def cap_words(text: str, max_words: int) -> str:
    """At most `max_words` words, cut back to the last full sentence when that keeps at least half of them."""
    words = text.split()
    if len(words) <= max_words:
        return " ".join(words)
    clipped = " ".join(words[:max_words])
    ends = [m.end() for m in _SENTENCE_END.finditer(clipped)]
    if ends and len(clipped[: ends[-1]].split()) >= max_words // 2:
        return clipped[: ends[-1]]
    return clipped + "…"


def _sum_usage(a: Usage, b: Usage) -> Usage:
    total = Usage()
    total.add(a)
    total.add(b)
    return total


def _review_of(content: str | None) -> tuple[bool, str] | None:
    try:
        data = json.loads(content or "")
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("ok"), bool):
        return None
    return data["ok"], str(data.get("issue", ""))


class Advisor(Policy):
    """A policy that puts a second model in the advisor's seat. See the module doc."""

    name = "advisor"

    def __init__(
        self,
        model: Model,
        mode: AdvisorMode = "advice_first",
        *,
        domain: str = "general",
        max_advice_words: int = 60,
        max_reviews: int = 1,
        templates: Mapping[str, AdvisorTemplate] | None = None,
    ) -> None:
        self.templates = {**TEMPLATES, **(templates or {})}
        if mode not in MODES:
            raise UserError(f"Advisor(mode={mode!r}) is not a mode; use one of {list(MODES)}")
        if domain not in self.templates:
            raise UserError(
                f"Advisor(domain={domain!r}) has no template; known domains: {sorted(self.templates)}"
                " (add one with templates={...: AdvisorTemplate(advice=..., review=...)})"
            )
        if max_advice_words < 5:
            raise UserError(f"Advisor(max_advice_words={max_advice_words}) is too small; use at least 5")
        self.model = model
        self.mode = mode
        self.domain = domain
        self.max_advice_words = max_advice_words
        self.max_reviews = max_reviews
        self._advice: dict[str, str] = {}
        self._reviews: dict[str, int] = {}

    @property
    def template(self) -> AdvisorTemplate:
        return self.templates[self.domain]

    # -- advice first ---------------------------------------------------------------------------------------

    def advice_request(self, task: str) -> ModelRequest:
        return ModelRequest(
            messages=(Message("system", self.template.advice), prompting.task_message(task)),
            constrain=False,
            max_tokens=int(self.max_advice_words * 1.6) + 16,
        )

    async def advise(self, task: str) -> str:
        """The advisor's advice for `task`, capped at `max_advice_words` words."""
        response = await self.model.complete(self.advice_request(task))
        return cap_words((response.content or "").strip(), self.max_advice_words)

    async def on_run_start(self, ctx: RunContext[Any]) -> None:
        self._reviews[ctx.run_id] = 0
        if self.mode == "review_revise":
            return
        try:
            advice = await self.advise(ctx.task)
        except ModelError as exc:
            ctx.record(self.name, mode="advice_first", model=self.model.name, error=str(exc))
            return
        ctx.record(self.name, mode="advice_first", model=self.model.name, advice=advice)
        if advice:
            self._advice[ctx.run_id] = advice

    def system_blocks(self, ctx: RunContext[Any]) -> list[str]:
        advice = self._advice.get(ctx.run_id)
        return [f"Advice: {advice}"] if advice else []

    async def on_run_end(self, ctx: RunContext[Any], result: Any) -> None:
        self._advice.pop(ctx.run_id, None)
        self._reviews.pop(ctx.run_id, None)

    # -- review then revise ---------------------------------------------------------------------------------

    def review_request(self, task: str, answer: str) -> ModelRequest:
        user = f"Task: {task}\nProposed answer: {answer}\nIs the answer correct and complete?"
        return ModelRequest(
            messages=(Message("system", self.template.review), Message("user", user)),
            output_schema=REVIEW_SCHEMA,
            max_tokens=128,
        )

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        response = await call_next(request)
        if self.mode == "advice_first" or response.tool_call is not None or response.content is None:
            return response
        done = self._reviews.get(ctx.run_id, 0)
        if done >= self.max_reviews:
            return response
        self._reviews[ctx.run_id] = done + 1
        return await self._review(ctx, request, response, call_next)

    async def _review(
        self, ctx: RunContext[Any], request: ModelRequest, response: ModelResponse, call_next: CallModel
    ) -> ModelResponse:
        answer = response.content or ""
        try:
            verdict = _review_of((await self.model.complete(self.review_request(ctx.task, answer))).content)
        except ModelError as exc:
            ctx.record(self.name, mode="review", model=self.model.name, error=str(exc))
            return response
        if verdict is None or verdict[0]:
            ctx.record(self.name, mode="review", model=self.model.name, ok=True, answer=answer)
            return response
        issue = verdict[1] or "the answer may be wrong or incomplete"
        revised_request = replace(
            request,
            messages=(
                *request.messages,
                prompting.assistant_turn(None, answer),
                prompting.review_notice(ctx.task, issue),
            ),
        )
        revised = await call_next(revised_request)
        revised = replace(revised, usage=_sum_usage(response.usage, revised.usage))
        ctx.record(
            self.name,
            mode="review",
            model=self.model.name,
            ok=False,
            issue=issue,
            answer=answer,
            revised=revised.content if revised.tool_call is None else None,
        )
        return revised
