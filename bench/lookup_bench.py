"""Prompt-lookup decoding on the default model (issue #17): generation speed and identical outputs, per kind of turn.

Tool arguments and final answers mostly copy spans of the prompt (dates, numbers, names, tool results).
llama-cpp-python's `LlamaPromptLookupDecoding` drafts the tokens that followed the last n-gram's earlier
occurrence in the prompt, and the model verifies them in one batch (`LlamaCppModel(prompt_lookup=N)`).

The turns are recorded from real agent runs on tasks of the 48-task suite (bench/tasks), then each is replayed
on two models, without and with prompt lookup. A turn is completed twice per model and the second one timed:
its prompt is then served from the KV cache except the last token, so the time is the generation's. Printed per
kind of turn (tool call, final answer): turns, generated tokens, tokens/s without and with, and how many
outputs are identical under greedy decoding.

    .venv/bin/python -m bench.lookup_bench [--tasks 8] [--draft 10] [--threads 2]

The wall time per task on the 48 tasks: `.venv/bin/python -m bench.harness --families
single,chain,direct,distractor --systems agentcore,agentcore+lookup --name lookup`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agentcore.messages import ModelRequest, ModelResponse

CMD = ".venv/bin/python -m bench.lookup_bench"


class Recorder:
    """A model that records every request it completes (the turns to replay)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.requests: list[ModelRequest] = []

    @property
    def name(self) -> str:
        return str(self.model.name)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        response: ModelResponse = await self.model.complete(request)
        return response

    def count_tokens(self, text: str) -> int:
        return int(self.model.count_tokens(text))


@dataclass
class Kind:
    """The replayed turns of one kind: generated tokens and seconds per model, and identical outputs."""

    turns: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: {"off": 0, "on": 0})
    seconds: dict[str, float] = field(default_factory=lambda: {"off": 0.0, "on": 0.0})
    rates: dict[str, list[float]] = field(default_factory=lambda: {"off": [], "on": []})
    identical: int = 0


async def record(model: Any, count: int) -> list[ModelRequest]:
    """The model requests of real agent runs on the first `count` tasks of the 48 (spread over the families)."""
    from agentcore import Agent
    from agentcore.errors import AgentRunError
    from bench import toolbox
    from bench.suite import load_tasks, quick_select

    tasks = [t for t in load_tasks() if t.family in ("single", "chain", "direct", "distractor")]
    recorder = Recorder(model)
    for task in quick_select(tasks, count):
        agent: Any = Agent(recorder, tools=toolbox.agent_tools(task.tools), max_steps=6)
        with contextlib.suppress(AgentRunError):  # a stopped run's turns count all the same
            await agent.run(task.task)
    return recorder.requests


async def timed(model: Any, request: ModelRequest) -> tuple[ModelResponse, float]:
    await model.complete(request)  # evaluates the prompt: the timed call below finds it in the KV cache
    started = time.perf_counter()
    response = await model.complete(request)
    return response, time.perf_counter() - started


async def replay(requests: Sequence[ModelRequest], models: dict[str, Any]) -> dict[str, Kind]:
    kinds: dict[str, Kind] = {"tool call": Kind(), "final answer": Kind()}
    for request in requests:
        results = {label: await timed(model, request) for label, model in models.items()}
        off, on = results["off"][0], results["on"][0]
        kind = kinds["tool call" if off.tool_call is not None else "final answer"]
        kind.turns += 1
        kind.identical += (off.content, off.tool_call) == (on.content, on.tool_call)
        for label, (response, seconds) in results.items():
            kind.tokens[label] += response.usage.generated_tokens
            kind.seconds[label] += seconds
            kind.rates[label].append(response.usage.generated_tokens / max(seconds, 1e-9))
    return kinds


async def main_async(count: int, draft: int, threads: int) -> None:
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, pull

    path = pull(DEFAULT_MODEL)
    models = {
        "off": LlamaCppModel(path, n_ctx=4096, n_threads=threads),
        "on": LlamaCppModel(path, n_ctx=4096, n_threads=threads, prompt_lookup=draft),
    }
    requests = await record(models["off"], count)
    print(f"[lookup] prompt-lookup decoding (draft {draft} tokens), {len(requests)} turns of {count} tasks"
          f" of the 48, {DEFAULT_MODEL}, {threads} threads:")  # fmt: skip
    kinds = await replay(requests, models)
    for name, kind in kinds.items():
        if not kind.turns:
            continue
        rate = {label: kind.tokens[label] / max(kind.seconds[label], 1e-9) for label in ("off", "on")}
        median = {label: statistics.median(kind.rates[label]) for label in ("off", "on")}
        print(f"    {name}: {kind.turns} turns, {kind.tokens['off']} tokens generated;"
              f" {rate['off']:.1f} -> {rate['on']:.1f} tok/s overall (median per turn {median['off']:.1f} ->"
              f" {median['on']:.1f}); identical outputs {kind.identical}/{kind.turns}")  # fmt: skip
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"    peak RSS of this process (both models): {rss:.0f} MiB")
    print(f"    reproduce: {CMD} --tasks {count} --draft {draft} --threads {threads}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8, help="tasks of the 48 to record turns from")
    parser.add_argument("--draft", type=int, default=10, help="draft tokens per step (num_pred_tokens)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.tasks, args.draft, args.threads))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
