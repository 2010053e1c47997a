"""`Memory`: the one object an Agent takes (`Agent(..., memory=Memory.open("~/.agentmem"))`).

Each part is switchable: a long-term store (SQLite, keyword recall), a vector store (chromadb, MiniLM
embeddings), and EvolveR experience (a `PrincipleBank`). Every run where memory is enabled reads it back (the
`MemoryPolicy`); `learn=False` makes it read-only.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.memory.base import MemoryRecord, MemoryStore
from agentcore.memory.policy import MemoryPolicy
from agentcore.memory.principles import PrincipleBank, Trajectory, taught_run
from agentcore.messages import MemoryItem

if TYPE_CHECKING:
    from agentcore.memory.reflect import ReflectReport
    from agentcore.memory.xskill import AccumulateReport, XSkill
    from agentcore.messages import Model
    from agentcore.result import RunResult
    from agentcore.tools.function import Tool

# The outcome of a run: True (success), False (failure) or None (unknown: wait for feedback).
Verifier = Callable[["RunResult[Any]"], "bool | Awaitable[bool | None] | None"]
EXCHANGE_CHARS = 300
LESSON_FLOOR = 0.3  # cosine between the task's pattern and a lesson's: below it, a lesson is not shown
LESSON_MATCH = 0.75  # order_match between the task's pattern and a worked example's (0.6: "km to mi" / "mi to km")
# An "answered directly" example: cosine to the task's pattern. On the train and dev tasks, direct questions were
# 0.4-0.6 from one another, tool tasks at most 0.24 from them.
DIRECT_FLOOR = 0.4


class Memory:
    """Long-term facts and exchanges, vector recall, and experience, behind one facade. See the module doc.

    - `recall_k`: facts recalled per run (from each store); `lessons_k`: principles injected per run, those whose
      cosine to the task's pattern is at least `lesson_floor` (worked examples: see `lessons.applies`).
    - `remember_exchanges`: store each successful run's task and answer in the long-term store.
    - `learn`: record runs as experience; `verifier(result)` gives their outcome.
    - `reflect_every`: reflect after every N recorded runs with a known outcome, using the run's model.
    - `evolver`: inject EvolveR principles; `xskill`: an `XSkill` over the same experience file (experiences and
      skills injected too; `accumulate` learns them); `family`: the task family recorded with each run.
    """

    def __init__(
        self,
        *,
        long_term: MemoryStore | None = None,
        vectors: MemoryStore | None = None,
        experience: PrincipleBank | None = None,
        recall_k: int = 3,
        lessons_k: int = 3,
        lesson_floor: float = LESSON_FLOOR,
        lesson_match: float = LESSON_MATCH,
        direct_floor: float = DIRECT_FLOOR,
        remember_exchanges: bool = True,
        learn: bool = True,
        verifier: Verifier | None = None,
        reflect_every: int | None = None,
        tool: bool = False,
        evolver: bool = True,
        xskill: XSkill | None = None,
        family: str = "",
    ) -> None:
        if reflect_every is not None and reflect_every < 1:
            raise UserError(f"reflect_every must be at least 1 or None, got {reflect_every}")
        self.long_term, self.vectors, self.experience = long_term, vectors, experience
        self.recall_k, self.lessons_k = recall_k, lessons_k
        self.lesson_floor, self.lesson_match, self.direct_floor = lesson_floor, lesson_match, direct_floor
        self.remember_exchanges, self.learn, self.verifier = remember_exchanges, learn, verifier
        self.reflect_every, self.offers_tool = reflect_every, tool
        self.evolver, self.xskill, self.family = evolver, xskill, family  # family: recorded with each run (XSkill)
        self._policy = MemoryPolicy(self)
        self._since_reflect = 0
        self._reflecting = asyncio.Lock()

    @classmethod
    def open(
        cls,
        directory: str | Path,
        *,
        long_term: bool = True,
        vectors: bool = False,
        experience: bool = True,
        chroma_host: str | None = None,
        chroma_port: int = 8000,
        **options: Any,
    ) -> Memory:
        """Every enabled part under one directory: `longterm.db`, `experience.db`, `chroma/` (or a chroma server
        at `chroma_host`)."""
        root = Path(directory).expanduser()
        store: MemoryStore | None = None
        if vectors:
            from agentcore.memory.vector_store import ChromaStore

            chroma = ChromaStore(host=chroma_host, port=chroma_port) if chroma_host else ChromaStore(root / "chroma")
            store = chroma
        lt = None
        if long_term:
            from agentcore.memory.sqlite_store import SQLiteStore

            lt = SQLiteStore(root / "longterm.db")
        bank = PrincipleBank(root / "experience.db") if experience else None
        return cls(long_term=lt, vectors=store, experience=bank, **options)

    def policy(self) -> MemoryPolicy:
        """The policy that reads and writes this memory (an Agent given `memory=` adds it itself)."""
        return self._policy

    # -- reading ---------------------------------------------------------------------------------------------

    async def recall(self, task: str, model: Model | None = None) -> tuple[tuple[MemoryItem, ...], tuple[str, ...]]:
        """Facts and lessons for `task`, and the ids of the principles, experiences and skill among them.
        `model` rewrites XSkill's tips for the task when the XSkill stream has `adapt=True`."""
        facts: dict[str, MemoryItem] = {}
        for store in (self.long_term, self.vectors):
            if store is not None and self.recall_k > 0:
                for record in await store.search(task, self.recall_k):
                    facts.setdefault(" ".join(record.text.split()), MemoryItem("fact", record.text, record.id))
        lessons: list[MemoryItem] = []
        if self.experience is not None and self.evolver and self.lessons_k > 0:
            lessons = await asyncio.to_thread(self._lessons, task)
        tips: list[MemoryItem] = []
        if self.xskill is not None:
            tips = await asyncio.to_thread(self.xskill.recall, task)
            if self.xskill.adapt and model is not None and tips:
                tips = await self.xskill.adapted(model, task, tips)
        return (*facts.values(), *lessons, *tips), tuple(item.ref for item in (*lessons, *tips) if item.ref)

    def _lessons(self, task: str) -> list[MemoryItem]:
        """Principles for `task`: near its pattern (numbers as N) by cosine, and a worked example only where it
        `applies` (its pattern agrees with the task's in order, so "miles to km" gets no "km to miles")."""
        from agentcore.memory.lessons import applies, task_pattern

        assert self.experience is not None
        query = task_pattern(task).text  # lessons are embedded by their task pattern
        hits = self.experience.search(query, self.lessons_k * 3, min_similarity=self.lesson_floor)
        kept = [h for h in hits if applies(h.principle.description, query, h.similarity, match=self.lesson_match,
                                           direct_floor=self.direct_floor)]  # fmt: skip
        return [MemoryItem(h.principle.type, h.principle.description, h.principle.id) for h in kept[: self.lessons_k]]

    async def search(self, query: str, k: int = 5) -> list[MemoryRecord]:
        """Facts from every store, best first per store."""
        found: list[MemoryRecord] = []
        for store in (self.long_term, self.vectors):
            if store is not None:
                found.extend(await store.search(query, k))
        return found

    # -- writing ---------------------------------------------------------------------------------------------

    async def remember(self, text: str, *, kind: str = "fact", **metadata: Any) -> list[str]:
        """Store a fact in every store; returns the new ids."""
        if not text.strip():
            raise UserError("a memory must not be empty")
        return [await s.add(text, kind=kind, metadata=metadata) for s in (self.long_term, self.vectors) if s]

    async def after_run(self, ctx: RunContext[Any], result: RunResult[Any], retrieved: tuple[str, ...],
                        tool_texts: tuple[str, ...]) -> None:  # fmt: skip
        """What the policy calls at the end of each run."""
        if not self.learn:
            return
        if self.remember_exchanges and result.ok and result.output is not None:
            text = f"Q: {result.task}\nA: {str(result.output)[:EXCHANGE_CHARS]}"
            for store in (self.long_term, self.vectors):
                if store is not None:
                    await store.add(text, kind="exchange", metadata={"run_id": result.run_id})
        if self.experience is not None:
            outcome = await self._verdict(result)
            trajectory = _trajectory(ctx, result, retrieved, tool_texts, outcome, family=self.family)
            await asyncio.to_thread(self.experience.record, trajectory)
            await self._maybe_reflect(ctx, outcome)

    async def _verdict(self, result: RunResult[Any]) -> bool | None:
        if self.verifier is None:
            return None
        verdict = self.verifier(result)
        if inspect.isawaitable(verdict):
            verdict = await verdict
        return None if verdict is None else bool(verdict)

    async def _maybe_reflect(self, ctx: RunContext[Any], outcome: bool | None) -> None:
        if self.reflect_every is None or outcome is None:
            return
        self._since_reflect += 1
        model = ctx.metadata.get("model")
        if self._since_reflect >= self.reflect_every and model is not None:
            self._since_reflect = 0
            await self.reflect(model)

    def feedback(self, run_id: str, good: bool) -> bool:
        """The outcome of a run, given later (API or `agentcore memory feedback RUN_ID good|bad`)."""
        if self.experience is None:
            raise UserError("this Memory has no experience store to give feedback to")
        return self.experience.feedback(run_id, good)

    def teach(self, task: str, calls: Sequence[tuple[str, dict[str, Any], str]], answer: str) -> str:
        """A person's worked example for a task, e.g. the correction of a failed run: (tool, arguments, result)
        calls in order and the right answer. It is recorded as a confirmed, trusted success, so the next
        `reflect()` makes it an active lesson like any verified run (no model call). Returns the run id."""
        if self.experience is None:
            raise UserError("this Memory has no experience store to teach")
        trajectory = taught_run(task, calls, answer, family=self.family)
        self.experience.record(trajectory)
        return trajectory.id

    async def accumulate(self, model: Model) -> AccumulateReport:
        """XSkill's accumulation over the runs recorded since the last one (see `agentcore.memory.xskill`)."""
        if self.xskill is None:
            raise UserError("this Memory has no XSkill stream (Memory(xskill=XSkill(bank)))")
        async with self._reflecting:
            return await self.xskill.accumulate(model)

    async def reflect(self, model: Model, *, limit: int | None = None) -> ReflectReport:
        """EvolveR's offline step over the runs recorded since the last one (see `agentcore.memory.reflect`)."""
        if self.experience is None:
            raise UserError("this Memory has no experience store to reflect on")
        from agentcore.memory.reflect import Reflector

        async with self._reflecting:
            return await Reflector(self.experience, model).reflect(limit=limit)

    # -- the search_experience tool --------------------------------------------------------------------------

    def search_tool(self) -> Tool:
        """`search_experience(query)`: the model asks the experience base itself."""
        from agentcore.tools.function import make_tool

        bank = self.experience
        if bank is None:
            raise UserError("search_experience needs an experience store")
        k = self.lessons_k

        async def search_experience(query: str) -> str:
            """Search advice learnt from past runs (it may be wrong).

            Args:
                query: what the advice should be about.
            """
            hits = await asyncio.to_thread(bank.search, query, k)
            return "\n".join(f"[{h.principle.id}] {h.principle.description}" for h in hits) or "no advice found"

        return make_tool(search_experience)


def _trajectory(ctx: RunContext[Any], result: RunResult[Any], retrieved: tuple[str, ...], tool_texts: tuple[str, ...],
                outcome: bool | None, *, family: str) -> Trajectory:  # fmt: skip
    steps = tuple(
        f"{s.call.signature()} -> {'error: ' if s.tool_error else ''}{(s.result or '')[:80]}"
        for s in result.steps
        if s.call is not None
    )
    return Trajectory(
        id=result.run_id, task=result.task, answer=str(result.output if result.ok else result.error or "")[:300],
        steps=steps, retrieved=retrieved, outcome=outcome, source="verifier" if outcome is not None else "",
        trusted=result.status != "blocked" and not _quarantined(ctx.trace), untrusted_texts=tool_texts, family=family,
    )  # fmt: skip


def _quarantined(trace: list[dict[str, Any]]) -> bool:
    """Tool-Guard's summary names the tools whose output it quarantined."""
    return any(e.get("kind") == "toolguard" and (e.get("quarantined") or e.get("blocked")) for e in trace)
