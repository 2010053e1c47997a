"""Export and import of a memory directory as JSON lines (facts, principles, runs); vectors are recomputed on
import, so an export is small and readable. Import validates every line before writing any."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from agentcore.errors import UserError
from agentcore.memory.directory import EXPERIENCE, LONG_TERM, Stores
from agentcore.memory.principles import Principle, Trajectory

PAGE = 500


async def export_lines(stores: Stores) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    if stores.has(LONG_TERM):
        store, offset = stores.long_term(), 0
        while page := await store.list(limit=PAGE, offset=offset):
            lines += [{"entry": "fact", **asdict(r)} for r in page]
            offset += PAGE
    if stores.has(EXPERIENCE):
        bank = stores.bank()
        lines += [{"entry": "principle", **p.to_dict()} for p in bank.all()]
        rows = bank.db.read(lambda c: c.execute("SELECT id FROM trajectories ORDER BY created").fetchall())
        lines += [{"entry": "run", **asdict(t)} for r in rows if (t := bank.trajectory(r[0])) is not None]
    return lines


def _parse(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc}") from exc
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}, line {n}: not JSON ({exc.msg})") from exc
        if not isinstance(item, dict) or item.get("entry") not in ("fact", "principle", "run"):
            raise UserError(f"{path}, line {n}: expected an object with entry fact, principle or run")
        out.append(item)
    return out


def _principle(item: dict[str, Any]) -> Principle:
    return Principle(
        item["id"], item["type"], item["description"],
        tuple(tuple(t) for t in item.get("triplets", [])), int(item["usage"]), int(item["success"]),
        tuple(item.get("good", [])), tuple(item.get("bad", [])), bool(item["active"]), item.get("why", ""),
    )  # fmt: skip


def _trajectory(item: dict[str, Any]) -> Trajectory:
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in item.items() if k != "entry"}
    return Trajectory(**fields)


async def import_lines(stores: Stores, path: Path) -> dict[str, int]:
    items = _parse(path)
    counts = {"facts": 0, "principles": 0, "runs": 0}
    try:
        principles = [_principle(i) for i in items if i["entry"] == "principle"]
        runs = [_trajectory(i) for i in items if i["entry"] == "run"]
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{path}: a principle or run line lacks a field or has a wrong one ({exc})") from exc
    facts = [i for i in items if i["entry"] == "fact"]
    if facts:
        store = stores.long_term()
        for item in facts:
            await store.add(str(item["text"]), kind=str(item.get("kind", "fact")), metadata=item.get("metadata"))
            counts["facts"] += 1
    if principles or runs:
        bank = stores.bank()
        known = {p.id for p in bank.all()}
        for p in (p for p in principles if p.id not in known):
            vector = bank.vector(p.description)
            bank.db.write(lambda c, p=p, v=vector: bank.insert(c, p, v))
            counts["principles"] += 1
        for t in runs:
            bank.record(t)
            counts["runs"] += 1
    return counts
