"""`agentcore memory ...`: inspect and edit a memory directory (long-term facts and EvolveR experience).

stats | list [principles|facts|runs|experiences|skills] | show ID | search TEXT | remember TEXT | reflect |
accumulate | prune | forget ID | promote ID | export | import | feedback RUN_ID good|bad | teach FILE. Readable text by
default, `--json` for scripts. The directory is `--dir`, else $AGENTCORE_MEMORY_DIR, else the agentcore cache
folder's `memory/`. Reading commands never create a store.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from agentcore.errors import UserError
from agentcore.memory.directory import EXPERIENCE, LONG_TERM, Stores

WRITERS = {"remember", "import", "teach"}  # the commands that may create a store


def default_dir() -> Path:
    env = os.environ.get("AGENTCORE_MEMORY_DIR")
    if env:
        return Path(env).expanduser()
    from agentcore.models.registry import cache_dir

    return cache_dir() / "memory"


def add_memory_parser(sub: Any) -> None:
    """Register `agentcore memory` on the main parser's subcommands."""
    memory = sub.add_parser("memory", help="inspect and edit long-term memory and experience")
    memory.add_argument("--dir", default=None, help="memory directory (default: $AGENTCORE_MEMORY_DIR or the cache)")
    memory.add_argument("--json", action="store_true", help="print JSON")
    actions = memory.add_subparsers(dest="action", required=True)
    actions.add_parser("stats", help="how much is stored")
    listing = actions.add_parser("list", help="principles, facts or runs")
    listing.add_argument(
        "what", nargs="?", choices=["principles", "facts", "runs", "experiences", "skills"], default="principles"
    )
    listing.add_argument("--limit", type=int, default=50)
    for name in ("show", "forget", "promote"):
        actions.add_parser(name).add_argument("id")
    actions.add_parser("search").add_argument("text")
    actions.add_parser("remember", help="store a fact").add_argument("text")
    reflect = actions.add_parser("reflect", help="distil, dedupe, score and prune (runs the model)")
    reflect.add_argument("--model", default=None, help="registry name, .gguf path or URL (default model)")
    reflect.add_argument("--limit", type=int, default=None, help="at most this many runs")
    accumulate = actions.add_parser("accumulate", help="XSkill: critique runs into tips and skills (runs the model)")
    accumulate.add_argument("--model", default=None, help="registry name, .gguf path or URL (default model)")
    actions.add_parser("prune").add_argument("--below", type=float, default=0.3)
    actions.add_parser("export").add_argument("file", nargs="?", default="-")
    actions.add_parser("import").add_argument("file")
    feedback = actions.add_parser("feedback", help="the outcome of a run")
    feedback.add_argument("run_id")
    feedback.add_argument("verdict", choices=["good", "bad"])
    teach = actions.add_parser("teach", help="record a worked example (a corrected run); reflect makes it a lesson")
    teach.add_argument("file", help='JSON: {"task": ..., "calls": [{"tool", "arguments", "result"}], "answer": ...}')


def run_memory(args: argparse.Namespace) -> int:
    root = Path(args.dir).expanduser() if args.dir else default_dir()
    stores = Stores(root, create=args.action in WRITERS)
    if args.action not in WRITERS and not (stores.has(LONG_TERM) or stores.has(EXPERIENCE)):
        raise UserError(f"no memory store in {root} (agents write one with Memory.open({str(root)!r}))")
    handler = HANDLERS[args.action]
    data, text = asyncio.run(handler(stores, args))
    print(json.dumps(data, indent=2, default=str) if args.json else text)
    return 0


Result = tuple[Any, str]


async def _stats(stores: Stores, args: argparse.Namespace) -> Result:
    data: dict[str, Any] = {"dir": str(stores.root)}
    if stores.has(LONG_TERM):
        data["facts"] = await stores.long_term().count()
    if stores.has(EXPERIENCE):
        data.update(stores.bank().counts())
    sizes = {n: (stores.root / n).stat().st_size for n in (LONG_TERM, EXPERIENCE) if stores.has(n)}
    data["bytes"] = sizes
    return data, "\n".join(f"{k}: {v}" for k, v in data.items())


async def _list(stores: Stores, args: argparse.Namespace) -> Result:
    if args.what == "facts":
        records = await stores.long_term().list(limit=args.limit)
        return [asdict(r) for r in records], "\n".join(f"{r.id}  {r.kind:8} {_one_line(r.text)}" for r in records)
    bank = stores.bank()
    if args.what in ("experiences", "skills"):
        from agentcore.memory.xskill import XSkill

        xs = XSkill(bank)
        if args.what == "skills":
            skills = xs.skills()
            return [asdict(k) for k in skills], "\n".join(k.render() for k in skills) or "(none)"
        tips = xs.experiences()[: args.limit]
        return [asdict(e) for e in tips], "\n".join(f"{e.id}  {_one_line(e.text)}" for e in tips) or "(none)"
    if args.what == "runs":
        rows = bank.db.read(lambda c: c.execute(
            "SELECT id, outcome, reflected, task FROM trajectories ORDER BY created DESC LIMIT ?", (args.limit,)
        ).fetchall())  # fmt: skip
        runs = [{"id": r[0], "outcome": _outcome(r[1]), "reflected": bool(r[2]), "task": r[3]} for r in rows]
        return runs, "\n".join(f"{r['id']}  {r['outcome']:7} {_one_line(r['task'])}" for r in runs)
    principles = bank.all()[: args.limit]
    return [p.to_dict() for p in principles], "\n".join(_principle_line(p) for p in principles) or "(none)"


async def _show(stores: Stores, args: argparse.Namespace) -> Result:
    if stores.has(EXPERIENCE):
        bank = stores.bank()
        p = bank.get(args.id)
        if p is not None:
            return p.to_dict(), "\n".join(f"{k}: {v}" for k, v in p.to_dict().items())
        t = bank.trajectory(args.id)
        if t is not None:
            data = asdict(t)
            return data, "\n".join(f"{k}: {v}" for k, v in data.items() if k != "untrusted_texts")
    if stores.has(LONG_TERM):
        r = await stores.long_term().get(args.id)
        if r is not None:
            return asdict(r), f"{r.id} ({r.kind})\n{r.text}"
    raise UserError(f"no principle, run or fact with id {args.id!r} in {stores.root}")


async def _search(stores: Stores, args: argparse.Namespace) -> Result:
    data: dict[str, Any] = {"facts": [], "principles": []}
    if stores.has(LONG_TERM):
        data["facts"] = [asdict(r) for r in await stores.long_term().search(args.text, 5)]
    if stores.has(EXPERIENCE):
        hits = stores.bank().search(args.text, 5)
        data["principles"] = [{**h.principle.to_dict(), "similarity": round(h.similarity, 3)} for h in hits]
    lines = [f"fact {f['id']}: {_one_line(f['text'])}" for f in data["facts"]]
    lines += [f"{p['id']} ({p['similarity']:.2f}) {p['description']}" for p in data["principles"]]
    return data, "\n".join(lines) or "nothing found"


async def _remember(stores: Stores, args: argparse.Namespace) -> Result:
    record_id = await stores.long_term().add(args.text)
    return {"id": record_id}, record_id


async def _reflect(stores: Stores, args: argparse.Namespace) -> Result:
    from agentcore.memory.reflect import Reflector
    from agentcore.models.loader import load_model_async

    model = await load_model_async(args.model, progress=lambda line: print(line, file=sys.stderr))
    report = await Reflector(stores.bank(), model).reflect(limit=args.limit)
    data = report.to_dict()
    text = (
        f"{report.trajectories} runs in {report.seconds:.1f}s ({report.model_calls} model calls): "
        f"{len(report.inserted)} new, {len(report.merged)} merged, {len(report.waiting)} waiting, "
        f"{len(report.pruned)} pruned, {report.skipped} skipped, {len(report.rejected)} rejected"
    )
    return data, text


async def _accumulate(stores: Stores, args: argparse.Namespace) -> Result:
    from agentcore.memory.xskill import XSkill
    from agentcore.models.loader import load_model_async

    model = await load_model_async(args.model, progress=lambda line: print(line, file=sys.stderr))
    report = await XSkill(stores.bank()).accumulate(model)
    text = (
        f"{report.runs} runs in {report.families} families, {report.seconds:.1f}s ({report.model_calls} model calls): "
        f"{len(report.added)} added, {len(report.modified)} modified, {len(report.merged)} merged, "
        f"{report.dropped} dropped; skills: {', '.join(report.skills) or 'none'}"
    )
    return report.to_dict(), text


async def _prune(stores: Stores, args: argparse.Namespace) -> Result:
    gone = stores.bank().prune(args.below)
    return {"pruned": gone}, f"pruned {len(gone)}: {' '.join(gone)}".strip()


async def _forget(stores: Stores, args: argparse.Namespace) -> Result:
    done = stores.has(EXPERIENCE) and stores.bank().forget(args.id)
    if not done and stores.has(LONG_TERM):
        done = await stores.long_term().delete(args.id)
    if not done:
        raise UserError(f"no principle or fact with id {args.id!r} in {stores.root}")
    return {"forgotten": args.id}, f"forgot {args.id}"


async def _promote(stores: Stores, args: argparse.Namespace) -> Result:
    if not stores.bank().promote(args.id):
        raise UserError(f"no principle with id {args.id!r}")
    return {"promoted": args.id}, f"{args.id} is active"


async def _feedback(stores: Stores, args: argparse.Namespace) -> Result:
    good = args.verdict == "good"
    if not stores.bank().feedback(args.run_id, good):
        raise UserError(f"no recorded run {args.run_id!r} in {stores.root / EXPERIENCE}")
    return {"run_id": args.run_id, "good": good}, f"run {args.run_id}: {args.verdict}"


async def _teach(stores: Stores, args: argparse.Namespace) -> Result:
    from agentcore.memory.principles import taught_run

    task, calls, answer = _worked_example(Path(args.file))
    run = taught_run(task, calls, answer)
    stores.bank().record(run)
    return {"run_id": run.id, "steps": len(calls)}, f"taught run {run.id} ({len(calls)} calls); reflect to learn it"


def _worked_example(path: Path) -> tuple[str, list[tuple[str, dict[str, Any], str]], str]:
    """The teach file's task, calls and answer; a clear error naming the field that is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"cannot read the worked example {path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("task"), str) or "answer" not in data:
        raise UserError(f'{path}: expected {{"task": TEXT, "calls": [...], "answer": ...}}')
    calls = []
    for index, item in enumerate(data.get("calls", [])):
        ok = isinstance(item, dict) and isinstance(item.get("tool"), str) and isinstance(item.get("arguments"), dict)
        if not ok or "result" not in item:
            raise UserError(f"{path}: calls[{index}] needs tool (text), arguments (object) and result")
        calls.append((item["tool"], item["arguments"], str(item["result"])))
    return data["task"], calls, str(data["answer"])


async def _export(stores: Stores, args: argparse.Namespace) -> Result:
    from agentcore.memory.transfer import export_lines

    lines = await export_lines(stores)
    if args.file == "-":
        return lines, "\n".join(json.dumps(line, default=str) for line in lines)
    Path(args.file).write_text("".join(json.dumps(line, default=str) + "\n" for line in lines), encoding="utf-8")
    return {"exported": len(lines), "file": args.file}, f"exported {len(lines)} entries to {args.file}"


async def _import(stores: Stores, args: argparse.Namespace) -> Result:
    from agentcore.memory.transfer import import_lines

    counts = await import_lines(stores, Path(args.file))
    return counts, ", ".join(f"{v} {k}" for k, v in counts.items())


HANDLERS = {
    "stats": _stats, "list": _list, "show": _show, "search": _search, "remember": _remember,
    "reflect": _reflect, "accumulate": _accumulate, "prune": _prune, "forget": _forget, "promote": _promote,
    "feedback": _feedback, "teach": _teach,
    "export": _export, "import": _import,
}  # fmt: skip


def _one_line(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _outcome(value: int | None) -> str:
    return "unknown" if value is None else ("good" if value else "bad")


def _principle_line(p: Any) -> str:
    state = "" if p.active else "  (waiting: " + p.why + ")"
    return f"{p.id}  {p.type:10} score {p.score:.2f} ({p.success}/{p.usage})  {_one_line(p.description)}{state}"
