"""Tool relevance: a run is offered only the tools whose description is close to its task.

A 0.5B model offered a tool calls it, whatever the task: on BFCL's irrelevance entries agentcore called the offered
function 20 times in 20. Its own judgement does not help: asked "can one of the tools do this? yes or no", and
at the first key of its turn ("tool" against "final_answer"), its log-odds on irrelevant entries spread over the
same range as on entries that need the call (18 BFCL dev entries). Sentence similarity between the task and each
tool's "name: description" does separate them (BFCL dev split, all-MiniLM-L6-v2): the irrelevance entries have a
median best similarity of 0.25 and 21% of them fall under 0.10, against none of simple_python or multiple
(their 5th percentiles are 0.30 and 0.34) and 7% of live_simple (mostly non-English tasks, which this English
model reads poorly). So the default floor is 0.10, chosen on BFCL dev only.

When no tool reaches `min_similarity` the run is offered none and answers directly. `top_k` also makes this tool
retrieval for a large toolset (the best k, in their own order). The scores are in the run's trace (`tool_relevance`).
Limits: the task of each run is what is compared, so a short follow-up in a conversation ("and in Paris?") scores
low; and English tool descriptions only, with the default embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.messages import ToolSpec
from agentcore.policy import Policy

DEFAULT_MIN_SIMILARITY = 0.10


class Embedder(Protocol):
    """Texts in, unit vectors out (so that a dot product is the cosine)."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def tool_text(spec: ToolSpec) -> str:
    """What a tool is compared on: its name as words, and its description."""
    words = spec.name.replace("_", " ").replace(".", " ").replace("-", " ")
    return f"{words}: {' '.join(spec.description.split())}"


class ToolRelevance(Policy):
    """Offers no tool when none is within `min_similarity` of the task; else the tools (the `top_k` best, if set)."""

    name = "tool_relevance"

    def __init__(
        self, min_similarity: float = DEFAULT_MIN_SIMILARITY, top_k: int | None = None, embedder: Embedder | None = None
    ) -> None:
        if not -1.0 <= min_similarity <= 1.0:
            raise UserError(f"min_similarity is a cosine, between -1 and 1; got {min_similarity}")
        if top_k is not None and top_k < 1:
            raise UserError(f"top_k must be at least 1 (or None: no limit), got {top_k}")
        self.min_similarity, self.top_k = min_similarity, top_k
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}  # tool text -> vector: tools are embedded once per process

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from agentcore.memory.embeddings import default_embedder

            self._embedder = default_embedder()
        return self._embedder

    def scores(self, task: str, tools: Sequence[ToolSpec]) -> list[float]:
        texts = [tool_text(spec) for spec in tools]
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        vectors = self.embedder.embed([task, *missing])
        self._vectors.update(zip(missing, vectors[1:], strict=True))
        return [_dot(vectors[0], self._vectors[text]) for text in texts]

    def filter_tools(self, ctx: RunContext[Any], tools: Sequence[ToolSpec]) -> Sequence[ToolSpec]:
        if not tools or not ctx.task.strip():
            return tools
        scores = self.scores(ctx.task, tools)
        ranked = sorted(range(len(tools)), key=lambda i: -scores[i])[: self.top_k]
        # All or nothing under the floor: a chain's second tool can read far from the task ("then multiply the
        # count by 8" against the calculator: 0.095) while the first is close; only a task that no tool is
        # close to goes without.
        kept = [tools[i] for i in sorted(ranked)] if max(scores) >= self.min_similarity else []
        ctx.record(
            "tool_relevance",
            kept=[spec.name for spec in kept],
            scores={spec.name: round(score, 3) for spec, score in zip(tools, scores, strict=True)},
        )
        return kept


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return float(sum(x * y for x, y in zip(a, b, strict=True)))
