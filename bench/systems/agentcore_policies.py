"""agentcore in-process with one policy switched on, to measure each policy's effect on the same tasks (#3).

`agentcore+route`: RoutingPolicy (direct answers get no tools). `agentcore+optimize`: PromptOptimizer.
`agentcore+advisor`: smollm2-135m writes advice before the run (advice_first).
`agentcore+relevance`: ToolRelevance (tools far from the task are withheld; MiniLM sentence similarity).
`agentcore+tiers`: RoutingPolicy's model tiers alone (no direct plan): a run offered two or more tools goes to
qwen2.5-coder-1.5b, the rest to the run's model (docs/routing-tiers.md). The harness's `model_s` times the small
model's llama.cpp only; wall time covers both. `agentcore+tiers-native`: the same, with the large model in its
chat template's own tool format (`tool_format="native"`; docs/native-tools.md); `agentcore+tiers-first`: the
large model in that format for its first call only (`tool_format="native-first"`), in agentcore's turns after it.
"""

from __future__ import annotations

from typing import Any

from bench.suite import Task
from bench.systems import agentcore_inproc
from bench.systems.common import Emit, Settings


def _run(policies: Any, tasks: Any, settings: Settings, emit: Emit) -> dict[str, Any]:
    agentcore_inproc.POLICIES = policies
    return agentcore_inproc.run(tasks, settings, emit)


def route(model: Any) -> list[Any]:
    from agentcore.policies.routing import RoutingPolicy

    return [RoutingPolicy()]


def optimize(model: Any) -> list[Any]:
    from agentcore.policies.optimizer import PromptOptimizer

    return [PromptOptimizer()]


def relevance(model: Any) -> list[Any]:
    from agentcore.policies.relevance import ToolRelevance

    return [ToolRelevance()]


_advisor: Any = None
_large: dict[str, Any] = {}  # the large tier's model by tool format, loaded once per process
LARGE_MODEL = "qwen2.5-coder-1.5b"


def tier_policy(model: Any, tool_format: str = "json") -> Any:
    """RoutingPolicy's tiers alone (no direct plan): `model` small, qwen2.5-coder-1.5b in `tool_format` large."""
    if tool_format not in _large:
        from agentcore.models.llamacpp import LlamaCppModel
        from agentcore.models.registry import pull

        settings = {"n_ctx": model.n_ctx, "n_threads": model.n_threads, "seed": model.seed}
        _large[tool_format] = LlamaCppModel(pull(LARGE_MODEL), tool_format=tool_format, **settings)
    from agentcore.policies.routing import RoutingPolicy

    return RoutingPolicy(tiers={"small": model, "large": _large[tool_format]}, allow_direct=False)


def tiers(model: Any, tool_format: str = "json") -> list[Any]:
    return [tier_policy(model, tool_format)]


def advise(model: Any) -> list[Any]:
    global _advisor
    if _advisor is None:
        from agentcore.models.llamacpp import LlamaCppModel
        from agentcore.models.registry import pull
        from agentcore.policies.advisor import Advisor

        _advisor = Advisor(LlamaCppModel(pull("smollm2-135m"), n_ctx=2048, n_threads=2), mode="advice_first")
    return [_advisor]


def run_route(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(route, tasks, settings, emit)


def run_optimize(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(optimize, tasks, settings, emit)


def run_advise(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(advise, tasks, settings, emit)


def run_tiers(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(tiers, tasks, settings, emit)


def run_tiers_native(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(lambda model: tiers(model, "native"), tasks, settings, emit)


def run_tiers_first(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(lambda model: tiers(model, "native-first"), tasks, settings, emit)


def run_relevance(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(relevance, tasks, settings, emit)
