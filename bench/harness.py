"""Side-by-side benchmark: agentcore against a hand-written minimal loop (and peers), same model and settings.

    python -m bench.harness [--quick] [--systems agentcore,raw,...] [--model PATH]
                            [--families F,G] [--split dev|test] [TASKFILES...]

Task files default to bench/tasks/*.jsonl (format: bench/suite.py). `--families` keeps the tasks of the named
families (`--families single,chain,direct,distractor` is the original 48-task suite); `--split` keeps one split of
the families that have dev and test halves (tasks without a split belong to both). `--quick` then takes 10 tasks
spread over the families. Every system runs in its own subprocess (bench/systems/worker.py) on the same GGUF,
n_ctx, threads and greedy decoding; the results go to bench/results/NAME.{md,png,json} with the command, model,
git revision and machine facts. The systems are interleaved task by task, so a machine whose load drifts slows
them alike; the report still records the load average seen by each system, and CPU seconds per task beside wall
time.

Systems (bench/systems/): agentcore (in-process), agentcore-http (through llama-cpp-python's server), raw (the
limit: a minimal hand-written loop), smolagents (a peer; install it first, see peer_smolagents.py), oracle
(no model: replays the reference calls, to check the harness and the task files).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench import report
from bench.suite import SPLITS, Task, TaskFileError, families_of, load_tasks, parse_task, quick_select
from bench.systems import DEFAULT_SYSTEMS, SYSTEMS
from bench.systems.common import Settings
from bench.workers import WORKER_ENV, Worker, worker_env

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = ROOT / "bench" / "results"
QUICK_TASKS = 10


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.harness", description=__doc__.split("\n\n")[0])
    parser.add_argument("taskfiles", nargs="*", help="JSONL task files (default: bench/tasks/*.jsonl)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TASKS} tasks spread over the families")
    parser.add_argument("--families", help="comma-separated families to keep (default: all in the task files)")
    parser.add_argument("--ids", help="comma-separated task ids to keep (re-run only the tasks a change affects)")
    parser.add_argument("--split", choices=SPLITS, help="keep one split; tasks without a split belong to both")
    parser.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS), help=f"of: {', '.join(SYSTEMS)}")
    parser.add_argument("--model", help="GGUF path (default: the registry's default model)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per task")
    parser.add_argument("--name", help="results file name (default: quick or full)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR)
    parser.add_argument(
        "--tool-order",
        choices=("given", "sorted"),
        default="given",
        help="each task's tools as its file lists them, or sorted by name (most task files list them in the order "
        "their solution calls them, a hint no user gives)",
    )
    parser.add_argument("--render", metavar="RESULTS.json", help="only re-render the report of a saved run")
    return parser.parse_args(list(argv))


def resolve_model(path: str | None) -> Path:
    if path:
        found = Path(path).expanduser()
    else:
        from agentcore.models.registry import DEFAULT_MODEL, model_path

        found = model_path(DEFAULT_MODEL)
    if not found.is_file():
        raise SystemExit(f"no model file at {found}: pass --model PATH, or pull it (`agentcore models pull`)")
    return found


def select(tasks: Sequence[Task], families: str | None, split: str | None) -> list[Task]:
    """The tasks of the named families (comma-separated; None: all) in `split` (None: all). Raises TaskFileError
    for a family no task has, or when nothing is left."""
    chosen = list(tasks)
    if families is not None:
        wanted = [f.strip() for f in families.split(",") if f.strip()]
        known = families_of(tasks)
        unknown = [f for f in wanted if f not in known]
        if unknown or not wanted:
            named = ", ".join(unknown) or "(none)"
            raise TaskFileError(f"unknown famil(ies) {named}; the tasks have {', '.join(known)}")
        chosen = [t for t in chosen if t.family in wanted]
    chosen = [t for t in chosen if t.in_split(split)]
    if not chosen:
        raise TaskFileError(f"no tasks left in split {split!r}")
    return chosen


def run_systems(systems: Sequence[str], tasks: Sequence[Task], settings: Settings) -> dict[str, dict[str, Any]]:
    """Every task on every system, interleaved: task 1 on each system, then task 2, ... The system that goes
    first rotates, so none always runs right after a model load or on a cold CPU cache."""
    with tempfile.TemporaryDirectory(prefix="agentcore-bench-") as workdir:
        settings_path = Path(workdir) / "settings.json"
        settings_path.write_text(json.dumps(settings.to_json()), encoding="utf-8")
        workers = [Worker(name, settings, settings_path) for name in systems]
        try:
            for index, task in enumerate(tasks):
                turn = index % len(workers)
                for worker in workers[turn:] + workers[:turn]:
                    worker.run(task)
        finally:
            reports = {worker.name: worker.finish() for worker in workers}
    return reports


def _git_revision() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    revision = git("rev-parse", "--short", "HEAD") or "unknown"
    return revision + (" (with uncommitted changes)" if git("status", "--porcelain") else "")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def machine_facts() -> str:
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = [ln.split(":", 1)[1].strip() for ln in cpuinfo.read_text().splitlines() if ln.startswith("model name")]
        cpu = names[0] if names else cpu
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} logical cores, {memory:.1f} GiB RAM"


def header(data: dict[str, Any], settings: Settings, tasks: Sequence[Task], runs: Sequence[report.SystemRun]) -> str:
    argv: Sequence[str] = data["argv"]
    from importlib.metadata import version

    model = Path(settings.model_path).expanduser()  # results store it as ~/...
    versions = "; ".join(f"{run.name}: {run.info.get('version', '?')}" for run in runs)
    loads = "; ".join(f"{run.name}: {run.info.get('load_avg')}" for run in runs)
    return "\n".join(
        [
            "# agentcore side-by-side benchmark",
            "",
            f"- command: `{' '.join(['python -m bench.harness', *map(shlex.quote, argv)])}`",
            f"- date: {data.get('date') or time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
            f"- git revision: {data.get('revision') or _git_revision()}",
            f"- model: `{model.name}` ({model.stat().st_size / 2**20:.0f} MiB, sha256 {_sha256(model)[:16]}…)",
            f"- settings: n_ctx {settings.n_ctx}, {settings.n_threads} threads, greedy (temperature 0, top_k 1,"
            f" repeat_penalty 1), max_tokens {settings.max_tokens}/call, max_steps {settings.max_steps},"
            f" timeout {settings.timeout:.0f}s/task",
            f"- tasks: {len(tasks)} ({', '.join(sorted({t.family for t in tasks}))})" + _split_note(tasks),
            f"- machine: {machine_facts()}; Python {platform.python_version()};"
            f" llama-cpp-python {version('llama_cpp_python')}",
            f"- versions: {versions}",
            f"- worker environment: {', '.join(f'{k}={v}' for k, v in worker_env().items() if k in WORKER_ENV)}",
            f"- load average (1 min), lowest and highest seen at task starts: {loads}",
        ]
    )


def _split_note(tasks: Sequence[Task]) -> str:
    """How many tasks are dev (tuned on) and test (held out); nothing for task sets without splits."""
    counts = {split: sum(t.split == split for t in tasks) for split in SPLITS}
    if not any(counts.values()):
        return ""
    return "; " + ", ".join(f"{n} {split}" for split, n in counts.items()) + " (dev: tuned on; test: held out)"


def write_results(out: Path, data: dict[str, Any]) -> Path:
    """OUT.json (everything the workers reported), OUT.md and OUT.png; `out` is the path without a suffix."""
    out.parent.mkdir(parents=True, exist_ok=True)
    # No home paths in committed results: peers quote the model path in their outputs and errors.
    data = json.loads(json.dumps(data, ensure_ascii=False).replace(str(Path.home()), "~"))
    out.with_suffix(".json").write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    settings = Settings(**data["settings"])
    tasks = [parse_task(item) for item in data["tasks"]]
    runs = [report.SystemRun.from_report(name, item) for name, item in data["reports"].items()]
    png = out.with_suffix(".png")
    title = f"{len(tasks)} tasks, {Path(settings.model_path).name}, {settings.n_threads} threads"
    report.chart(png, runs, report.stats_table(tasks, runs), title)
    md = out.with_suffix(".md")
    text = report.markdown(header(data, settings, tasks, runs), tasks, runs, png.name)
    md.write_text(text, encoding="utf-8")
    return md


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.render:  # re-render a saved run, e.g. after changing the report
        data = json.loads(Path(args.render).read_text(encoding="utf-8"))
        md = write_results(Path(args.render).with_suffix(""), data)
        print(f"written: {md}", file=sys.stderr)
        return 0
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown or not systems:
        raise SystemExit(f"unknown system(s) {', '.join(unknown) or '(none)'}; known: {', '.join(SYSTEMS)}")
    try:
        tasks = select(load_tasks(args.taskfiles), args.families, args.split)
    except TaskFileError as exc:
        raise SystemExit(str(exc)) from None
    tasks = quick_select(tasks, QUICK_TASKS) if args.quick else tasks
    if args.ids:
        wanted = {i.strip() for i in args.ids.split(",") if i.strip()}
        missing = wanted - {t.id for t in tasks}
        if missing:
            raise SystemExit(f"no task(s) {', '.join(sorted(missing))} in the selection")
        tasks = [t for t in tasks if t.id in wanted]
    if args.tool_order == "sorted":
        tasks = [replace(t, tools=tuple(sorted(t.tools))) for t in tasks]
    settings = Settings(str(resolve_model(args.model)), n_ctx=args.n_ctx, n_threads=args.threads, timeout=args.timeout)
    print(f"== {len(tasks)} tasks on {', '.join(systems)}", file=sys.stderr, flush=True)
    revision = _git_revision()  # of the code that runs, before a long run gives the tree time to change
    reports = run_systems(systems, tasks, settings)
    shown = {**settings.to_json(), "model_path": settings.model_path.replace(str(Path.home()), "~")}  # no home paths
    stamp = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "revision": revision}  # kept for --render
    data = {"argv": argv, **stamp, "settings": shown, "tasks": [t.to_json() for t in tasks], "reports": reports}
    md = write_results(args.out_dir / (args.name or ("quick" if args.quick else "full")), data)
    print(md.read_text(encoding="utf-8").split("## Per task")[0])
    print(f"written: {md} (+ .png, .json)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
