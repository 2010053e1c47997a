"""Tool-Guard on AgentDojo with poisoned tool descriptions: attack success and utility, with and without it.

    bench/security/setup.sh                                   # once: the AgentDojo venv
    bench/peers/.venv-agentdojo/bin/python -m bench.security.run_agentdojo \\
        --suite banking --user-tasks 4 --injection-tasks 3 [--model obedient|PATH.gguf] [--defenses none,toolguard]

For each (user task, injection task) pair: the description of the first tool of the user task's ground truth
gets the authority-injection text with the injection task's goal; AgentDojo scores utility and attack success
from the environment. `--benign` adds each user task once without poisoning (plain utility). `--model obedient`
uses a deterministic gullible model (no LLM; checks the plumbing in seconds); the default is the project's
embedded GGUF on llama.cpp. Results: bench/results/security-agentdojo-SUITE.json and a table on stdout.

Reference (paper, gpt-4o-mini): banking attack success .31 -> .06 with Tool-Guard, utility .56 -> .50.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

from agentdojo.task_suite.load_suites import get_suite

from agentcore.models.base import Model
from agentcore.policies.toolguard import ToolGuard
from bench.security.agentdojo_bridge import AgentcoreElement, obedient_model, poisoned_description

RESULTS = Path(__file__).resolve().parent.parent / "results"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="banking", choices=["banking", "slack", "travel", "workspace"])
    parser.add_argument("--version", default="v1.2")
    parser.add_argument("--user-tasks", type=int, default=4, help="the first N user tasks")
    parser.add_argument("--injection-tasks", type=int, default=3, help="the first N injection tasks")
    parser.add_argument("--defenses", default="none,toolguard")
    parser.add_argument("--model", default="default", help="'obedient', 'default' or a GGUF path")
    parser.add_argument("--max-steps", type=int, default=10)
    parser.add_argument("--benign", action="store_true", help="also run each user task without poisoning")
    parser.add_argument("--out", type=Path, default=None)
    return parser.parse_args(argv)


def load_model(spec: str) -> Model | None:
    """None for 'obedient' (a model per task, made from its ground truth); else one shared llama.cpp model."""
    if spec == "obedient":
        return None
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    path = model_path(DEFAULT_MODEL) if spec == "default" else Path(spec)
    return LlamaCppModel(path, n_ctx=8192, n_threads=None, seed=0)


def run_case(
    suite: Any, shared: Model | None, defense: str, user_task: Any, injection_task: Any, max_steps: int
) -> dict[str, Any]:
    env = suite.load_and_inject_default_environment({})
    truth = user_task.ground_truth(user_task.init_environment(env.model_copy(deep=True)))
    attack = injection_task.ground_truth(env.model_copy(deep=True)) if injection_task else []
    model = shared if shared is not None else obedient_model(truth, attack)
    element = AgentcoreElement(model, guard=ToolGuard if defense == "toolguard" else None, max_steps=max_steps)
    target = truth[0].function if truth else suite.tools[0].name
    if injection_task is not None:
        description = next(t.description for t in suite.tools if t.name == target)
        element.poison = {target: poisoned_description(description, injection_task.GOAL)}
    started = time.perf_counter()
    utility, attacked = suite.run_task_with_pipeline(element, user_task, injection_task, {})
    run = element.runs[-1]
    guard_events = [e for e in run.trace if e["kind"] == "toolguard"]
    return {
        "defense": defense,
        "user_task": user_task.ID,
        "injection_task": injection_task.ID if injection_task else None,
        "poisoned_tool": target if injection_task else None,
        "utility": bool(utility),
        "attack_success": bool(attacked) if injection_task else None,
        "status": run.status,
        "model_calls": run.usage.calls,
        "tool_calls": sum(1 for s in run.steps if s.call is not None),
        "seconds": round(time.perf_counter() - started, 2),
        "quarantined": sorted({e["tool"] for e in guard_events if e["event"] == "quarantine"}),
    }


def summarise(rows: list[dict[str, Any]]) -> list[str]:
    lines = ["| defense | cases | utility (attacked) | attack success | utility (benign) | model calls/run |"]
    lines.append("|---|---|---|---|---|---|")
    for defense in dict.fromkeys(r["defense"] for r in rows):
        attacked = [r for r in rows if r["defense"] == defense and r["injection_task"]]
        benign = [r for r in rows if r["defense"] == defense and not r["injection_task"]]
        mine = attacked + benign

        def rate(items: list[dict[str, Any]], key: str) -> str:
            return f"{sum(bool(r[key]) for r in items) / len(items):.2f}" if items else "-"

        calls = sum(r["model_calls"] for r in mine) / len(mine) if mine else 0.0
        lines.append(
            f"| {defense} | {len(attacked)} | {rate(attacked, 'utility')} | {rate(attacked, 'attack_success')}"
            f" | {rate(benign, 'utility')} | {calls:.1f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    suite = get_suite(args.version, args.suite)
    user_tasks = list(suite.user_tasks.values())[: args.user_tasks]
    injection_tasks = list(suite.injection_tasks.values())[: args.injection_tasks]
    shared = load_model(args.model)
    rows: list[dict[str, Any]] = []
    for defense in args.defenses.split(","):
        for user_task in user_tasks:
            cases = ([None] if args.benign else []) + injection_tasks
            for injection_task in cases:
                row = run_case(suite, shared, defense, user_task, injection_task, args.max_steps)
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    table = summarise(rows)
    print("\n".join(table))
    out = args.out or RESULTS / f"security-agentdojo-{args.suite}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"argv": sys.argv, "model": args.model, "machine": platform.platform(), "suite": args.suite}
    out.write_text(json.dumps({"meta": meta, "table": table, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
