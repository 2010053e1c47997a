"""Issue #17's proof on Tool-Guard: the same AgentDojo cases with one KV state per model (before) and several.

Tool-Guard's plans A and B and its validators take turns on one model, so with one KV state each turn evaluates
its whole prompt again. Per case (banking, description attack, real default model): the undefended run once,
then Tool-Guard with the default KV budget (after) and with `kv_cache_bytes=0` (before). Printed per case: tokens
evaluated per agent step, cached share, seconds, and whether the decisions (calls executed, calls rejected) are
the same before and after. Target: evaluated tokens per step with Tool-Guard at most 2x the undefended run.

    bench/peers/.venv-agentdojo/bin/python -m bench.security.kv_compare \\
        [--user-tasks user_task_0,user_task_3,user_task_4] [--injection injection_task_0] \\
        [--runs none:default,toolguard:default,toolguard:off] [--fresh | --report-only]

Rows are kept in bench/security/kv_results.json (a later run replaces the rows of the same case and run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.security.pipeline import AgentcoreElement
from bench.security.run import BENCHMARK_VERSION, make_policies, run_case, score

OUT = Path(__file__).resolve().parent / "kv_results.json"
RUNS = ("none:default", "toolguard:default", "toolguard:off")  # defence:KV budget; the cheap ones first


def model(budget: str) -> Any:
    from agentcore.models.llamacpp import DEFAULT_KV_CACHE_BYTES, LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    kv = 0 if budget == "off" else DEFAULT_KV_CACHE_BYTES
    return LlamaCppModel(model_path(DEFAULT_MODEL), name=DEFAULT_MODEL, n_ctx=8192, n_threads=2, kv_cache_bytes=kv)


def measure(row: dict[str, Any]) -> dict[str, Any]:
    steps = max(row["steps"], 1)
    evaluated = row["prompt_tokens"] - row["cached_tokens"]
    return {
        "evaluated_per_step": round(evaluated / steps),
        "calls_per_step": round(row["model_calls"] / steps, 2),
        "cached_share": round(row["cached_tokens"] / max(row["prompt_tokens"], 1), 3),
        "decisions": {"executed": row["calls"], "rejected": row["rejected_calls"]},
    }


def run(user_tasks: Sequence[str], injection: str, runs: Sequence[str], rows: list[dict[str, Any]]) -> None:
    """Run each case and add its rows to `rows` (replacing earlier rows of the same case and run)."""
    from agentdojo.task_suite.load_suites import get_suite

    suite = get_suite(BENCHMARK_VERSION, "banking")
    models = {budget: model(budget) for budget in ("off", "default")}
    for task_id in user_tasks:
        user_task, injection_task = suite.user_tasks[task_id], suite.injection_tasks[injection]
        for defence, budget in (run.split(":") for run in runs):
            env = suite.load_and_inject_default_environment({})
            element = AgentcoreElement(models[budget], make_policies(defence), 10, 1800.0)
            outcome = run_case(suite, element, "description", user_task, injection_task)
            label = {"suite": "banking", "attack": "description", "defence": defence, "model": "default"}
            row = {**score(label, (env, user_task, injection_task), outcome), "kv": budget}
            same = [r for r in rows if (r["user_task"], r["defence"], r["kv"]) == (task_id, defence, budget)]
            for old in same:
                rows.remove(old)
            rows.append({**row, **measure(row)})
            print(json.dumps({k: rows[-1][k] for k in ("user_task", "defence", "kv", "steps", "model_calls",
                  "evaluated_per_step", "cached_share", "seconds")}), file=sys.stderr)  # fmt: skip
            OUT.write_text(json.dumps(rows, indent=1))


def table(rows: Sequence[dict[str, Any]]) -> list[str]:
    lines = [
        "| case | run | steps | model calls/step | evaluated tokens/step | cached | s/case |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        run = (
            "undefended"
            if row["defence"] == "none"
            else f"Tool-Guard, KV {'1 state' if row['kv'] == 'off' else 'several'}"
        )
        lines.append(f"| {row['user_task']} | {run} | {row['steps']} | {row['calls_per_step']} |"
                     f" {row['evaluated_per_step']} | {row['cached_share']:.0%} | {row['seconds']} |")  # fmt: skip
    for task in dict.fromkeys(row["user_task"] for row in rows):
        by = {(r["defence"], r["kv"]): r for r in rows if r["user_task"] == task}
        before, after, bare = (
            by.get(("toolguard", "off")),
            by.get(("toolguard", "default")),
            by.get(("none", "default")),
        )
        if before and after and bare:
            base = max(bare["evaluated_per_step"], 1)
            same = before["decisions"] == after["decisions"]
            lines.append(f"- {task}: same decisions before and after: {same}; Tool-Guard evaluates"
                         f" {after['evaluated_per_step'] / base:.1f}x the undefended tokens per step"
                         f" (before: {before['evaluated_per_step'] / base:.1f}x)")  # fmt: skip
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--user-tasks", default="user_task_0,user_task_3,user_task_4")
    parser.add_argument("--injection", default="injection_task_0")
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma list of {', '.join(RUNS)}")
    parser.add_argument("--fresh", action="store_true", help="drop the rows kept in kv_results.json first")
    parser.add_argument("--report-only", action="store_true", help="print the table from kv_results.json")
    args = parser.parse_args(argv)
    rows = [] if args.fresh or not OUT.exists() else json.loads(OUT.read_text())
    if not args.report_only:
        run(args.user_tasks.split(","), args.injection, args.runs.split(","), rows)
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
