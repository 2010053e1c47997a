"""Learning gain from experience memory: `python -m bench.learning --train FILE --test FILE [--systems ...]`.

The learning systems share one pass over the train tasks with memory writing (each task's check is the run's
outcome); then EvolveR reflects and XSkill accumulates over those same runs, and each runs the test tasks with
its memory read-only. `none` runs the test tasks with no memory. Every system
runs in one process on the same real default model (greedy), so the columns compare like with like.

Systems:
- `none`: no memory.
- `evolver`: EvolveR principles with the default safety rule (a lesson from a failed run waits inactive until a
  confirmed success merges into it).
- `evolver-failures`: the same bank, with the cautionary lessons of trusted failed runs (no block, no quarantined
  or echoed tool text) made active: what the strict rule costs.
- `xskill`: XSkill experiences and skills (its own tables), accumulated after the train runs, no adapt stage.
- `evolver-taught`: the evolver bank, where a person also corrected each failed train run (`Memory.teach` with
  the task's reference calls and answer) before reflect: learning from corrections, not from the runs alone.

Prints a table and, with `--out-dir DIR`, writes `DIR/learning.json` as {"systems": {NAME: {"test_success": ...}}}.
The shipped split (bench/learning/train.jsonl, test.jsonl) shares no task; the test split was never used to tune.
dev.jsonl is the tuning split; test2.jsonl is a second held-out split of new tasks, written after test.jsonl's
second use (`--test bench/learning/test2.jsonl`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench import checks, toolbox
from bench.suite import Task, load_task_file
from bench.systems.common import warm_up

HERE = Path(__file__).resolve().parent
SYSTEMS = ("none", "evolver", "xskill", "evolver-failures", "evolver-taught")


@dataclass(slots=True)
class Outcome:
    id: str
    family: str
    ok: bool
    output: str | None
    calls: list[str] = field(default_factory=list)
    seconds: float = 0.0
    recalled: list[str] = field(default_factory=list)


async def run_task(model: Any, task: Task, memory: Any, max_steps: int) -> Outcome:
    from agentcore import Agent
    from agentcore.errors import AgentRunError

    if memory is not None:
        memory.verifier = lambda result: checks.passes(task.check, result.output)
        memory.family = task.family
    agent: Agent[None, str] = Agent(model, tools=toolbox.agent_tools(task.tools), max_steps=max_steps, memory=memory)
    started = time.perf_counter()
    try:
        result: Any = await agent.run(task.task, timeout=120)
    except AgentRunError as exc:
        result = exc.partial
    seconds = time.perf_counter() - started
    output = None if result is None or result.output is None else str(result.output)
    calls = [s.call.signature() for s in (result.steps if result else []) if s.call is not None]
    recalled = [r for e in (result.trace if result else []) if e["kind"] == "memory" for r in e["recalled"]]
    return Outcome(task.id, task.family, checks.passes(task.check, output), output, calls, seconds, recalled)


async def run_tasks(model: Any, tasks: Sequence[Task], memory: Any, max_steps: int, label: str) -> list[Outcome]:
    out = []
    for task in tasks:
        outcome = await run_task(model, task, memory, max_steps)
        mark = "ok " if outcome.ok else "BAD"
        print(f"  [{label}] {mark} {task.id} {outcome.seconds:5.1f}s {outcome.output!r:.60} {outcome.calls}",
              file=sys.stderr, flush=True)  # fmt: skip
        out.append(outcome)
    return out


def summary(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    families = sorted({o.family for o in outcomes})
    by_family = {f: _rate([o for o in outcomes if o.family == f]) for f in families}
    return {"test_success": _rate(outcomes), "families": by_family, "tasks": [asdict(o) for o in outcomes]}


def _rate(outcomes: Sequence[Outcome]) -> float:
    return round(sum(o.ok for o in outcomes) / len(outcomes), 4) if outcomes else 0.0


async def learn(
    model: Any, train: Sequence[Task], root: Path, max_steps: int, systems: Sequence[str]
) -> dict[str, Any]:
    """One train pass with memory writing into one experience file, then EvolveR's reflect and XSkill's
    accumulation over the same runs (each has its own tables): the systems learn from identical experience."""
    from agentcore.memory import Memory, PrincipleBank, XSkill

    bank = PrincipleBank(root / "experience.db")
    memory = Memory(experience=bank, xskill=XSkill(bank), remember_exchanges=False)
    outcomes = await run_tasks(model, train, memory, max_steps, "train")
    trained = _rate(outcomes)
    out: dict[str, Any] = {}
    if "evolver-taught" in systems:  # before reflect: the copy's runs are still pending
        _copy_bank(root / "experience.db", root / "experience-taught.db")
    if any(name.startswith("evolver") for name in systems):
        report = await memory.reflect(model)
        print(f"  [reflect] {report.trajectories} runs, {report.model_calls} calls, {report.seconds:.1f}s: "
              f"{len(report.inserted)} active, {len(report.waiting)} waiting, {len(report.merged)} merged",
              file=sys.stderr)  # fmt: skip
        for p in bank.all():
            print(f"    {p.id} {'active ' if p.active else 'waiting'} {p.type:10} {p.description}", file=sys.stderr)
        out["evolver"] = _learnt(trained, report.to_dict(), report.model_calls, report.seconds, report.trajectories)
    if "evolver-taught" in systems:
        out["evolver-taught"] = await _taught(model, train, outcomes, root / "experience-taught.db", trained)
    if "xskill" in systems:
        acc = await memory.accumulate(model)
        print(f"  [accumulate] {acc.runs} runs, {acc.model_calls} calls, {acc.seconds:.1f}s: {len(acc.added)} added, "
              f"{len(acc.modified)} modified, {len(acc.merged)} merged, {acc.dropped} dropped, skills {acc.skills}",
              file=sys.stderr)  # fmt: skip
        xs = XSkill(bank)
        for e in xs.experiences():
            print(f"    {e.id} {e.text}", file=sys.stderr)
        for skill in xs.skills():
            print(f"    skill {skill.render()}", file=sys.stderr)
        out["xskill"] = _learnt(trained, acc.to_dict(), acc.model_calls, acc.seconds, acc.runs)
    bank.close()
    for entry in out.values():
        entry["store_bytes"] = (root / "experience.db").stat().st_size
    return out


def _learnt(trained: float, report: dict[str, Any], calls: int, seconds: float, runs: int) -> dict[str, Any]:
    per = max(runs, 1)
    return {"train_success": trained, "reflect": {**report, "calls_per_trajectory": round(calls / per, 2),
                                                  "seconds_per_trajectory": round(seconds / per, 2)}}  # fmt: skip


async def _taught(
    model: Any, train: Sequence[Task], outcomes: Sequence[Outcome], path: Path, trained: float
) -> dict[str, Any]:
    """Each failed train run corrected by its reference calls (run on the real tools) and answer, then reflect."""
    from agentcore.memory import Memory, PrincipleBank

    bank = PrincipleBank(path)
    memory = Memory(experience=bank, remember_exchanges=False)
    taught = 0
    for task, outcome in zip(train, outcomes, strict=True):
        if outcome.ok or not task.ref:
            continue
        calls = [(c["tool"], c["arguments"], toolbox.call(c["tool"], c["arguments"])) for c in task.ref]
        memory.family = task.family
        memory.teach(task.task, calls, str(task.check["value"]))
        taught += 1
    report = await memory.reflect(model)
    print(f"  [reflect, taught {taught}] {report.trajectories} runs: {len(report.inserted)} active", file=sys.stderr)
    for p in bank.all(active_only=True):
        print(f"    {p.id} active {p.type:10} {p.description}", file=sys.stderr)
    bank.close()
    learnt = _learnt(trained, report.to_dict(), report.model_calls, report.seconds, report.trajectories)
    return {**learnt, "taught": taught}


def _copy_bank(source: Path, target: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{target}{suffix}")


def open_failures(source: Path, target: Path) -> int:
    """A copy of the bank with trusted failures' cautionary lessons made active; returns how many."""
    from agentcore.memory import PrincipleBank

    _copy_bank(source, target)
    bank = PrincipleBank(target)
    waiting = [p for p in bank.all() if not p.active and p.why.endswith("waits for a confirmed success")]
    for p in waiting:
        bank.promote(p.id)
    bank.close()
    return len(waiting)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    import agentcore.memory.lessons
    import agentcore.memory.reflect
    import agentcore.memory.xskill  # noqa: F401  (all loaded now: a long run is not mixed with later edits)
    from agentcore.memory import Memory, PrincipleBank
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    train, test = load_task_file(args.train), load_task_file(args.test)
    overlap = {t.task for t in train} & {t.task for t in test}
    if overlap:
        raise SystemExit(f"train and test share tasks: {sorted(overlap)}")
    model = LlamaCppModel(str(model_path(DEFAULT_MODEL)), n_ctx=4096, n_threads=args.threads, seed=0)
    warm_up(model.load())  # loaded before the clock of any task starts
    systems: dict[str, Any] = {}
    root = Path(tempfile.mkdtemp(prefix="agentcore-learning-"))
    learners = [n for n in args.systems if n != "none"]
    learnt = await learn(model, train, root, args.max_steps, learners) if learners else {}
    for name in args.systems:
        if name == "none":
            systems[name] = summary(await run_tasks(model, test, None, args.max_steps, name))
        elif name == "xskill":
            from agentcore.memory import XSkill

            bank = PrincipleBank(root / "experience.db")
            memory = Memory(experience=bank, evolver=False, xskill=XSkill(bank), learn=False)
            tested = summary(await run_tasks(model, test, memory, args.max_steps, name))
            systems[name] = {**tested, **learnt["xskill"], "active_principles": len(XSkill(bank).experiences())}
        else:
            path, extra, source = root / "experience.db", {}, learnt.get("evolver", {})
            if name == "evolver-taught":
                path, source = root / "experience-taught.db", learnt["evolver-taught"]
            if name == "evolver-failures":
                path = root / "experience-failures.db"
                extra["opened"] = open_failures(root / "experience.db", path)
            bank = PrincipleBank(path)
            extra["active_principles"] = len(bank.all(active_only=True))
            memory = Memory(experience=bank, learn=False)
            tested = summary(await run_tasks(model, test, memory, args.max_steps, name))
            systems[name] = {**tested, **source, **extra}
    shutil.rmtree(root, ignore_errors=True)
    return {"command": " ".join(["python -m bench.learning", *sys.argv[1:]]), "model": DEFAULT_MODEL,
            "train": str(args.train), "test": str(args.test), "systems": systems}  # fmt: skip


def table(data: dict[str, Any]) -> str:
    systems = data["systems"]
    families = sorted({f for s in systems.values() for f in s["families"]})
    head = ["system", "test success", *families, "train success", "learn calls/run", "learn s/run", "entries"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, s in systems.items():
        reflect = s.get("reflect", {})
        row = [name, f"{s['test_success']:.0%}", *(f"{s['families'].get(f, 0):.0%}" for f in families),
               f"{s['train_success']:.0%}" if "train_success" in s else "–",
               str(reflect.get("calls_per_trajectory", "–")), str(reflect.get("seconds_per_trajectory", "–")),
               str(s.get("active_principles", "–"))]  # fmt: skip
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.learning", description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, default=HERE / "train.jsonl")
    parser.add_argument("--test", type=Path, default=HERE / "test.jsonl")
    parser.add_argument("--systems", default=",".join(SYSTEMS[:3]), help=f"comma-separated: {', '.join(SYSTEMS)}")
    parser.add_argument("--out-dir", type=Path, default=None)
    parser.add_argument("--max-steps", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = sorted(set(args.systems) - set(SYSTEMS))
    if unknown:
        parser.error(f"unknown system(s) {', '.join(unknown)}; choose from {', '.join(SYSTEMS)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    data = asyncio.run(main_async(args))
    print(f"command: {data['command']}\nmodel: {data['model']}\n")
    print(table(data))
    if args.out_dir is not None:
        args.out_dir.mkdir(parents=True, exist_ok=True)
        (args.out_dir / "learning.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
        (args.out_dir / "learning.md").write_text(table(data) + "\n", encoding="utf-8")
    return 0
