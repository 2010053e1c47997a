"""`Team`: a validated team file, run by an async engine.

    team = Team.load("examples/teams/vote.yaml", registry=Registry(models={"default": model}))
    result = await team.run("What is 17 * 23?")
    result.output, result.state, result.ledger

The engine starts the entry node, and after each node applies its writes (each key's reducer), then fires the
edges leaving it: conditions are evaluated on the new state, a join edge waits for all its sources, a bounded
edge fires at most `max_loops` times, and `otherwise` edges fire when nothing else did. Ready nodes run
concurrently through the executor (bounded by `limits.concurrency`), each under its timeout and retries. The
run ends when the exit node finishes. Every node run is a child of the team run (one trace id), appears in the
ledger with its writes, usage and time, and is reported to `on_event` as it starts and ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentcore import context as run_context
from agentcore.errors import UserError
from agentcore.messages import Usage
from agentcore.teams import expr
from agentcore.teams.executor import Executor, LocalExecutor, NodeJob, NodeOutput
from agentcore.teams.loader import load_spec, spec_from_mapping, spec_from_text
from agentcore.teams.nodes import NodeEnv, NodeFailed, run_node
from agentcore.teams.registry import Registry
from agentcore.teams.remote import RemoteUnavailable
from agentcore.teams.result import NodeRecord, TeamEvent, TeamResult, TeamStatus
from agentcore.teams.source import Source
from agentcore.teams.spec import TeamSpec
from agentcore.teams.state import State, StateTypeError
from agentcore.teams.validate import validate

if TYPE_CHECKING:
    from agentcore.context import RunContext
    from agentcore.events import Event
    from agentcore.tools.function import Tool

EventSink = Callable[[TeamEvent], None]


class Team:
    """A validated team. Build it with `Team.load(path)`, `Team.from_text(yaml)` or `Team.from_dict(data)`."""

    def __init__(
        self,
        spec: TeamSpec,
        source: Source,
        *,
        registry: Registry | None = None,
        executor: Executor | None = None,
        stats_dir: str | Path | None = None,
        checkpoint_dir: str | Path | None = None,
    ) -> None:
        self.registry = registry or Registry()
        validate(spec, source, self.registry)
        self.spec, self.source = spec, source
        self.executor = executor or LocalExecutor(spec.limits.concurrency)
        self.stats_dir = Path(stats_dir) if stats_dir else None
        self.checkpoint_dir = Path(checkpoint_dir) if checkpoint_dir else None
        base = source.path.parent if source.path else None
        self.env = NodeEnv(spec, self.registry, base, self.stats_dir, self._load_subteam)
        self.conditions = {i: expr.parse(e.when) for i, e in enumerate(spec.topology.edges) if e.when}

    def _load_subteam(self, path: Path) -> Team:
        return Team.load(path, registry=self.registry, stats_dir=self.stats_dir)

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> Team:
        spec, source = load_spec(path)
        return cls(spec, source, **kwargs)

    @classmethod
    def from_text(cls, text: str, name: str = "<team>", **kwargs: Any) -> Team:
        spec, source = spec_from_text(text, name)
        return cls(spec, source, **kwargs)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "<team>", **kwargs: Any) -> Team:
        spec, source = spec_from_mapping(data, name)
        return cls(spec, source, **kwargs)

    @property
    def name(self) -> str:
        return self.spec.team

    async def run(
        self,
        task: str,
        *,
        on_event: EventSink | None = None,
        cancel: asyncio.Event | None = None,
        timeout: float | None = None,
    ) -> TeamResult:
        """Run the team on `task` (written to the state's input key)."""
        if not task.strip():
            raise UserError("the task is empty")
        return await self.run_state({self.spec.input: task}, on_event=on_event, cancel=cancel, timeout=timeout)

    async def run_state(
        self,
        values: Mapping[str, Any],
        *,
        on_event: EventSink | None = None,
        cancel: asyncio.Event | None = None,
        timeout: float | None = None,
        resume: dict[str, Any] | None = None,
    ) -> TeamResult:
        """Run from the given state values (a subgraph's inputs, or a resumed checkpoint)."""
        try:
            state = State(self.spec, values)
        except StateTypeError as exc:
            raise UserError(f"team {self.name}: {exc}") from None
        task = str(values.get(self.spec.input, self.name))
        parent = run_context.current_run()
        root = run_context.child_context(None, task, run_id=(resume or {}).get("run_id"))
        run = _Run(self, state, root, on_event, cancel)
        if resume is not None:
            run.restore(resume)
        token = run_context.enter(root)
        try:
            result = await run.execute(timeout if timeout is not None else self.spec.limits.timeout)
        finally:
            run_context.leave(token)
        if parent is not None:  # like an agent's child run: usage rolls up, the parent's trace names the run
            parent.usage.add(result.usage)
            parent.record("child_run", run_id=result.run_id, team=self.name, calls=result.usage.calls)
        return result

    async def resume(self, run_id: str, **kwargs: Any) -> TeamResult:
        """Continue an interrupted run from its last checkpoint (needs `checkpoint_dir`)."""
        from agentcore.teams.checkpoint import read_checkpoint

        saved = read_checkpoint(self.checkpoint_dir, run_id, self.name)
        return await self.run_state(saved["state"], resume=saved, **kwargs)

    def as_tool(self, name: str | None = None, description: str | None = None) -> Tool:
        """This team as a tool of an Agent: the tool's `task` runs the team, its answer is the tool result."""
        from agentcore.tools.function import make_tool

        team = self

        async def run_team(task: str) -> str:
            result = await team.run(task)
            if not result.ok:
                raise RuntimeError(f"team {team.name} {result.status}: {result.error}")
            return str(result.output)

        doc = description or self.spec.description or f"Ask the {self.name} team."
        run_team.__doc__ = f"{doc}\n\nArgs:\n    task: what to ask the team."
        return make_tool(run_team, name=name or self.name.replace("-", "_"), timeout=self.spec.limits.timeout)


class _Run:
    """The scheduler of one team run."""

    def __init__(
        self, team: Team, state: State, root: RunContext[Any], sink: EventSink | None, cancel: asyncio.Event | None
    ) -> None:
        self.team, self.spec, self.state, self.root = team, team.spec, state, root
        self.sink, self.cancel = sink, cancel
        self.pending: deque[str] = deque(self.spec.topology.entry)
        self.running: dict[asyncio.Task[NodeRecord], str] = {}
        self.fires = [0] * len(self.spec.topology.edges)
        self.arrivals: list[set[str]] = [set() for _ in self.spec.topology.edges]
        self.ledger: list[NodeRecord] = []
        self.node_runs = 0
        self.finished = False
        self.status: TeamStatus = "completed"
        self.error: str | None = None

    # -- the loop -------------------------------------------------------------------------------------------

    async def execute(self, limit: float | None) -> TeamResult:
        started = time.perf_counter()
        self.emit("team_start", None, task=self.root.task)
        try:
            async with asyncio.timeout(limit), self.team.env.remotes.connected():
                try:
                    await self.drive()
                finally:
                    await self.cancel_running()  # before the remotes close under the running nodes
        except TimeoutError:
            self.stop("timeout", f"the team run timed out after {limit}s")
        except RemoteUnavailable as exc:
            self.stop("failed", str(exc))
        finally:
            await self.cancel_running()
        result = TeamResult(
            self.root.run_id, self.root.trace_id, self.spec.team, self.status, dict(self.state.values), self.ledger,
            self.root.usage, time.perf_counter() - started, self.spec.answer_key(), self.error, self.root.parent_run_id,
            self.root.trace, {k: list(v) for k, v in self.state.sources.items()},
        )  # fmt: skip
        self.emit("team_end", None, status=result.status, error=result.error, seconds=round(result.seconds, 3))
        return result

    async def drive(self) -> None:
        waiter = asyncio.ensure_future(self.cancel.wait()) if self.cancel is not None else None
        try:
            while not self.finished:
                self.start_ready()
                if not self.running:
                    if not self.finished and self.status == "completed":
                        self.stop("incomplete", f"no node is left to run and the exit '{self.spec.topology.exit}'"
                                                " was never reached (no edge condition held)")  # fmt: skip
                    return
                waiting: set[asyncio.Future[Any]] = {*self.running, *([waiter] if waiter else [])}
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if waiter is not None and waiter in done:
                    self.stop("cancelled", "the team run was cancelled")
                    return
                for task in self.finished_tasks(done):
                    self.finish(self.running.pop(task), task.result())
        finally:
            if waiter is not None:
                waiter.cancel()

    def finished_tasks(self, done: set[asyncio.Future[Any]]) -> list[asyncio.Task[NodeRecord]]:
        return [task for task in self.running if task in done]

    def start_ready(self) -> None:
        busy, later = set(self.running.values()), []
        while self.pending and self.status == "completed":
            name = self.pending.popleft()
            if name in busy:
                later.append(name)  # runs again once its current run ends
                continue
            if self.node_runs >= self.spec.limits.max_node_runs:
                self.stop("limit", f"limits.max_node_runs={self.spec.limits.max_node_runs} node runs reached")
                break
            self.node_runs += 1
            busy.add(name)
            self.running[asyncio.create_task(self.attempts(name))] = name
        self.pending.extendleft(reversed(later))

    def finish(self, name: str, record: NodeRecord) -> None:
        self.ledger.append(record)
        try:
            if record.status == "completed":
                record.writes = self.state.apply(name, record.writes)
                self.fire(name)
        except (StateTypeError, expr.ConditionFailed) as exc:
            record.status, record.error = "failed", str(exc)
        if record.status == "failed":
            self.stop("failed", f"node '{name}' failed: {record.error}")
            self.pending.appendleft(name)  # a resumed run starts with it again
        self.emit("node_end", name, status=record.status, seconds=round(record.seconds, 3), writes=record.writes,
                  usage=_usage(record.usage), error=record.error, **record.detail)  # fmt: skip
        self.root.record("node_end", node=name, status=record.status, writes=record.writes, run_id=record.run_id)
        if name == self.spec.topology.exit and record.status == "completed":
            self.finished = True
        self.save()

    def stop(self, status: TeamStatus, error: str) -> None:
        if self.status == "completed":
            self.status, self.error = status, error

    async def cancel_running(self) -> None:
        for task in self.running:
            task.cancel()
        for task in list(self.running):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.running.clear()

    # -- edges ----------------------------------------------------------------------------------------------

    def fire(self, name: str) -> None:
        moved = False
        for i, edge in enumerate(self.spec.topology.edges):
            if name not in edge.source or edge.otherwise:
                continue
            if len(edge.source) > 1:
                self.arrivals[i].add(name)
                moved = True  # this node's path goes on through the join
                if set(edge.source) - self.arrivals[i]:
                    continue
                self.arrivals[i].clear()
            moved = self.take(i, name) or moved
        if not moved:
            for i, edge in enumerate(self.spec.topology.edges):
                if edge.otherwise and name in edge.source:
                    self.take(i, name, condition=False)

    def take(self, index: int, name: str, condition: bool = True) -> bool:
        edge = self.spec.topology.edges[index]
        check = self.team.conditions.get(index)
        if condition and check is not None and not check(self.state.values):
            return False
        if edge.max_loops is not None and self.fires[index] >= edge.max_loops:
            self.emit("loop_bound", name, edge=index, max_loops=edge.max_loops)
            return False
        self.fires[index] += 1
        self.pending.extend(edge.target)
        return True

    # -- one node -------------------------------------------------------------------------------------------

    async def attempts(self, name: str) -> NodeRecord:
        node = self.spec.nodes[name]
        inputs = self.state.view(node.reads)
        sources = {k: list(self.state.sources.get(k, [])) for k in node.reads}
        started, usage, error = time.perf_counter(), Usage(), ""
        for attempt in range(1, node.retries + 2):
            self.emit("node_start" if attempt == 1 else "node_retry", name, attempt=attempt, error=error or None)
            job = NodeJob(self.spec.team, name, node.kind, inputs, attempt,
                          lambda: run_node(self.team.env, name, inputs, sources), _file(self.team.source))  # fmt: skip
            try:
                output: NodeOutput = await asyncio.wait_for(self.team.executor.submit(job), node.timeout)
            except TimeoutError:
                error = f"timed out after {node.timeout}s (attempt {attempt})"
            except NodeFailed as exc:
                usage.add(exc.usage)
                error = str(exc)
            except Exception as exc:  # a tool, function or backend error: recorded, maybe retried, never a crash
                error = f"{type(exc).__name__}: {exc}"
            else:
                usage.add(output.usage)
                return NodeRecord(name, node.kind, "completed", attempt, time.perf_counter() - started, usage,
                                  output.writes, run_id=output.run_id, detail=output.detail)  # fmt: skip
        return NodeRecord(
            name, node.kind, "failed", node.retries + 1, time.perf_counter() - started, usage, error=error
        )

    # -- events and checkpoints -----------------------------------------------------------------------------

    def emit(self, kind: str, node: str | None, **data: Any) -> None:
        if self.sink is not None:
            self.sink(TeamEvent(kind, self.spec.team, self.root.run_id, node, data))
        if kind in ("team_start", "team_end"):
            self.emit_run_event(kind, data)

    def emit_run_event(self, kind: str, data: dict[str, Any]) -> None:
        """The team run as a run for the global sinks (the logger, OpenTelemetry): its agents' runs are its
        children there too."""
        from agentcore.events import RunFinished, RunStarted, global_sinks

        root = self.root
        event: Event = (
            RunStarted(root.run_id, 0, root.task, "team", f"team:{self.spec.team}", root.parent_run_id, root.trace_id)
            if kind == "team_start"
            else RunFinished(root.run_id, self.node_runs, data["status"], self.state.values.get(self.spec.answer_key()),
                             root.usage, data["seconds"], error=data["error"])
        )  # fmt: skip
        for sink in global_sinks():
            sink(event)

    def save(self) -> None:
        if self.team.checkpoint_dir is None:
            return
        from agentcore.teams.checkpoint import write_checkpoint

        write_checkpoint(self.team.checkpoint_dir, self.snapshot())

    def snapshot(self) -> dict[str, Any]:
        return {
            "run_id": self.root.run_id,
            "team": self.spec.team,
            "team_file": _file(self.team.source),
            "status": self.status if self.finished or self.status != "completed" else "running",
            "state": self.state.values,
            "sources": self.state.sources,
            "pending": [*self.running.values(), *self.pending],
            "fires": self.fires,
            "arrivals": [sorted(a) for a in self.arrivals],
            "node_runs": self.node_runs,
            "done": [r.node for r in self.ledger],
        }

    def restore(self, saved: Mapping[str, Any]) -> None:
        self.pending = deque(saved["pending"])
        self.fires = list(saved["fires"])
        self.arrivals = [set(a) for a in saved["arrivals"]]
        self.node_runs = int(saved["node_runs"])
        self.state.sources = {k: list(v) for k, v in saved["sources"].items()}


def _file(source: Source) -> str | None:
    return str(source.path) if source.path else None


def _usage(usage: Usage) -> dict[str, int]:
    return {"calls": usage.calls, "prompt": usage.prompt_tokens, "generated": usage.generated_tokens}
