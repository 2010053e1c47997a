"""Prompt optimiser bench: token reduction with the real Qwen tokenizer, and the KV-cache share on real runs.

Run from the repository root: `python -m bench.optimizer_bench` (add `--skip-runs` for the token counts only).

1. Reduction: ten verbose, tool-heavy agent prompts (bench/optimizer_prompts.py), rendered as the agent
   renders them (system prompt with tool signatures, task, tool calls and observations), counted through the
   chat template with Qwen2.5-Coder-0.5B's own tokenizer (`LlamaCppModel.render`), before and after
   `optimize_messages`. Every task carries a constraint; the bench checks that every task line survives.
2. Cache, replayed: one fixed 10-step trajectory fed step by step to the real model (one token generated per
   step), so only the prompt differs between configurations: no optimiser, optimiser without trimming,
   trimming in blocks of 3, and trimming at every step (block=1). Reports prompt, cached and evaluated tokens.
3. Cache, live: a real agent run (calculator plus verbose decoy tools) with and without the optimiser.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.messages import Message, ModelRequest, ToolCall, ToolSpec, Usage
from agentcore.models.llamacpp import LlamaCppModel
from agentcore.models.registry import DEFAULT_MODEL, model_path
from agentcore.policies.context import TrimConfig
from agentcore.policies.optimizer import OptimizerConfig, PromptOptimizer, optimize_messages
from agentcore.tools.builtin.calculator import calculator
from agentcore.tools.toolset import FunctionToolset
from bench.optimizer_prompts import CALC, FS, GITHUB, PROMPTS, SQL, WEB, BenchPrompt

ABLATION: dict[str, OptimizerConfig] = {
    "examples, boilerplate and fillers only (max_sentences=None)": OptimizerConfig(max_sentences=None),
    "max_sentences=2": OptimizerConfig(max_sentences=2),
    "default (max_sentences=1)": OptimizerConfig(),
    "default + trim(keep_last=1, block=1), results only": OptimizerConfig(
        trim=TrimConfig(keep_last=1, block=1, omit_guidance=False)
    ),
    "default + trim(keep_last=1, block=1)": OptimizerConfig(trim=TrimConfig(keep_last=1, block=1)),
}


def json_schema_prompt(prompt: BenchPrompt) -> list[Message]:
    """The common framework rendering: instructions plus the tools' full JSON Schemas (OpenAI/MCP style)."""
    tools = [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in prompt.tools]
    system = f"{prompt.instructions}\n\nYou have access to these tools:\n{json.dumps(tools, indent=2)}"
    return [Message("system", system), prompting.task_message(prompt.task)]


def build_messages(prompt: BenchPrompt, steps: Sequence[tuple[ToolCall, str]] | None = None) -> list[Message]:
    """The messages an agent would send after `steps`, exactly as agentcore's loop builds them."""
    system = prompting.system_message(prompt.instructions, prompt.tools, prompt.extra_blocks)
    messages = [system, prompting.task_message(prompt.task)]
    for call, result in prompt.steps if steps is None else steps:
        messages.append(prompting.assistant_turn(call, None))
        messages.append(prompting.observation(prompt.task, call, result))
    return messages


def task_lines(messages: Sequence[Message]) -> list[str]:
    return [line for m in messages for line in m.content.split("\n") if line.startswith("Task:")]


def _checked(messages: list[Message], config: OptimizerConfig, name: str) -> list[Message]:
    optimized = optimize_messages(messages, config)
    if task_lines(optimized) != task_lines(messages) or optimized[1] != messages[1]:
        raise SystemExit(f"{name}: a task line changed")
    return optimized


def reduction_table(model: LlamaCppModel) -> None:
    print("## 1. Prompt tokens (Qwen2.5-Coder tokenizer, through the chat template), default config\n")
    print(
        "| prompt | tools | step 0: before -> after | after its steps: before -> after |"
        " JSON-schema prompt -> optimised |"
    )
    print("|---|---|---|---|---|")

    def count(messages: Sequence[Message]) -> int:
        return len(model.render(messages))

    cuts: dict[str, list[float]] = {"step0": [], "steps": [], "schema": []}
    for prompt in PROMPTS:
        cells = []
        pairs = (
            ("step0", build_messages(prompt, []), build_messages(prompt, [])),
            ("steps", build_messages(prompt), build_messages(prompt)),
            ("schema", json_schema_prompt(prompt), build_messages(prompt, [])),
        )
        for key, baseline, ours in pairs:
            before, after = count(baseline), count(_checked(ours, OptimizerConfig(), prompt.name))
            cuts[key].append(1 - after / before)
            cells.append(f"{before} -> {after} (-{1 - after / before:.0%})")
        print(f"| {prompt.name} | {len(prompt.tools)} | " + " | ".join(cells) + " |")
    means = " | ".join(f"-{statistics.mean(v):.1%}" for v in cuts.values())
    print(f"| **mean** | | {means} |\n")
    print("| configuration (prompts after their steps) | mean reduction |\n|---|---|")
    for name, config in ABLATION.items():
        shares = []
        for prompt in PROMPTS:
            messages = build_messages(prompt)
            shares.append(1 - count(_checked(messages, config, prompt.name)) / count(messages))
        print(f"| {name} | -{statistics.mean(shares):.1%} |")
    print()


REPLAY_TOOLS = FS + GITHUB + WEB + SQL + CALC
REPLAY_TASK = "Count the open issues labelled 'bug' in acme/shop, compare with last week, answer in French."


def replay_steps() -> list[tuple[ToolCall, str]]:
    readme = "acme/shop is a demo web shop. " * 12
    return [
        (
            ToolCall("search_issues", {"q": f"repo:acme/shop is:open label:bug page:{i}"}),
            f'{{"total_count": 17, "page": {i}, "items": ["#{100 + i} Cart total wrong", "#{200 + i} Login loop"]}}',
        )
        if i % 3
        else (
            ToolCall("get_file_contents", {"owner": "acme", "repo": "shop", "path": f"README{i}.md"}),
            readme,
        )
        for i in range(10)
    ]


async def replay(model: LlamaCppModel, config: OptimizerConfig | None) -> tuple[Usage, float]:
    prompt = BenchPrompt("replay", REPLAY_TOOLS, REPLAY_TASK, replay_steps())
    model.reset_kv()  # start cold, like a fresh run (no saved KV state either)
    usage, started = Usage(), time.perf_counter()
    for k in range(len(prompt.steps) + 1):
        messages = build_messages(prompt, prompt.steps[:k])
        if config is not None:
            messages = optimize_messages(messages, config)
        request = ModelRequest(messages=tuple(messages), constrain=False, max_tokens=1)
        usage.add((await model.complete(request)).usage)
    return usage, time.perf_counter() - started


async def replay_table(model: LlamaCppModel) -> None:
    print("## 2. KV cache on a replayed 10-step trajectory (same steps for every configuration)\n")
    print("| configuration | prompt tokens | cached | evaluated | cache share | seconds |")
    print("|---|---|---|---|---|---|")
    configs: dict[str, OptimizerConfig | None] = {
        "no optimiser": None,
        "optimiser, no trimming": OptimizerConfig(),
        "optimiser, trim results in blocks of 3": OptimizerConfig(
            trim=TrimConfig(keep_last=2, block=3, omit_guidance=False)
        ),
        "optimiser, trim in blocks of 3": OptimizerConfig(trim=TrimConfig(keep_last=2, block=3)),
        "optimiser, trim every step (block=1)": OptimizerConfig(trim=TrimConfig(keep_last=2, block=1)),
    }
    for name, config in configs.items():
        usage, seconds = await replay(model, config)
        share = usage.cached_tokens / usage.prompt_tokens
        print(
            f"| {name} | {usage.prompt_tokens} | {usage.cached_tokens} | {usage.evaluated_tokens} |"
            f" {share:.1%} | {seconds:.1f} |"
        )
    print()


class SpecToolset(FunctionToolset):
    """The calculator plus decoy tools that only have specs (they answer that they are unavailable)."""

    def __init__(self, decoys: Sequence[ToolSpec]) -> None:
        super().__init__([calculator])
        self.decoys = list(decoys)

    async def list_tools(self) -> Sequence[ToolSpec]:
        return [*await super().list_tools(), *self.decoys]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        if any(spec.name == name for spec in self.decoys):
            return f"{name} is not available in this bench; use the calculator"
        return await super().call_tool(name, arguments, ctx)

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return (5.0, 2) if any(s.name == name for s in self.decoys) else super().tool_settings(name)


LIVE_TASK = (
    "A shop sells widgets at 17.5 each and gadgets at 23.25 each. First compute the cost of 3 widgets, "
    "then the cost of 4 gadgets, then the total of both. Answer with the total only."
)


async def live_table(model: LlamaCppModel) -> None:
    print("## 3. KV cache on a live agent run (calculator + 16 verbose decoy tools)\n")
    print("| configuration | steps | prompt tokens | cached | evaluated | cache share | seconds | answer |")
    print("|---|---|---|---|---|---|---|---|")
    decoys = [spec for spec in FS + GITHUB + WEB if spec.name != "calculator"]
    configs: dict[str, list[PromptOptimizer]] = {
        "no optimiser": [],
        "optimiser": [PromptOptimizer(count_tokens=model.count_tokens)],
        "optimiser + trim(keep 1, block 2)": [PromptOptimizer(OptimizerConfig(trim=TrimConfig(keep_last=1, block=2)))],
    }
    for name, policies in configs.items():
        model.reset_kv()
        agent: Agent[None, str] = Agent(model, tools=SpecToolset(decoys), policies=policies, max_steps=8)
        started = time.perf_counter()
        try:
            result = await agent.run(LIVE_TASK)
            usage, steps, answer = result.usage, len(result.steps), str(result.output)
        except Exception as exc:  # a bench row, not a crash: report what happened
            partial = getattr(exc, "partial", None)
            usage = partial.usage if partial else Usage()
            steps, answer = (len(partial.steps) if partial else 0), f"{type(exc).__name__}"
        share = usage.cached_tokens / usage.prompt_tokens if usage.prompt_tokens else 0.0
        print(
            f"| {name} | {steps} | {usage.prompt_tokens} | {usage.cached_tokens} | {usage.evaluated_tokens} |"
            f" {share:.1%} | {time.perf_counter() - started:.1f} | {answer[:40]!r} |"
        )
    print()


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-runs", action="store_true", help="only count tokens (no generation)")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    model = LlamaCppModel(model_path(DEFAULT_MODEL), n_ctx=8192, n_threads=args.threads, seed=0)
    reduction_table(model)
    if not args.skip_runs:
        await replay_table(model)
        await live_table(model)


if __name__ == "__main__":
    asyncio.run(main())
