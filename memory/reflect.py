"""EvolveR's offline reflection over recorded runs (TECHNIQUES.md section 3), one trajectory per transaction:

1. utility: each principle the run was shown gets usage += 1 and success += outcome;
2. distil: a success gives a guiding principle built from its own record, a worked example of the calls that fed
   its answer (`agentcore.memory.lessons`, no model call); a failure gives a cautionary one from one
   grammar-constrained model call;
3. dedupe: the 3 nearest principles by cosine; one at >= 0.85 that the model confirms (yes/no, constrained)
   is the same advice absorbs the new one (trajectory id, counts); otherwise the new one is inserted;
4. prune: principles scored below the threshold are deleted.

Model calls happen before the write, so killing the process loses at most the trajectory in progress.
Safety (AgentLAB): a lesson from a run that was not a trusted, confirmed success (blocked, failed, quarantined
tool output) or that repeats a tool result's words waits inactive until a confirmed success merges into it or a
person promotes it.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from agentcore.errors import ModelError
from agentcore.memory.lessons import carries_tool_text, echoes, grounded_lesson, plausible
from agentcore.memory.principles import MAX_BAD, MAX_GOOD, Principle, PrincipleBank, Trajectory, new_id
from agentcore.messages import Message, ModelRequest

if TYPE_CHECKING:
    from agentcore.messages import Model

SAME_THRESHOLD = 0.85  # cosine, the intended rule (the released code's 1 - d/2 passed pairs at cosine 0.3)
PRUNE_THRESHOLD = 0.3

DISTIL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "when": {"type": "string", "maxLength": 80},
        "do": {"type": "string", "maxLength": 120},
        "triplets": {
            "type": "array",
            "maxItems": 1,
            "items": {
                "type": "array",
                "minItems": 3,
                "maxItems": 3,
                "items": {"type": "string", "maxLength": 30},
            },
        },
    },
    "required": ["when", "do", "triplets"],
    "additionalProperties": False,
}
SAME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"same": {"type": "boolean"}},
    "required": ["same"],
    "additionalProperties": False,
}

# Measured on the 20 train runs with Qwen 0.5B: asked for one free sentence, it restated the task in 16 of 18
# principles; given an example, it copied the example into 11 of 19; asked for the situation only, it echoed the
# prompt ("When when, ..."). So a success's lesson is built from its record (agentcore.memory.lessons); only a
# failure's cautionary lesson is written by the model, and it waits inactive (see the module doc).
DISTIL_SYSTEM = (
    "You turn one attempt at a task into one lesson for future tasks of the same kind. "
    "'when': the kind of task, in general words, without numbers or the names of items from this task. "
    "'do': what to do instead next time, in under 20 words."
)
SAME_SYSTEM = "Decide whether two pieces of advice say the same essential thing. Reply with same true or false."


@dataclass(slots=True)
class ReflectReport:
    trajectories: int = 0
    inserted: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)  # inserted inactive (untrusted run or echoed tool text)
    pruned: list[str] = field(default_factory=list)
    skipped: int = 0  # distillation failed (model error or empty lesson): the run stays pending
    rejected: list[str] = field(default_factory=list)  # runs whose lesson was not `plausible`: reflected, no lesson
    model_calls: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def compose(when: str, do: str) -> str:
    """The principle's one sentence from the distilled fields: "When <when>, <do>." (just `do` without a when)."""
    when, do = " ".join(when.split()).rstrip(" .,;"), " ".join(do.split())
    if not do:
        return ""
    if not when:
        return do
    when = when[5:] if when.lower().startswith("when ") else when
    return f"When {when}, {do[0].lower()}{do[1:]}" + ("" if do.endswith((".", "!", "?")) else ".")


def distil_request(t: Trajectory) -> ModelRequest:
    """A failed run asks the model for the situation and what to do instead (a success needs no model call)."""
    steps = "\n".join(f"- {s}" for s in t.steps[-6:]) or "- (no tool calls)"
    verdict = "It failed. Name the kind of task ('when') and what to do instead next time ('do')."
    user = f"Task: {t.task}\nSteps:\n{steps}\nFinal answer: {t.answer[:200]}\n{verdict}"
    return ModelRequest(
        messages=(Message("system", DISTIL_SYSTEM), Message("user", user)), output_schema=DISTIL_SCHEMA, max_tokens=160
    )


_NUMBER = re.compile(r"\s*\b\d+(?:[.,]\d+)*\b")


def same_request(a: str, b: str) -> ModelRequest:
    user = f"Advice A: {a}\nAdvice B: {b}\nDo A and B give the same essential advice?"
    return ModelRequest(
        messages=(Message("system", SAME_SYSTEM), Message("user", user)), output_schema=SAME_SCHEMA, max_tokens=16
    )


def _json(content: str | None) -> dict[str, Any] | None:
    try:
        data = json.loads(content or "")
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


class Reflector:
    """Runs `reflect` over a bank with a model (the agent's model, usually)."""

    def __init__(self, bank: PrincipleBank, model: Model, *, same_threshold: float = SAME_THRESHOLD) -> None:
        self.bank, self.model, self.same_threshold = bank, model, same_threshold

    async def reflect(self, *, limit: int | None = None, prune_below: float | None = PRUNE_THRESHOLD) -> ReflectReport:
        report, started = ReflectReport(), time.perf_counter()
        for t in self.bank.pending(limit):
            await self._one(t, report)
        if prune_below is not None:
            report.pruned = self.bank.prune(prune_below)
        report.seconds = time.perf_counter() - started
        return report

    async def _one(self, t: Trajectory, report: ReflectReport) -> None:
        report.trajectories += 1
        lesson = await self._distil(t, report)
        if lesson is None:
            report.skipped += 1
            return
        text, triplets, trigger = lesson
        if not t.outcome and not plausible(text, (t.task,)):  # a restated task or the prompt echoed: no lesson
            self.bank.db.write(lambda conn: self._done(conn, t))
            report.rejected.append(t.id)
            return
        vector = self.bank.vector(trigger)  # retrieved by the kind of task it is for, not by its wording
        target = await self._same_as(text, vector, report)
        outcome = bool(t.outcome)
        trusted_success = outcome and t.trusted and not echoes(text, t.untrusted_texts) and not carries_tool_text(t)

        new = _new(text, triplets, t, trusted_success)

        def write(conn: Any) -> None:
            self._utility(conn, t)
            if target is not None:
                current = self.bank.get_in(conn, target.id) or target  # utility may just have updated it
                self.bank.update(conn, _merged(current, t, trusted_success))
            else:
                self.bank.insert(conn, new, vector)
            conn.execute("UPDATE trajectories SET reflected = 1 WHERE id = ?", (t.id,))

        self.bank.db.write(write)
        if target is not None:
            report.merged.append(target.id)
        else:
            (report.inserted if trusted_success else report.waiting).append(new.id)

    def _done(self, conn: Any, t: Trajectory) -> None:
        self._utility(conn, t)
        conn.execute("UPDATE trajectories SET reflected = 1 WHERE id = ?", (t.id,))

    def _utility(self, conn: Any, t: Trajectory) -> None:
        for pid in t.retrieved:
            p = self.bank.get_in(conn, pid)
            if p is not None:
                self.bank.update(conn, replace(p, usage=p.usage + 1, success=p.success + int(bool(t.outcome))))

    async def _distil(
        self, t: Trajectory, report: ReflectReport
    ) -> tuple[str, tuple[tuple[str, str, str], ...], str] | None:
        if t.outcome:  # a success's lesson is its own verified calls as a worked example (agentcore.memory.lessons)
            trigger, text = grounded_lesson(t)
            return text, (), trigger
        report.model_calls += 1
        try:
            data = _json((await self.model.complete(distil_request(t))).content)
        except ModelError:
            return None
        when = _NUMBER.sub("", str((data or {}).get("when", "")))
        do = str((data or {}).get("do", ""))
        text = compose(when, do)
        if not text or not when.strip():
            return None
        raw = (data or {}).get("triplets") or []
        triplets = tuple(
            (str(a), str(b), str(c)) for a, b, c in (x for x in raw if isinstance(x, list) and len(x) == 3)
        )
        return text, triplets, text

    async def _same_as(self, text: str, vector: bytes, report: ReflectReport) -> Principle | None:
        for hit in self.bank.nearest(_as_array(vector), 3):
            if hit.similarity < self.same_threshold:
                break
            if hit.principle.description == text:  # the same worked example again: no need to ask
                return hit.principle
            report.model_calls += 1
            try:
                data = _json((await self.model.complete(same_request(hit.principle.description, text))).content)
            except ModelError:
                continue
            if data is not None and data.get("same") is True:
                return hit.principle
        return None


def _as_array(vector: bytes) -> Any:
    import numpy as np

    return np.frombuffer(vector, dtype=np.float32)


def _new(text: str, triplets: tuple[tuple[str, str, str], ...], t: Trajectory, trusted: bool) -> Principle:
    why = "" if trusted else _why(t)
    return Principle(
        new_id(), "guiding" if t.outcome else "cautionary", text, triplets,
        good=(t.id,) if t.outcome else (), bad=() if t.outcome else (t.id,), active=trusted, why=why,
    )  # fmt: skip


def _merged(p: Principle, t: Trajectory, trusted: bool) -> Principle:
    good = (*p.good, t.id)[-MAX_GOOD:] if t.outcome else p.good
    bad = p.bad if t.outcome else (*p.bad, t.id)[-MAX_BAD:]
    active = p.active or trusted  # a confirmed, trusted success promotes a waiting principle
    return replace(p, good=good, bad=bad, active=active, why="" if active else p.why)


def _why(t: Trajectory) -> str:
    if not t.trusted:
        return f"learnt from run {t.id}, which was blocked or read quarantined tool output"
    if not t.outcome:
        return f"learnt from run {t.id}, which failed: waits for a confirmed success"
    return f"learnt from run {t.id}, whose lesson repeats a tool result's words"
