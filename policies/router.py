"""Complexity router: before a run, choose the execution plan and the model tier from five factors.

The factors are EffGen's (task length, requirements, domain breadth, tool needs, reasoning depth, weighted
0.15/0.25/0.20/0.20/0.20), scored on word boundaries and, when a tokenizer is given, on real token counts.
Unlike EffGen, the router chooses *both* a plan (`direct` answer, single `agent` with tools, `decompose` into
subtasks, or a configured `team`) *and* a model tier, and explains every decision in `reasons` for the trace.

Decision rules, in order (thresholds from `RouterConfig`):

1. A task is *compound* when it has at least `decompose_min_requirements` requirement units. Tool steps of one
   chain count half a unit, so "download, compute, save" stays one agent's job while "research, compare, then
   write a report" is compound.
2. `team` when a team is available, the task is compound and `overall >= team_threshold`.
3. `decompose` when the task is compound and `overall >= decompose_threshold` (so that two small asks, such as
   "summarize this and translate it", stay one call).
4. `agent` when `tool_requirements >= tool_threshold` (the task needs a tool, or names an available one).
5. `direct` otherwise: one model call, no tools.

The tier comes from the overall score's band in `tier_bounds`, raised to `min_tier[plan]` where configured and
to `min_tier_tools[n]` for a run offered n or more tools (choosing among tools and chaining them is where a small
model fails: docs/routing-tiers.md).
`aroute` may ask a model to settle a decision whose deciding score lies within `llm_margin` of its threshold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from agentcore.errors import UserError
from agentcore.messages import Message, ModelRequest
from agentcore.policies import router_factors as rf

if TYPE_CHECKING:
    from agentcore.models.base import Model

Plan = Literal["direct", "agent", "decompose", "team"]
PLANS: tuple[Plan, ...] = get_args(Plan)

DEFAULT_WEIGHTS: Mapping[str, float] = {
    "task_length": 0.15,
    "num_requirements": 0.25,
    "domain_breadth": 0.20,
    "tool_requirements": 0.20,
    "reasoning_depth": 0.20,
}
# Overall scores rarely exceed about 8, so tiers default to equal bands of [0, 8].
_DEFAULT_TIER_SPAN = 8.0

PLAN_DESCRIPTIONS: Mapping[Plan, str] = {
    "direct": "one model call, no tools (a factual, knowledge or chat question)",
    "agent": "a single agent that calls tools, possibly several in a chain",
    "decompose": "split into several subtasks whose results are combined",
    "team": "hand the task to the configured multi-agent team",
}


@dataclass(frozen=True, slots=True)
class RouterConfig:
    """Weights, thresholds and model tiers of the router. Invalid values raise `UserError`."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    tool_threshold: float = 2.5
    decompose_min_requirements: float = 2.0
    decompose_threshold: float = 3.0
    team_threshold: float = 3.0
    tiers: tuple[str, ...] = ("small", "large")
    tier_bounds: tuple[float, ...] | None = None
    min_tier: Mapping[str, str] = field(default_factory=dict)
    min_tier_tools: Mapping[int, str] = field(default_factory=dict)
    llm_margin: float = 0.5
    tokens_per_word: float = 1.3

    def __post_init__(self) -> None:
        self._check_weights()
        for name in ("tool_threshold", "decompose_threshold", "team_threshold"):
            value = getattr(self, name)
            if not 0.0 <= value <= 10.0:
                raise UserError(f"RouterConfig.{name}={value} is impossible: scores run from 0 to 10")
        if self.decompose_min_requirements < 1:
            raise UserError("RouterConfig.decompose_min_requirements must be at least 1")
        if not 0.0 <= self.llm_margin <= 10.0:
            raise UserError(f"RouterConfig.llm_margin={self.llm_margin} must lie between 0 and 10")
        if self.tokens_per_word <= 0:
            raise UserError("RouterConfig.tokens_per_word must be positive")
        self._check_tiers()

    def _check_weights(self) -> None:
        if set(self.weights) != set(rf.FACTORS):
            raise UserError(
                f"RouterConfig.weights must have exactly the keys {list(rf.FACTORS)}; got {sorted(self.weights)}"
            )
        if any(w < 0 for w in self.weights.values()):
            raise UserError("RouterConfig.weights must not be negative")
        total = sum(self.weights.values())
        if abs(total - 1.0) > 0.01:
            raise UserError(f"RouterConfig.weights sum to {total:.3f}; make them sum to 1 (within 0.01)")

    def _check_tiers(self) -> None:
        if not self.tiers:
            raise UserError("RouterConfig.tiers is empty; give at least one model tier name, smallest first")
        if len(set(self.tiers)) != len(self.tiers):
            raise UserError(f"RouterConfig.tiers has duplicate names: {list(self.tiers)}")
        bounds = self.bounds()
        if len(bounds) != len(self.tiers) - 1:
            raise UserError(
                f"RouterConfig.tier_bounds needs {len(self.tiers) - 1} values for {len(self.tiers)} tiers;"
                f" got {len(bounds)}"
            )
        if any(not 0.0 <= b <= 10.0 for b in bounds) or list(bounds) != sorted(bounds):
            raise UserError(f"RouterConfig.tier_bounds {list(bounds)} must be ascending and within 0-10")
        for plan, tier in self.min_tier.items():
            if plan not in PLANS:
                raise UserError(f"RouterConfig.min_tier has unknown plan {plan!r}; plans are {list(PLANS)}")
            if tier not in self.tiers:
                raise UserError(
                    f"RouterConfig.min_tier[{plan!r}] names unknown tier {tier!r}; tiers are {list(self.tiers)}"
                )
        for count, tier in self.min_tier_tools.items():
            if not isinstance(count, int) or count < 1:
                raise UserError(f"RouterConfig.min_tier_tools has key {count!r}; keys are tool counts of 1 or more")
            if tier not in self.tiers:
                raise UserError(
                    f"RouterConfig.min_tier_tools[{count}] names unknown tier {tier!r}; tiers are {list(self.tiers)}"
                )

    def bounds(self) -> tuple[float, ...]:
        """The lower overall score of each tier after the first."""
        if self.tier_bounds is not None:
            return self.tier_bounds
        n = len(self.tiers)
        return tuple(round(_DEFAULT_TIER_SPAN * i / n, 2) for i in range(1, n))


@dataclass(frozen=True, slots=True)
class RouteDecision:
    """What to run (plan) on which model tier, with the factor scores and the reasons, for the trace."""

    plan: Plan
    tier: str
    scores: dict[str, float]
    overall: float
    reasons: list[str]
    requirements: float = 1.0
    near_thresholds: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "plan": self.plan,
            "tier": self.tier,
            "scores": dict(self.scores),
            "overall": self.overall,
            "requirements": self.requirements,
            "reasons": list(self.reasons),
        }


class ComplexityRouter:
    """Routes a task before execution. `count_tokens` (the model's tokenizer) replaces word counts."""

    def __init__(self, config: RouterConfig | None = None, *, count_tokens: Callable[[str], int] | None = None) -> None:
        self.config = config or RouterConfig()
        self.count_tokens = count_tokens

    def route(self, task: str, *, tool_names: Sequence[str] = (), team_available: bool = False) -> RouteDecision:
        if not task.strip():
            raise UserError("ComplexityRouter.route() got an empty task")
        cfg = self.config
        instructions = rf.instructions_of(task)
        requirements, units = rf.score_requirements(instructions)
        results = {
            "task_length": rf.score_length(task, self.count_tokens, cfg.tokens_per_word),
            "num_requirements": requirements,
            "domain_breadth": rf.score_domains(task),
            "tool_requirements": rf.score_tools(instructions, tool_names),
            "reasoning_depth": rf.score_reasoning(instructions),
        }
        scores = {name: results[name].score for name in rf.FACTORS}
        overall = round(min(10.0, sum(cfg.weights[n] * scores[n] for n in rf.FACTORS)), 2)
        reasons = [f"{name} {scores[name]:g}/10: {results[name].detail}" for name in rf.FACTORS]
        reasons.append(f"overall {overall:g} = weighted sum with weights {[cfg.weights[n] for n in rf.FACTORS]}")
        plan, why = self._plan(scores, overall, units, team_available)
        reasons.append(f"plan {plan}: {why}")
        tier, tier_why = self._tier(overall, plan, len(tool_names))
        reasons.append(f"tier {tier!r}: {tier_why}")
        near = self._near(scores, overall, units, team_available)
        reasons += [f"near threshold: {n}" for n in near]
        return RouteDecision(plan, tier, scores, overall, reasons, units, tuple(near))

    def _plan(
        self, scores: Mapping[str, float], overall: float, units: float, team_available: bool
    ) -> tuple[Plan, str]:
        cfg = self.config
        tools = scores["tool_requirements"]
        compound = units >= cfg.decompose_min_requirements
        parts = f"{units:g} requirement units >= decompose_min_requirements {cfg.decompose_min_requirements:g}"
        if compound and team_available and overall >= cfg.team_threshold:
            return (
                "team",
                f"a team is configured, {parts}, overall {overall:g} >= team_threshold {cfg.team_threshold:g}",
            )
        if compound and overall >= cfg.decompose_threshold:
            return (
                "decompose",
                f"{parts} and overall {overall:g} >= decompose_threshold {cfg.decompose_threshold:g}",
            )
        if tools >= cfg.tool_threshold:
            return "agent", f"tool_requirements {tools:g} >= tool_threshold {cfg.tool_threshold:g}"
        return (
            "direct",
            f"tool_requirements {tools:g} < tool_threshold {cfg.tool_threshold:g}, no split needed",
        )

    def _tier(self, overall: float, plan: Plan, n_tools: int) -> tuple[str, str]:
        cfg = self.config
        bounds = cfg.bounds()
        index = sum(1 for b in bounds if overall >= b)
        why = f"overall {overall:g} in band {index + 1} of {len(cfg.tiers)} (bounds {list(bounds)})"
        floor = cfg.min_tier.get(plan)
        if floor is not None and cfg.tiers.index(floor) > index:
            index = cfg.tiers.index(floor)
            why += f", raised to min_tier for {plan}"
        for count, tier in sorted(cfg.min_tier_tools.items()):
            if n_tools >= count and cfg.tiers.index(tier) > index:
                index = cfg.tiers.index(tier)
                why += f", raised to min_tier_tools for {n_tools} tools offered (>= {count})"
        return cfg.tiers[index], why

    def _near(self, scores: Mapping[str, float], overall: float, units: float, team_available: bool) -> list[str]:
        """Thresholds whose deciding value lies within the margin: decisions worth a second opinion."""
        cfg, margin, near = self.config, self.config.llm_margin, []
        compound = units >= cfg.decompose_min_requirements
        if abs(units - cfg.decompose_min_requirements) < 1.0:
            near.append(f"{units:g} requirement units vs decompose_min_requirements {cfg.decompose_min_requirements:g}")
        if compound and team_available and abs(overall - cfg.team_threshold) < margin:
            near.append(f"overall {overall:g} vs team_threshold {cfg.team_threshold:g}")
        if compound and abs(overall - cfg.decompose_threshold) < margin:
            near.append(f"overall {overall:g} vs decompose_threshold {cfg.decompose_threshold:g}")
        if abs(scores["tool_requirements"] - cfg.tool_threshold) < margin:
            near.append(f"tool_requirements {scores['tool_requirements']:g} vs tool_threshold {cfg.tool_threshold:g}")
        return near

    async def aroute(
        self,
        task: str,
        *,
        model: Model,
        tool_names: Sequence[str] = (),
        team_available: bool = False,
    ) -> RouteDecision:
        """`route`, plus one constrained model call when a deciding score is near its threshold."""
        decision = self.route(task, tool_names=tool_names, team_available=team_available)
        if not decision.near_thresholds:
            return decision
        allowed = [p for p in PLANS if p != "team" or team_available]
        request = _check_request(task, tool_names, allowed, decision)
        response = await model.complete(request)
        choice = _parse_choice(response.content, allowed)
        reasons = list(decision.reasons)
        if choice is None:
            reasons.append(f"LLM check by {model.name} answered {response.content!r}, not a plan; kept {decision.plan}")
            return replace(decision, reasons=reasons)
        reasons.append(f"LLM check by {model.name} near the threshold chose {choice} (heuristic: {decision.plan})")
        tier, tier_why = self._tier(decision.overall, choice, len(tool_names))
        if choice != decision.plan:
            reasons.append(f"tier {tier!r}: {tier_why}")
        return replace(decision, plan=choice, tier=tier, reasons=reasons)


def _check_request(
    task: str, tool_names: Sequence[str], allowed: Sequence[Plan], decision: RouteDecision
) -> ModelRequest:
    options = "\n".join(f"- {p}: {PLAN_DESCRIPTIONS[p]}" for p in allowed)
    tools = ", ".join(tool_names) if tool_names else "none"
    system = (
        "You decide how an agent runtime should execute a task. Options:\n"
        f"{options}\nAnswer with the name of one option only."
    )
    user = f"Task: {task}\nAvailable tools: {tools}\nThe heuristic router suggests: {decision.plan}."
    return ModelRequest(
        messages=(Message("system", system), Message("user", user)),
        output_schema={"type": "string", "enum": list(allowed)},
        max_tokens=8,
    )


def _parse_choice(content: str | None, allowed: Sequence[Plan]) -> Plan | None:
    if content is None:
        return None
    text = content.strip()
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = text
    for plan in allowed:
        if value == plan:
            return plan
    return None
