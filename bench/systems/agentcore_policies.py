"""agentcore in-process with one policy switched on, to measure each policy's effect on the same tasks (#3).

`agentcore+route`: RoutingPolicy (direct answers get no tools). `agentcore+optimize`: PromptOptimizer.
`agentcore+advisor`: smollm2-135m writes advice before the run (advice_first).
`agentcore+relevance`: ToolRelevance (tools far from the task are withheld; MiniLM sentence similarity).
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


def run_relevance(tasks: list[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    return _run(relevance, tasks, settings, emit)
