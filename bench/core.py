"""`make bench`: the core numbers of issue #2, each printed with the command that reproduces it.

1. framework overhead per agent step, on a scripted model (no model time at all);
2. `import agentcore` time over bare Python;
3. the share of prompt tokens served from the KV cache over a multi-step real-model run;
4. the rate of valid tool calls on the real model;
5. the KV cache across the turns of a chat;
6. two interleaved 5-step runs on one model, with one KV state per model (before issue #17) and with several.
Then the routing and prompt-optimiser benches, when present. Numbers are printed, never asserted.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agentcore import Agent, tool
from agentcore.testing import FunctionModel, call

CMD = "make bench  (or: .venv/bin/python -m bench.core)"


@tool
async def echo(n: int) -> int:
    """Return n."""
    return n


def _add_one(n: int) -> int:
    """Return n + 1."""
    return n + 1


async def _per_step_ms(tools: list[object], name: str, steps: int, runs: int) -> float:
    def script(request: object) -> object:
        count = len(getattr(request, "messages", ())) // 2
        return call(name, n=count) if count < steps else "done"

    agent: Agent[None, str] = Agent(FunctionModel(script), tools=tools, max_steps=steps + 5)
    await agent.run("warm up")
    total = 0.0
    model_steps = 0
    for _ in range(runs):
        result = await agent.run("count")
        # The scripted model's own time is part of "model" seconds; it is microseconds, and we count it against us.
        total += result.ledger.framework_seconds + result.ledger.model_seconds
        model_steps += len(result.steps)
    return total / model_steps * 1000


async def framework_overhead(steps: int = 8, runs: int = 100) -> tuple[float, float]:
    """(ms per step with an async tool, ms per step with a sync tool run in a worker thread)."""
    return (
        await _per_step_ms([echo], "echo", steps, runs),
        await _per_step_ms([tool(_add_one)], "_add_one", steps, runs),
    )


def import_time(repeats: int = 7) -> float:
    def best(code: str) -> float:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.perf_counter() - started)
        return min(times)

    return (best("import agentcore") - best("pass")) * 1000


async def real_model_numbers() -> None:
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, pull
    from agentcore.tools.builtin import builtin_toolset

    model = LlamaCppModel(pull(DEFAULT_MODEL), n_ctx=4096, n_threads=2)
    with tempfile.TemporaryDirectory() as root:
        for name, value in (("a.txt", "120"), ("b.txt", "345"), ("c.txt", "78")):
            (Path(root) / name).write_text(value)
        agent: Agent[None, str] = Agent(model, tools=builtin_toolset(["calculator", "files"], workspace=root))
        task = "Read a.txt, then read b.txt, then read c.txt, then add the three numbers with the calculator."
        result = await agent.run(task)
        print(f"\n[3] KV cache over a {len(result.steps)}-step real run ({model.name}): {task!r}")
        for step in result.steps:
            u = step.usage
            print(f"    step {step.index}: prompt {u.prompt_tokens:4d}  cached {u.cached_tokens:4d}  -> {step.call}")
        print(f"    answer {result.output!r} (expected 543)")
        print(f"    share of prompt tokens from the KV cache, cold (a fresh model): {result.cache_hit_rate:.1%}")
        # An agent serves many tasks on one loaded model: the rules before the tool list come from the cache.
        other = "Read c.txt, then read a.txt, then read b.txt, then add the three numbers with the calculator."
        warm = await agent.run(other)
        print(f"    warm (a second task on the same model, {len(warm.steps)} steps): {warm.cache_hit_rate:.1%}")
        print("    (target >= 80%)   reproduce: " + CMD)
        await valid_call_rate(agent)
    await chat_cache_share(model)
    await interleaved_runs()


CHAT = (
    "A gizmo costs 7 dollars. What do 3 gizmos cost?",
    "What do 12 gizmos cost? Use the calculator.",
    "And what would 30 of them cost?",
)


async def chat_cache_share(model: object) -> list[float]:
    """Turns 2 and 3 of a 3-turn chat continue turn 1's prompt: their prompt tokens should come from the KV cache."""
    from agentcore.sessions import InMemorySession
    from agentcore.tools.builtin import builtin_toolset

    agent: Agent[None, str] = Agent(model, tools=builtin_toolset(["calculator"]))  # type: ignore[arg-type]
    session = InMemorySession("bench")
    shares = []
    print("\n[5] KV cache across the turns of a 3-turn chat (session, same model):")
    for turn, line in enumerate(CHAT, start=1):
        result = await agent.run(line, session=session)
        shares.append(result.cache_hit_rate)
        print(f"    turn {turn}: {result.usage.prompt_tokens:5d} prompt tokens, {result.cache_hit_rate:.1%} cached"
              f" -> {result.output!r}")  # fmt: skip
    print(f"    turns 2 and 3: {shares[1]:.1%} and {shares[2]:.1%} cached (target >= 85%)   reproduce: " + CMD)
    return shares


INTERLEAVED = (
    ("a.txt", "b.txt", "c.txt", "d.txt"),
    ("w.txt", "x.txt", "y.txt", "z.txt"),
)


async def interleaved_runs() -> dict[str, list[float]]:
    """[6] Two runs of 5 tool steps on one model at once: they take turns on its lock, as two chat sessions or two
    team nodes would. Each turn should resume from its own run's prefix. Same runs, one KV state vs several."""
    from agentcore.models.llamacpp import DEFAULT_KV_CACHE_BYTES

    print("\n[6] two interleaved 5-step runs on one model (turn by turn, sharing its lock):")
    shares: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as root:
        for number, name in enumerate(sorted({name for run in INTERLEAVED for name in run})):
            (Path(root) / name).write_text(str(100 + 37 * number))
        for label, budget in (("one KV state (before)", 0), ("several KV states", DEFAULT_KV_CACHE_BYTES)):
            shares[label] = await _interleaved_pair(label, budget, root)
    print("    target: >= 75% cached for each run with several KV states (about 0 before); reproduce: " + CMD)
    return shares


async def _interleaved_pair(label: str, budget: int, root: str) -> list[float]:
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, pull
    from agentcore.tools.builtin import builtin_toolset

    model = LlamaCppModel(pull(DEFAULT_MODEL), n_ctx=4096, n_threads=2, kv_cache_bytes=budget)
    tools = builtin_toolset(["calculator", "files"], workspace=root)
    tasks = [f"Read {', then '.join(run)}, then add the four numbers with the calculator." for run in INTERLEAVED]
    started = time.perf_counter()
    results = await asyncio.gather(*(Agent(model, tools=tools, max_steps=8).run(task) for task in tasks))
    print(f"  {label}: {time.perf_counter() - started:.0f} s for both runs")
    for run, result in enumerate(results, start=1):
        steps = "  ".join(f"{s.usage.cached_tokens}/{s.usage.prompt_tokens}" for s in result.steps)
        print(f"    run {run}: {result.cache_hit_rate:5.1%} cached over {len(result.steps)} steps"
              f" (cached/prompt per step: {steps}) -> {result.output!r}")  # fmt: skip
    kept, stats = model.kv_states, model.kv_stats
    if len(kept):
        per_token = kept.nbytes / sum(len(key) for key in kept.saved_tokens()) / 1024
        restore_ms = 1000 * stats.restore_seconds / max(stats.restores, 1)
        save_ms = 1000 * stats.save_seconds / max(stats.saves, 1)
        print(f"    kept {len(kept)} states, {kept.nbytes / 2**20:.1f} MiB ({per_token:.1f} KiB/token);"
              f" {stats.restores} restores at {restore_ms:.1f} ms each,"
              f" {stats.saves} saves at {save_ms:.1f} ms each")  # fmt: skip
    return [result.cache_hit_rate for result in results]


async def valid_call_rate(agent: Agent[None, str]) -> None:
    tasks = [
        "What is 24344 * 334?",
        "Compute 17 * 23, then add 100 to the result.",
        "List the files in the workspace.",
        "Read b.txt and multiply its number by 2 with the calculator.",
        "What is the square root of 1764?",
        "What is (1234 + 4321) / 5?",
        "Read a.txt.",
        "How much is 15% of 240?",
    ]
    total = valid = 0
    for task in tasks:
        try:
            result = await agent.run(task)
        except Exception as exc:  # a stopped run still counts its calls
            result = getattr(exc, "partial", None)
            if result is None:
                raise
        for step in result.steps:
            if step.call is not None:
                total += 1
                valid += not (step.tool_error and "invalid arguments" in (step.result or ""))
    print(f"\n[4] valid tool calls on the real model: {valid}/{total} = {valid / max(total, 1):.0%} (target 100%)")
    print("    valid = a known tool with schema-valid arguments; reproduce: " + CMD)


def main() -> None:
    with_async, with_thread = asyncio.run(framework_overhead())
    print("[1] framework overhead per agent step (scripted model, 100 runs of 8 steps):")
    print(f"    {with_async:.3f} ms with an async tool,")
    print(f"    {with_thread:.3f} ms with a sync tool (run in a worker thread). Target < 0.3 ms. Reproduce: {CMD}")
    samples = [import_time(3) for _ in range(3)]
    print(f"\n[2] import agentcore: {statistics.median(samples):.1f} ms over bare Python (target < 150 ms)")
    print(f"    reproduce: {sys.executable} -X importtime -c 'import agentcore'")
    asyncio.run(real_model_numbers())


if __name__ == "__main__":
    main()
