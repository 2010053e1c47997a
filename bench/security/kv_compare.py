"""Issue #17's proof on Tool-Guard: the same AgentDojo cases with one KV state per model (before) and several.

Tool-Guard's plans A and B and its validators take turns on one model, so with one KV state each turn evaluates
its whole prompt again. Per case (banking, description attack, real default model): the undefended run once,
then Tool-Guard with the default KV budget (after) and with `kv_cache_bytes=0` (before). Printed per case: tokens
evaluated per agent step, cached share, seconds, and whether the decisions (calls executed, calls rejected) are
the same before and after. Target: evaluated tokens per step with Tool-Guard at most 2x the undefended run.

Each row also names the layout of Tool-Guard's plan prompts (`ToolGuard(plan_layout=...)`, the third part of a
run: `toolguard:default:stable_first`; rows without one are from the default "tools-first" layout, where each
plan's tool list comes right after the instructions), so that runs of two layouts sit side by side.

    bench/peers/.venv-agentdojo/bin/python -m bench.security.kv_compare \\
        [--user-tasks user_task_0,user_task_3,user_task_4] [--injection injection_task_0] \\
        [--runs none:default,toolguard:default,toolguard:off,toolguard:default:stable_first] [--threads 2] \\
        [--out FILE] [--merge FILE ...] [--fresh | --report-only]

Rows are kept in bench/security/kv_results.json (a later run replaces the rows of the same case, run and layout).
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


def model(budget: str, threads: int) -> Any:
    from agentcore.models.llamacpp import DEFAULT_KV_CACHE_BYTES, LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    kv = 0 if budget == "off" else DEFAULT_KV_CACHE_BYTES
    path = model_path(DEFAULT_MODEL)
    return LlamaCppModel(path, name=DEFAULT_MODEL, n_ctx=8192, n_threads=threads, kv_cache_bytes=kv)


def key(row: dict[str, Any]) -> tuple[str, str, str, str]:
    layout = "-" if row["defence"] == "none" else row.get("layout", "tools-first")
    return row["user_task"], row["defence"], row["kv"], layout


def measure(row: dict[str, Any]) -> dict[str, Any]:
    steps = max(row["steps"], 1)
    evaluated = row["prompt_tokens"] - row["cached_tokens"]
    return {
        "evaluated_per_step": round(evaluated / steps),
        "calls_per_step": round(row["model_calls"] / steps, 2),
        "cached_share": round(row["cached_tokens"] / max(row["prompt_tokens"], 1), 3),
        "decisions": {"executed": row["calls"], "rejected": row["rejected_calls"]},
    }


def run(
    user_tasks: Sequence[str],
    injection: str,
    runs: Sequence[str],
    rows: list[dict[str, Any]],
    *,
    threads: int = 2,
    out: Path = OUT,
) -> None:
    """Run each case and add its rows to `rows` (replacing earlier rows of the same case, run and layout)."""
    from agentdojo.task_suite.load_suites import get_suite

    suite = get_suite(BENCHMARK_VERSION, "banking")
    models = {budget: model(budget, threads) for budget in ("off", "default")}
    for task_id in user_tasks:
        user_task, injection_task = suite.user_tasks[task_id], suite.injection_tasks[injection]
        for defence, budget, plan_layout in ((*run.split(":"), "tools_first")[:3] for run in runs):
            env = suite.load_and_inject_default_environment({})
            models[budget].reset_kv()  # each case starts cold: an earlier case's states would flatter later ones
            element = AgentcoreElement(models[budget], make_policies(defence, plan_layout=plan_layout), 10, 1800.0)
            outcome = run_case(suite, element, "description", user_task, injection_task)
            label = {"suite": "banking", "attack": "description", "defence": defence, "model": "default"}
            row = {**score(label, (env, user_task, injection_task), outcome), "kv": budget}
            row["layout"] = plan_layout.replace("_", "-") if defence != "none" else "-"
            same = [r for r in rows if key(r) == key(row)]
            for old in same:
                rows.remove(old)
            rows.append({**row, **measure(row)})
            print(json.dumps({k: rows[-1][k] for k in ("user_task", "defence", "kv", "layout", "steps", "model_calls",
                  "evaluated_per_step", "cached_share", "seconds")}), file=sys.stderr)  # fmt: skip
            out.write_text(json.dumps(rows, indent=1))


def table(rows: Sequence[dict[str, Any]]) -> list[str]:
    lines = [
        "| case | run | prompt layout | steps | model calls/step | evaluated tokens/step | cached | s/case"
        " | utility | attack executed | status |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in sorted(rows, key=lambda r: (r["user_task"], r["defence"] != "none", key(r)[3], r["kv"] != "off")):
        run = "undefended" if row["defence"] == "none" else f"Tool-Guard, KV {_kv(row)}"
        lines.append(f"| {row['user_task']} | {run} | {key(row)[3]} | {row['steps']} |"
                     f" {row['calls_per_step']} | {row['evaluated_per_step']} | {row['cached_share']:.0%} |"
                     f" {row['seconds']} | {int(row['utility'])} | {int(row['attack_executed'])} |"
                     f" {row['status']} |")  # fmt: skip
    for task in dict.fromkeys(row["user_task"] for row in rows):
        lines.extend(_compare(task, [r for r in rows if r["user_task"] == task]))
    return lines


def _kv(row: dict[str, Any]) -> str:
    return "1 state" if row["kv"] == "off" else "several"


def _compare(task: str, rows: Sequence[dict[str, Any]]) -> list[str]:
    """Per case: each Tool-Guard row against the undefended one, and per prompt layout whether one KV state and
    several took the same decisions (the KV cache must not change what the model decides; a layout may)."""
    bare = next((r for r in rows if r["defence"] == "none"), None)
    guarded = [r for r in rows if r["defence"] != "none"]
    if bare is None or not guarded:
        return []
    base = max(bare["evaluated_per_step"], 1)
    ratios = ", ".join(f"{key(r)[3]}/{_kv(r)} {r['evaluated_per_step'] / base:.1f}x" for r in guarded)
    layouts = dict.fromkeys(key(r)[3] for r in guarded)
    same = ", ".join(
        f"{layout} {len({json.dumps(r['decisions']) for r in guarded if key(r)[3] == layout}) == 1}"
        for layout in layouts
    )
    return [f"- {task}: evaluated tokens/step against the undefended run: {ratios} (target <= 2x);"
            f" same decisions with one KV state and several: {same}"]  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--user-tasks", default="user_task_0,user_task_3,user_task_4")
    parser.add_argument("--injection", default="injection_task_0")
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma list of {', '.join(RUNS)}")
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp threads (1 on a contended machine)")
    parser.add_argument("--out", type=Path, default=OUT, help="where rows are kept (default: %(default)s)")
    parser.add_argument("--merge", nargs="*", default=[], help="add the rows of these files (replacing same keys)")
    parser.add_argument("--fresh", action="store_true", help="drop the rows kept in kv_results.json first")
    parser.add_argument("--report-only", action="store_true", help="print the table from kv_results.json")
    args = parser.parse_args(argv)
    out: Path = args.out
    rows = [] if args.fresh or not out.exists() else json.loads(out.read_text())
    for extra in args.merge:  # rows of runs kept elsewhere (two runs at once must not write one file)
        news = json.loads(Path(extra).read_text())
        rows = [r for r in rows if key(r) not in {key(n) for n in news}] + news
    if not args.report_only:
        run(args.user_tasks.split(","), args.injection, args.runs.split(","), rows, threads=args.threads, out=out)
    elif args.merge:
        out.write_text(json.dumps(rows, indent=1))
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
