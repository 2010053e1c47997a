"""Scale-out numbers (issue #16), printed, never asserted: batch throughput in tasks per minute on the real
default model, local (in-process llama.cpp, 2 threads) against Ray with 1 replica (2 threads) and 2 replicas
(1 thread each, pinned to its own core). Same tasks, same agent, the same `run_batch` for all three.

On a 2-core machine there is little to gain: two replicas split the same two cores, so they only win what one
model leaves idle (the driver's tool and framework time, and llama.cpp's imperfect use of 2 threads at this size).

    .venv/bin/python -m bench.scale_bench [--tasks 6] [--max-tokens 48] [--skip-ray]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CMD = ".venv/bin/python -m bench.scale_bench"
OUT = ROOT / "bench" / "results" / "scale.json"
TASKS = ROOT / "examples" / "batch" / "tasks.jsonl"  # six short calculator tasks, the bench task format


def tasks(n: int) -> list[Any]:
    from agentcore.scale.tasks import read_tasks

    return read_tasks(TASKS)[:n]


def make_agent(max_tokens: int) -> Any:
    from agentcore.agent import Agent
    from agentcore.tools.builtin.calculator import calculator

    agent: Any = Agent(tools=[calculator], max_steps=3)
    agent.max_tokens = max_tokens
    return agent


async def measure(label: str, model: Any, replicas: int, todo: list[Any], max_tokens: int) -> dict[str, Any]:
    from agentcore.scale.batch import run_batch

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "results.jsonl"
        started = time.perf_counter()
        report = await run_batch(todo, make_agent(max_tokens), out, model=model, concurrency=2 * replicas)
        seconds = time.perf_counter() - started
        lines = [json.loads(line) for line in out.read_text().splitlines()]
    right = sum(1 for line in lines if _number(line.get("output")) == line["check"]["value"])
    rate = 60 * len(todo) / seconds
    row = {"executor": label, "replicas": replicas, "tasks": len(todo), "seconds": round(seconds, 1),
           "tasks_per_min": round(rate, 2), "per_replica": round(rate / replicas, 2),
           "completed": report.completed, "correct": right}  # fmt: skip
    print(f"  {label:<24} {seconds:>6.1f}s  {rate:>6.2f} tasks/min  ({rate / replicas:.2f} per replica)"
          f"  completed {report.completed}/{len(todo)}, correct {right}")  # fmt: skip
    return row


def _number(text: Any) -> float | None:
    found = re.findall(r"-?\d+(?:\.\d+)?", str(text or "").replace(",", ""))
    return float(found[-1]) if found else None


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    from agentcore.models.loader import load_model_async
    from agentcore.models.registry import DEFAULT_MODEL

    todo = tasks(args.tasks)
    print(f"batch throughput, {len(todo)} tasks, max_tokens {args.max_tokens}, default model {DEFAULT_MODEL}:")
    local = await load_model_async(DEFAULT_MODEL, n_threads=2, n_ctx=2048)  # as the replicas load it
    await measure("warm-up (local, 1 task)", local, 1, todo[:1], args.max_tokens)
    rows = [await measure("local (2 threads)", local, 1, todo, args.max_tokens)]
    del local
    if args.skip_ray:
        return rows
    from agentcore.scale.cluster import connect, shutdown
    from agentcore.scale.replicas import ReplicaPool

    started = time.perf_counter()
    connect(num_cpus=2)
    print(f"  (Ray started in {time.perf_counter() - started:.1f}s)")
    try:
        for replicas, threads in ((1, 2), (2, 1)):
            started = time.perf_counter()
            pool = ReplicaPool.start(
                DEFAULT_MODEL, replicas, threads=threads, pin=replicas > 1, settings={"n_ctx": 2048}
            )
            print(f"  ({replicas} replica(s) loaded in {time.perf_counter() - started:.1f}s)")
            try:
                label = f"ray, {replicas} x {threads} thread(s)"
                await measure(f"warm-up ({replicas} task(s))", pool, replicas, todo[:replicas], args.max_tokens)
                rows.append(await measure(label, pool, replicas, todo, args.max_tokens))
            finally:
                pool.close()
    finally:
        shutdown()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=6, help="the first N tasks of examples/batch/tasks.jsonl")
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--skip-ray", action="store_true", help="only the local executor")
    args = parser.parse_args()
    from agentcore.scale.cluster import ray_available

    if not args.skip_ray and not ray_available():
        print("ray is not installed (pip install 'agentcore[ray]'): measuring local only", file=sys.stderr)
        args.skip_ray = True
    rows = asyncio.run(main_async(args))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"command": CMD, "args": vars(args), "rows": rows}, indent=2) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}; reproduce with: {CMD}")


if __name__ == "__main__":
    main()
