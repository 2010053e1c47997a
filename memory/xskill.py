"""XSkill's two streams (TECHNIQUES.md section 4), kept beside EvolveR's principles in the same experience file.

- **Experiences**: action-level tips of at most 64 words that start with a trigger ("When ..." / "If ..."), ids
  E1, E2, ..., at most `cap` (120). An add whose cosine to an entry is >= 0.70 is merged into it by the model;
  above the cap, pairs at >= 0.60 are merged, highest first, for up to 3 rounds.
- **Skills**: one structured document per task family: when to use, strategy, workflow, tool templates,
  watch-outs (front matter: name, description, version).

`accumulate(model)` goes over the judged runs not yet accumulated, family by family:
1. summarise each run (from its recorded steps: tools, arguments, results, outcome, the experiences it was shown;
   built from the record rather than by a model call, which costs a 0.5B model seconds and adds nothing);
2. critique the family's runs in one constrained call: at most 3 operations, `add` or `modify E<n>`, given the
   outcomes and the experiences the runs were shown (the cited ids feed back in);
3. apply them (merge by similarity as above), then rewrite the family's skill in one constrained call.
Runs that were blocked or read quarantined output are left out, and an experience that repeats a tool result's
words is dropped (AgentLAB).

At inference `recall(task)` returns the top experiences and the nearest family's skill; `adapt=True` (off by
default: one more model call per run, costly on small models) rewrites them for the task first.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentcore.errors import ModelError
from agentcore.memory.lessons import (
    applies,
    carries_tool_text,
    echoes,
    grounded_lesson,
    order_match,
    plausible,
    task_pattern,
)
from agentcore.memory.principles import PrincipleBank, Trajectory
from agentcore.messages import MemoryItem, Message, ModelRequest

if TYPE_CHECKING:
    from agentcore.messages import Model

ADD_MERGE, CAP_MERGE, CAP, MAX_WORDS, MAX_OPS = 0.70, 0.60, 120, 64, 3
MATCH, DIRECT_FLOOR = 0.75, 0.4  # as Memory's lesson_match and direct_floor

_TIP = {"type": "string", "maxLength": 320}
CRITIQUE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "maxItems": MAX_OPS,
            "items": {
                "type": "object",
                "properties": {
                    "op": {"enum": ["add", "modify"]},
                    "id": {"type": "string", "maxLength": 5},
                    "text": _TIP,
                },
                "required": ["op", "id", "text"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["operations"],
    "additionalProperties": False,
}
MERGE_SCHEMA: dict[str, Any] = {
    "type": "object", "properties": {"text": _TIP}, "required": ["text"], "additionalProperties": False,
}  # fmt: skip
_LIST = {"type": "array", "maxItems": 4, "items": {"type": "string", "maxLength": 120}}
SKILL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "description": {"type": "string", "maxLength": 120},
        "when_to_use": {"type": "string", "maxLength": 160},
        "strategy": {"type": "string", "maxLength": 200},
        "workflow": _LIST,
        "tool_templates": {**_LIST, "maxItems": 3},
        "watch_out": {**_LIST, "maxItems": 3},
    },
    "required": ["description", "when_to_use", "strategy", "workflow", "tool_templates", "watch_out"],
    "additionalProperties": False,
}
ADAPT_SCHEMA: dict[str, Any] = {**MERGE_SCHEMA}

CRITIQUE_SYSTEM = (
    "You improve a list of short tips for an AI agent that uses tools. You see several attempts at tasks of one "
    "kind, whether each was right, and the tips they were shown. Propose at most 3 operations: add a new tip, or "
    "modify an existing tip by its id (E1, E2, ...). Each tip starts with 'When' or 'If', is general (no numbers "
    "from one task) and is at most 40 words. Fix what made attempts fail; keep what made them succeed."
)
MERGE_SYSTEM = "Merge two tips for an AI agent into one tip that keeps both pieces of advice, at most 40 words."
SKILL_SYSTEM = (
    "You write a short procedure for an AI agent that solves tasks of one kind with tools: when to use it, the "
    "strategy, the workflow steps, tool call templates with placeholders like <value>, and what to watch out for. "
    "Base it on the attempts shown and on the current procedure, if any."
)
ADAPT_SYSTEM = "Rewrite the tips for this one task, dropping those that do not apply. At most 60 words."


@dataclass(frozen=True, slots=True)
class Experience:
    id: str
    text: str
    uses: int = 0


@dataclass(frozen=True, slots=True)
class Skill:
    family: str
    doc: dict[str, Any]
    version: int

    def render(self) -> str:
        d = self.doc
        parts = [f"{self.family} (v{self.version}): {d.get('description', '')}", f"When: {d.get('when_to_use', '')}",
                 f"Strategy: {d.get('strategy', '')}"]  # fmt: skip
        for title, key in (("Steps", "workflow"), ("Templates", "tool_templates"), ("Watch out", "watch_out")):
            if d.get(key):
                parts.append(f"{title}: " + "; ".join(str(x) for x in d[key]))
        return " | ".join(p for p in parts if not p.endswith(": "))


@dataclass(slots=True)
class AccumulateReport:
    runs: int = 0
    families: int = 0
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    dropped: int = 0  # operations refused: unknown id, no trigger, too long, echoing a tool result
    skills: list[str] = field(default_factory=list)
    model_calls: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def summarise(t: Trajectory) -> str:
    shown = f" Tips shown: {', '.join(t.retrieved)}." if t.retrieved else ""
    steps = "; ".join(t.steps[-4:]) or "no tool call"
    verdict = "RIGHT" if t.outcome else "WRONG"
    return f"Task: {t.task} Steps: {steps}. Answer: {t.answer[:80]} ({verdict}).{shown}"


def _json(content: str | None) -> dict[str, Any] | None:
    try:
        data = json.loads(content or "")
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


_TRIGGER = re.compile(r"^(when|if)\b", re.I)


def valid_tip(text: str) -> bool:
    return bool(_TRIGGER.match(text.strip())) and 3 <= len(text.split()) <= MAX_WORDS


class XSkill:
    """XSkill's experiences and skills in `bank`'s file (see the module doc)."""

    def __init__(
        self, bank: PrincipleBank, *, cap: int = CAP, k: int = 3, adapt: bool = False, match: float = MATCH
    ) -> None:
        self.bank, self.cap, self.k, self.adapt = bank, cap, k, adapt  # its tables are in the bank's schema
        self.match = match  # a worked example's pattern must agree this much with the task's (order_match)

    # -- reading ---------------------------------------------------------------------------------------------

    def experiences(self) -> list[Experience]:
        rows = self.bank.db.read(lambda c: c.execute("SELECT n, text, uses FROM xs_experiences ORDER BY n").fetchall())
        return [Experience(f"E{n}", text, uses) for n, text, uses in rows]

    def skills(self) -> list[Skill]:
        rows = self.bank.db.read(lambda c: c.execute("SELECT family, doc, version FROM xs_skills").fetchall())
        return [Skill(f, json.loads(d), v) for f, d, v in rows]

    def recall(self, task: str, *, min_similarity: float = 0.3) -> list[MemoryItem]:
        """The top `k` experiences for `task` and the nearest family's skill, as memory items."""
        import numpy as np

        pattern = task_pattern(task).text  # worked examples are embedded by their task pattern
        query = np.asarray(self.bank.embedder.embed([pattern])[0], dtype=np.float32)
        near = self._scored(query, self.k * 3, min_similarity)
        kept = [e for e, sim in near if applies(e.text, pattern, sim, match=self.match, direct_floor=DIRECT_FLOOR)]
        items = [MemoryItem("experience", e.text, e.id) for e in kept[: self.k]]
        skill = self._skill_for(pattern)
        if skill is not None:
            items.append(MemoryItem("skill", skill.render(), f"skill:{skill.family}"))
        return items

    def _skill_for(self, pattern: str) -> Skill | None:
        """The skill of the family whose verified task patterns agree best, in order, with the task's (at least
        `match`); a family without a verified success has no pattern and is never shown."""
        best, score = None, self.match
        for skill in self.skills():
            for seen in skill.doc.get("patterns") or []:
                if (m := order_match(pattern, str(seen))) >= score:
                    best, score = skill, m
        return best

    def _nearest(self, query: Any, k: int, floor: float) -> list[Experience]:
        return [e for e, _ in self._scored(query, k, floor)]

    def _scored(self, query: Any, k: int, floor: float) -> list[tuple[Experience, float]]:
        import numpy as np

        rows = self.bank.db.read(lambda c: c.execute("SELECT n, text, uses, vector FROM xs_experiences").fetchall())
        if not rows:
            return []
        sims = _matrix([r[3] for r in rows]) @ query
        order = [int(i) for i in np.argsort(-sims)[:k] if sims[i] >= floor]
        return [(Experience(f"E{rows[i][0]}", rows[i][1], rows[i][2]), float(sims[i])) for i in order]

    async def adapted(self, model: Model, task: str, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """`items` rewritten for `task` by the model (the optional adapt stage)."""
        tips = "\n".join(f"- {i.text}" for i in items if i.kind == "experience")
        if not tips:
            return list(items)
        request = ModelRequest(
            messages=(Message("system", ADAPT_SYSTEM), Message("user", f"Task: {task}\nTips:\n{tips}")),
            output_schema=ADAPT_SCHEMA, max_tokens=120,
        )  # fmt: skip
        try:
            text = str((_json((await model.complete(request)).content) or {}).get("text", "")).strip()
        except ModelError:
            return list(items)
        rest = [i for i in items if i.kind != "experience"]
        return [MemoryItem("experience", text, "adapted"), *rest] if text else list(items)

    # -- accumulation ----------------------------------------------------------------------------------------

    def pending(self) -> list[Trajectory]:
        sql = "SELECT id FROM trajectories WHERE accumulated = 0 AND outcome IS NOT NULL ORDER BY created, rowid"
        ids = [r[0] for r in self.bank.db.read(lambda c: c.execute(sql).fetchall())]
        return [t for i in ids if (t := self.bank.trajectory(i)) is not None]

    async def accumulate(self, model: Model) -> AccumulateReport:
        report, started = AccumulateReport(), time.perf_counter()
        groups: dict[str, list[Trajectory]] = defaultdict(list)
        for t in self.pending():
            groups[t.family or "general"].append(t)
        for family, runs in groups.items():
            report.families += 1
            report.runs += len(runs)
            await self._family(model, family, runs, report)
        await self._enforce_cap(model, report)
        report.seconds = time.perf_counter() - started
        return report

    async def _family(self, model: Model, family: str, runs: list[Trajectory], report: AccumulateReport) -> None:
        trusted = [t for t in runs if t.trusted]
        summaries = "\n".join(f"{i + 1}. {summarise(t)}" for i, t in enumerate(trusted[-8:]))
        tool_texts = tuple(text for t in runs for text in t.untrusted_texts)
        for t in trusted:
            if t.outcome:
                self._grounded(t, report)
        if trusted:
            shown = {r for t in trusted for r in t.retrieved}
            current = "\n".join(f"{e.id}: {e.text}" for e in self.experiences() if e.id in shown) or "(none)"
            user = f"Attempts:\n{summaries}\nTips they were shown:\n{current}"
            report.model_calls += 1
            data = await _ask(model, CRITIQUE_SYSTEM, user, CRITIQUE_SCHEMA, 320)
            tasks = tuple(t.task for t in runs)
            for op in list((data or {}).get("operations") or [])[:MAX_OPS]:
                await self._apply(model, op, tool_texts, report, tasks)
            report.model_calls += 1
            await self._skill(model, family, summaries, report, trusted)
        ids = [(t.id,) for t in runs]
        self.bank.db.write(lambda c: c.executemany("UPDATE trajectories SET accumulated = 1 WHERE id = ?", ids))

    def _grounded(self, t: Trajectory, report: AccumulateReport) -> None:
        """A trusted success as a worked-example experience (agentcore.memory.lessons), embedded by its task
        pattern; the same example again is counted as a merge, not asked of the model."""
        trigger, lesson = grounded_lesson(t)
        text = "When a task is like" + lesson.removeprefix("For a task like")
        if not valid_tip(text) or echoes(text, t.untrusted_texts) or carries_tool_text(t):
            report.dropped += 1
            return
        same = self.bank.db.read(lambda c: c.execute("SELECT n FROM xs_experiences WHERE text = ?", (text,)).fetchone())
        if same is not None:
            report.merged.append(f"E{same[0]}")
            return
        report.added.append(self._insert(text, self.bank.vector(trigger)))

    async def _apply(
        self, model: Model, op: Any, tool_texts: tuple[str, ...], report: AccumulateReport, tasks: tuple[str, ...] = ()
    ) -> None:
        text = " ".join(str(op.get("text", "")).split()) if isinstance(op, dict) else ""
        if not valid_tip(text) or echoes(text, tool_texts) or not plausible(text, tasks):
            report.dropped += 1
            return
        vector = self.bank.vector(text)
        if op.get("op") == "modify":
            n = _number(str(op.get("id", "")))
            if n is None or not self._exists(n):
                report.dropped += 1
                return
            self.bank.db.write(lambda c: c.execute("UPDATE xs_experiences SET text = ?, vector = ? WHERE n = ?",
                                                   (text, vector, n)))  # fmt: skip
            report.modified.append(f"E{n}")
            return
        close = self._closest(vector)
        if close is not None and close[1] >= ADD_MERGE:
            merged = await self._merge(model, close[0].text, text, report)
            if merged is not None:
                self._replace(_number(close[0].id) or 0, merged)
                report.merged.append(close[0].id)
                return
        report.added.append(self._insert(text, vector))

    async def _merge(self, model: Model, a: str, b: str, report: AccumulateReport) -> str | None:
        report.model_calls += 1
        data = await _ask(model, MERGE_SYSTEM, f"Tip 1: {a}\nTip 2: {b}", MERGE_SCHEMA, 120)
        text = " ".join(str((data or {}).get("text", "")).split())
        return text if valid_tip(text) else None

    async def _skill(
        self, model: Model, family: str, summaries: str, report: AccumulateReport, runs: Sequence[Trajectory] = ()
    ) -> None:
        old = next((s for s in self.skills() if s.family == family), None)
        current = json.dumps(old.doc) if old else "(none yet)"
        data = await _ask(model, SKILL_SYSTEM, f"Kind of task: {family}\nCurrent procedure: {current}\n"
                          f"Attempts:\n{summaries}", SKILL_SCHEMA, 400)  # fmt: skip
        if data is None:
            return
        data = _grounded_skill(data, runs, tuple(t.task for t in runs))
        version = (old.version + 1) if old else 1
        vector = self.bank.vector(f"{family}: {data.get('description', '')} {data.get('when_to_use', '')}")
        self.bank.db.write(lambda c: c.execute(
            "INSERT OR REPLACE INTO xs_skills (family, doc, version, vector) VALUES (?, ?, ?, ?)",
            (family, json.dumps(data), version, vector)))  # fmt: skip
        report.skills.append(f"{family} v{version}")

    async def _enforce_cap(self, model: Model, report: AccumulateReport) -> None:
        """Above the cap: merge the closest pairs at >= 0.60, highest first, for up to 3 rounds."""
        import numpy as np

        for _ in range(3):
            rows = self.bank.db.read(lambda c: c.execute("SELECT n, text, vector FROM xs_experiences").fetchall())
            if len(rows) <= self.cap:
                return
            sims = _matrix([r[2] for r in rows])
            sims = sims @ sims.T
            np.fill_diagonal(sims, -1.0)
            pairs = sorted(((float(sims[i, j]), i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))
                            if sims[i, j] >= CAP_MERGE), reverse=True)  # fmt: skip
            used: set[int] = set()
            for _sim, i, j in pairs:
                if len(rows) - len(used) // 2 <= self.cap or i in used or j in used:
                    continue
                merged = await self._merge(model, rows[i][1], rows[j][1], report)
                if merged is not None:
                    self._replace(rows[i][0], merged)
                    self._delete(int(rows[j][0]))
                    used |= {i, j}
                    report.merged.append(f"E{rows[j][0]}->E{rows[i][0]}")

    def _closest(self, vector: bytes) -> tuple[Experience, float] | None:
        import numpy as np

        found = self._nearest(np.frombuffer(vector, dtype=np.float32), 1, -1.0)
        if not found:
            return None
        row = self.bank.db.read(lambda c: c.execute("SELECT vector FROM xs_experiences WHERE n = ?",
                                                    (_number(found[0].id),)).fetchone())  # fmt: skip
        return found[0], float(np.frombuffer(row[0], dtype=np.float32) @ np.frombuffer(vector, dtype=np.float32))

    def _delete(self, n: int) -> None:
        self.bank.db.write(lambda c: c.execute("DELETE FROM xs_experiences WHERE n = ?", (n,)))

    def _exists(self, n: int) -> bool:
        return bool(self.bank.db.read(lambda c: c.execute("SELECT 1 FROM xs_experiences WHERE n = ?", (n,)).fetchone()))

    def _insert(self, text: str, vector: bytes) -> str:
        def add(c: sqlite3.Connection) -> int:
            cursor = c.execute("INSERT INTO xs_experiences (text, created, vector) VALUES (?, ?, ?)",
                               (text, time.time(), vector))  # fmt: skip
            return int(cursor.lastrowid or 0)

        return f"E{self.bank.db.write(add)}"

    def _replace(self, n: int, text: str) -> None:
        vector = self.bank.vector(text)
        self.bank.db.write(lambda c: c.execute("UPDATE xs_experiences SET text = ?, vector = ? WHERE n = ?",
                                               (text, vector, n)))  # fmt: skip

    def mark_used(self, ids: Sequence[str]) -> None:
        numbers = [(n,) for i in ids if (n := _number(i)) is not None]
        self.bank.db.write(lambda c: c.executemany("UPDATE xs_experiences SET uses = uses + 1 WHERE n = ?", numbers))


async def _ask(model: Model, system: str, user: str, schema: dict[str, Any], max_tokens: int) -> dict[str, Any] | None:
    request = ModelRequest(messages=(Message("system", system), Message("user", user)), output_schema=schema,
                           max_tokens=max_tokens)  # fmt: skip
    try:
        return _json((await model.complete(request)).content)
    except ModelError:
        return None


def _grounded_skill(doc: dict[str, Any], runs: Sequence[Trajectory], tasks: tuple[str, ...]) -> dict[str, Any]:
    """The model's skill document with what it cannot be trusted to write taken from the record: the tool
    templates are the verified successes' calls and `patterns` their task patterns (what recall matches on);
    prose that is not `_prose` is dropped."""
    texts = tuple(text for t in runs for text in t.untrusted_texts)
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if isinstance(value, list):
            out[key] = [str(v) for v in value if _prose(str(v), tasks, texts, 2)]
        else:
            out[key] = str(value) if _prose(str(value), tasks, texts, 3) else ""
    lessons = [grounded_lesson(t) for t in runs if t.outcome and t.trusted and not carries_tool_text(t)]
    out["tool_templates"] = list(dict.fromkeys(text.split('": ', 1)[1].rstrip(".") for _, text in lessons))[:3]
    out["patterns"] = list(dict.fromkeys(trigger for trigger, _ in lessons))
    return out


def _prose(text: str, tasks: tuple[str, ...], tool_texts: tuple[str, ...], words: int) -> bool:
    """A skill field the model wrote that can stay: `plausible`, no tool result's words (Qwen 0.5B copied error
    messages into watch-outs), a few words rather than a bare name ("When: reverse_string"), no run-on token."""
    tokens = text.split()
    return (
        len(tokens) >= words
        and all(len(t) <= 30 for t in tokens)
        and plausible(text, tasks)
        and not echoes(text, tool_texts)
    )


def _number(ref: str) -> int | None:
    match = re.fullmatch(r"E(\d+)", ref.strip())
    return int(match.group(1)) if match else None


def _matrix(blobs: Sequence[bytes]) -> Any:
    import numpy as np

    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), -1)
