"""`RoutingPolicy`: the complexity router wired into a run.

Before the first turn it routes the task (5 factors, explained in the trace) and acts on two of its decisions:
- plan "direct": the run sees no tools, so the model answers in one call. Because offering no tools to a task that
  needs one is the costlier mistake, "direct" is taken only when the task also has no digits and shares no word
  with any tool's name or the summary of its description ("convert" for unit_convert, "words" for word_count,
  "symbol" for a lookup over element symbols); otherwise the tools stay. Measured on the 48 bench tasks: names
  alone withheld the tools from 7 lookup tasks; with the descriptions, from none.
- tier: with `tiers={"small": model_a, "large": model_b}`, every turn goes to the tier's model, chosen by
  setting `request.model` for `call_next`: the policies after this one still run. Without a router of the caller's,
  a run offered two or more tools goes to "large" (`TIER_TOOLS`): choosing among tools and chaining them is where
  the 0.5B model fails, while one offered tool is one call it makes at least as well as the 1.5B, in about two
  thirds of the time (docs/routing-tiers.md).
Plans "decompose" and "team" are recorded for the caller (the CLI hands them to the Decomposer); inside one Agent
run they keep the single-agent loop.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import ModelRequest, ModelResponse, ToolSpec
from agentcore.models.base import Model
from agentcore.policies.router import ComplexityRouter, RouteDecision, RouterConfig
from agentcore.policies.router_factors import keyword_regex
from agentcore.policy import CallModel, Policy

_WORD = re.compile(r"[a-z]{4,}")
# Words of 4+ letters that say nothing about what a tool is for.
_STOP = frozenset(
    _WORD.findall(
        "about also args arguments between does each from given have into more most must only result results return"
        " returns same some than that their them then there these they this tool tools used uses using value values"
        " what when where which will with your"
    )
)


def _subject(spec: ToolSpec) -> list[str]:
    """Words of a tool's name and of its description's summary (the part before an "Args:" section), plural
    "s" dropped: `keyword_regex` then matches them in any regular inflection ("word" -> words)."""
    text = spec.name.replace("_", " ") + " " + spec.description.split("Args:")[0]
    words = {w for w in _WORD.findall(text.lower()) if w not in _STOP}
    return sorted({w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words})


# A run offered this many tools or more goes to the "large" tier under the default router.
TIER_TOOLS = 2


def mentions_tools(task: str, tools: Sequence[ToolSpec]) -> bool:
    """True when the task has a digit or names a word (4+ letters, any inflection) of a tool's subject."""
    if any(ch.isdigit() for ch in task):
        return True
    subject = sorted({w for spec in tools for w in _subject(spec)})
    return bool(subject) and keyword_regex(subject).search(task) is not None


class RoutingPolicy(Policy):
    name = "routing"

    def __init__(
        self,
        router: ComplexityRouter | None = None,
        *,
        tiers: Mapping[str, Model] | None = None,
        allow_direct: bool = True,
    ) -> None:
        self.router = router or ComplexityRouter(RouterConfig(min_tier_tools={TIER_TOOLS: "large"}))
        self.tiers = dict(tiers or {})
        self.allow_direct = allow_direct

    def decision(self, ctx: RunContext[Any]) -> RouteDecision | None:
        found = ctx.metadata.get("route")
        return found if isinstance(found, RouteDecision) else None

    def filter_tools(self, ctx: RunContext[Any], tools: Sequence[ToolSpec]) -> Sequence[ToolSpec]:
        decision = self.router.route(ctx.task, tool_names=[spec.name for spec in tools])
        ctx.metadata["route"] = decision
        direct = self.allow_direct and decision.plan == "direct" and bool(tools) and not mentions_tools(ctx.task, tools)
        ctx.record("route", **decision.to_dict(), tools_offered=not direct)
        return () if direct else tools

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        decision = self.decision(ctx)
        model = self.tiers.get(decision.tier) if decision else None
        if model is None:
            return await call_next(request)
        # The choice travels with the request, so every policy after this one (Tool-Guard) still sees the turn.
        return await call_next(replace(request, model=model))
