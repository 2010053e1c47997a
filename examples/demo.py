"""The main job of `make demo`: an agent on the embedded Qwen2.5-Coder-0.5B model, with built-in tools.

It subclasses `Agent`, runs three realistic tasks (a chained calculation, a lookup in a workspace file, a question
that needs no tool) and prints each answer with its ledger: model / tool / framework time and KV-cache reuse.
Run it with `make demo` (which sets the machine up first) or `.venv/bin/python examples/demo.py`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from agentcore import Agent, RunResult
from agentcore.log import configure_logging
from agentcore.policies.routing import RoutingPolicy
from agentcore.tools.builtin import builtin_toolset

WORKSPACE = Path(__file__).parent / "workspace"

TASKS = [
    "Read stock.txt, then use the calculator to multiply the number in it by 3.",
    "A gizmo costs 7.25 dollars. What do 24 gizmos cost?",
    "What is the capital of France?",
]


class ShopAssistant(Agent[None, str]):
    instructions = "You are a precise shop assistant. Use the tools for arithmetic and for reading files."
    tools = builtin_toolset(["calculator", "files"], workspace=WORKSPACE, writable=False)
    max_steps = 6
    # The router answers questions that need no tool in one call, without offering tools (see policies/routing.py).
    policies = (RoutingPolicy(),)


def report(result: RunResult[str]) -> None:
    print(f"\nTask:   {result.task}")
    for step in result.steps:
        if step.call is not None:
            print(f"  step {step.index}: {step.call.signature()} -> {step.result}")
    print(f"Answer: {result.output}   [{result.status}]")
    u = result.usage
    print(f"  {result.ledger.summary()}")
    print(f"  {u.calls} model calls, {u.prompt_tokens} prompt tokens ({result.cache_hit_rate:.0%} from KV cache)")


async def main() -> None:
    if "--log" in __import__("sys").argv:
        configure_logging()
    agent = ShopAssistant()
    for task in TASKS:
        report(await agent.run(task))


if __name__ == "__main__":
    asyncio.run(main())
