"""`ConversationWindow`: keeps a conversation inside the model's context window.

A continued conversation (`history=` or `session=`) grows with every turn. Before each model turn this policy
measures the prompt; when it would not fit (`n_ctx` minus the tokens to generate and a small reserve), the oldest
earlier exchanges are dropped whole, from one user task to the next, until it fits. The current run's own
messages are never dropped, so a chat never fails with a ContextOverflowError because of its past. Every prompt
that needs no cut is left untouched, so the KV prefix stays cached; a cut costs one re-evaluation.

The Agent adds this policy (outermost) to every run that continues a conversation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import Message, ModelRequest, ModelResponse
from agentcore.policy import CallModel, Policy

TEMPLATE_TOKENS = 6  # chat-template tokens around each message (role markers), measured on Qwen's template


def starts(messages: Sequence[Message]) -> list[int]:
    """Indices of the user turns that open an exchange: tasks, and plain user text from outside the loop."""
    return [i for i, m in enumerate(messages) if m.role == "user" and m.kind in ("task", "text")]


def fit(messages: Sequence[Message], budget: int, count: Callable[[str], int]) -> tuple[list[Message], int]:
    """(`messages` without their oldest exchanges until they fit `budget` tokens, how many messages were cut).
    The system prompt and the last exchange always stay."""
    out = list(messages)
    cut = 0
    while sum(count(m.content) + TEMPLATE_TOKENS for m in out) > budget:
        opened = [i for i in starts(out) if i > 0]
        if len(opened) < 2:
            break  # only the current exchange is left: nothing of the past to drop
        head = 1 if out and out[0].role == "system" else 0
        cut += opened[1] - head
        out = out[:head] + out[opened[1] :]
    return out, cut


class ConversationWindow(Policy):
    """Drops the oldest exchanges of a conversation that outgrew the context (see the module doc)."""

    name = "conversation_window"

    def __init__(
        self, budget: int | None = None, *, count_tokens: Callable[[str], int] | None = None, reserve: int = 64
    ) -> None:
        self.budget = budget
        self.count_tokens = count_tokens
        self.reserve = reserve
        self._counts: dict[str, int] = {}

    def _budget(self, request: ModelRequest, model: Any) -> int | None:
        if self.budget is not None:
            return self.budget
        n_ctx = getattr(model, "n_ctx", None)
        return int(n_ctx) - request.max_tokens - self.reserve if isinstance(n_ctx, int) else None

    def _counter(self, model: Any) -> Callable[[str], int]:
        found = self.count_tokens or getattr(model, "count_tokens", None)
        count = found if callable(found) else (lambda text: len(text) // 3 + 1)
        known = self._counts

        def cached(text: str) -> int:  # every turn re-measures the same history: tokenise each message once
            if text not in known:
                if len(known) > 4096:
                    known.clear()
                known[text] = count(text)
            return known[text]

        return cached

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        model = request.model or ctx.metadata.get("model")
        budget = self._budget(request, model)
        if budget is None:
            return await call_next(request)
        messages, cut = fit(request.messages, budget, self._counter(model))
        if cut:
            ctx.record(self.name, dropped_messages=cut, budget=budget)
            request = replace(request, messages=tuple(messages))
        return await call_next(request)
