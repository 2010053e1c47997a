"""Task decomposition: plan a DAG of subtasks, run them with agents, then synthesise one answer.

    decomposer = Decomposer(model, max_subtasks=6, concurrency=2)
    result = await decomposer.run(task, make_agent=lambda sub: Agent(model, tools=[...]))
    result.output, result.events, result.dag

- `plan` is one grammar-constrained model call whose JSON is validated into a networkx DAG (`dag.build_dag`).
  An invalid plan raises `DecompositionError`; `run` then falls back to one subtask holding the whole task
  (unless `fallback=False`), and says so in its events.
- Subtasks whose parents are done run at once, at most `concurrency` at a time. Each child's task text ends
  with its parents' results ("Results you can use: [s1] ..."), unlike EffGen, whose sequential subtasks never
  see earlier results. A child of a failed parent is skipped.
- A subtask's `tools` restrict its agent's toolset to those names; each subtask runs under `subtask_timeout`.
- One last model call answers the original task from the subtasks' results (skipped for a one-node plan).
- Every step is an event (a plain dict): appended to `result.events` and passed to `on_event` as it happens.

`make_agent` must return a new Agent for each call: the toolset is scoped per subtask, and subtasks run
concurrently.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from agentcore import context as run_context
from agentcore.context import RunContext
from agentcore.errors import AgentRunError, ModelError, RunTimeoutError, UserError
from agentcore.messages import Message, ModelRequest, Usage
from agentcore.teams.dag import (
    DecompositionError,
    Subtask,
    build_dag,
    child_task,
    dag_to_dict,
    plan_schema,
    single_node_dag,
    subtask_of,
)
from agentcore.tools.toolset import FilteredToolset

if TYPE_CHECKING:
    import networkx as nx

    from agentcore.agent import Agent
    from agentcore.models.base import Model

__all__ = ["Decomposer", "DecompositionError", "DecompositionResult", "Subtask", "SubtaskResult", "single_node_dag"]

SubtaskStatus = Literal["completed", "failed", "timeout", "skipped"]
EventSink = Callable[[dict[str, Any]], None]
MakeAgent = Callable[[Subtask], "Agent[Any, Any]"]

PLANNER_SYSTEM = (
    "You split a task into a few subtasks that agents can do one by one. Each subtask is a complete, short "
    "instruction. A subtask that needs the result of another lists that subtask's id in depends_on; subtasks "
    "that do not need each other have no dependency, so they can run at the same time. Use as few subtasks "
    "as the task needs, and list in tools only the tools a subtask needs."
)
SYNTHESIS_SYSTEM = (
    "You write the final answer to a task from the results of its subtasks. Answer the original task "
    "directly and completely, using only the results given; follow every constraint the task states."
)


@dataclass(slots=True)
class SubtaskResult:
    id: str
    task: str
    status: SubtaskStatus
    output: str | None = None
    error: str | None = None
    seconds: float = 0.0
    usage: Usage = field(default_factory=Usage)


@dataclass(slots=True)
class DecompositionResult:
    """The answer, the DAG that produced it, every subtask's result, and the event trace."""

    task: str
    output: str | None
    dag: nx.DiGraph[str]
    results: dict[str, SubtaskResult]
    events: list[dict[str, Any]]
    usage: Usage
    fallback_reason: str | None = None
    error: str | None = None
    run_id: str = ""  # the decomposition's own run: every subtask run is its child, in its trace
    trace_id: str = ""

    @property
    def ok(self) -> bool:
        return self.output is not None and self.error is None


def _text_of(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False, default=str)


def _answer_text(content: str | None) -> str | None:
    """A constrained string answer arrives as JSON text ("..."); plain text (scripted models) is kept."""
    if content is None:
        return None
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return content
    return value if isinstance(value, str) else content


class _Trace:
    def __init__(self, sink: EventSink | None) -> None:
        self.events: list[dict[str, Any]] = []
        self.sink = sink
        self.started = time.perf_counter()

    def __call__(self, event: str, **data: Any) -> None:
        entry = {"event": event, "t": round(time.perf_counter() - self.started, 3), **data}
        self.events.append(entry)
        if self.sink is not None:
            self.sink(entry)


class Decomposer:
    """Plans a task as a DAG of subtasks and runs it. See the module doc."""

    def __init__(
        self,
        model: Model,
        *,
        max_subtasks: int = 6,
        concurrency: int = 2,
        subtask_timeout: float | None = 120.0,
        fallback: bool = True,
        result_chars: int = 800,
        plan_max_tokens: int = 512,
        synthesis_max_tokens: int = 256,
    ) -> None:
        if not 1 <= max_subtasks <= 20:
            raise UserError(f"Decomposer(max_subtasks={max_subtasks}): use a value from 1 to 20")
        if concurrency < 1:
            raise UserError(f"Decomposer(concurrency={concurrency}): use at least 1")
        if subtask_timeout is not None and subtask_timeout <= 0:
            raise UserError("Decomposer(subtask_timeout=...) must be positive, or None for no limit")
        self.model = model
        self.max_subtasks = max_subtasks
        self.concurrency = concurrency
        self.subtask_timeout = subtask_timeout
        self.fallback = fallback
        self.result_chars = result_chars
        self.plan_max_tokens = plan_max_tokens
        self.synthesis_max_tokens = synthesis_max_tokens

    # -- planning -------------------------------------------------------------------------------------------

    def plan_request(self, task: str, tool_names: Sequence[str] = ()) -> ModelRequest:
        tools = ", ".join(tool_names) if tool_names else "none"
        user = (
            f"Task: {task}\nAvailable tools: {tools}\n"
            f"Split the task into at most {self.max_subtasks} subtasks with ids s1, s2, ... in order."
        )
        return ModelRequest(
            messages=(Message("system", PLANNER_SYSTEM), Message("user", user)),
            output_schema=plan_schema(self.max_subtasks, tool_names),
            max_tokens=self.plan_max_tokens,
        )

    async def plan(self, task: str, *, tool_names: Sequence[str] = ()) -> nx.DiGraph[str]:
        """One constrained model call, validated into a DAG. Raises DecompositionError on an invalid plan."""
        dag, _ = await self._plan(task, tool_names, Usage())
        return dag

    async def _plan(self, task: str, tool_names: Sequence[str], usage: Usage) -> tuple[nx.DiGraph[str], Usage]:
        if not task.strip():
            raise UserError("Decomposer.plan() got an empty task")
        response = await self.model.complete(self.plan_request(task, tool_names))
        usage.add(response.usage)
        try:
            data = json.loads(response.content or "")
        except json.JSONDecodeError as exc:
            raise DecompositionError(f"the plan is not JSON: {(response.content or '')[:200]!r}") from exc
        return build_dag(data, max_subtasks=self.max_subtasks, tool_names=tool_names or None), usage

    # -- running --------------------------------------------------------------------------------------------

    async def run(
        self,
        task: str,
        make_agent: MakeAgent,
        *,
        tool_names: Sequence[str] | None = None,
        plan: nx.DiGraph[str] | None = None,
        on_event: EventSink | None = None,
    ) -> DecompositionResult:
        """Plan (unless `plan` is given), run every subtask, synthesise. `tool_names` default: the tools of
        `make_agent`'s agent for the whole task."""
        root = run_context.child_context(None, task)  # the subtask runs are its children: one trace, one tree
        token = run_context.enter(root)
        try:
            return await self._run(task, make_agent, tool_names=tool_names, plan=plan, on_event=on_event, root=root)
        finally:
            run_context.leave(token)

    async def _run(
        self,
        task: str,
        make_agent: MakeAgent,
        *,
        tool_names: Sequence[str] | None,
        plan: nx.DiGraph[str] | None,
        on_event: EventSink | None,
        root: RunContext[Any],
    ) -> DecompositionResult:
        trace, usage = _Trace(on_event), Usage()
        dag, fallback_reason = plan, None
        if dag is None:
            names = list(tool_names) if tool_names is not None else await _tool_names(make_agent, task)
            dag, fallback_reason = await self._plan_or_fallback(task, names, trace, usage)
        trace("plan", fallback=fallback_reason is not None, **dag_to_dict(dag))
        results = await self._execute(dag, make_agent, trace)
        for result in results.values():
            usage.add(result.usage)
        output, error = await self._synthesise(task, dag, results, trace, usage)
        return DecompositionResult(
            task, output, dag, results, trace.events, usage, fallback_reason, error, root.run_id, root.trace_id
        )

    async def _plan_or_fallback(
        self, task: str, tool_names: Sequence[str], trace: _Trace, usage: Usage
    ) -> tuple[nx.DiGraph[str], str | None]:
        try:
            return (await self._plan(task, tool_names, usage))[0], None
        except ModelError as exc:  # DecompositionError included
            if not self.fallback:
                raise
            trace("fallback", reason=str(exc))
            return single_node_dag(task), str(exc)

    async def _execute(self, dag: nx.DiGraph[str], make_agent: MakeAgent, trace: _Trace) -> dict[str, SubtaskResult]:
        import networkx as nx

        limit = asyncio.Semaphore(self.concurrency)
        tasks: dict[str, asyncio.Task[SubtaskResult]] = {}

        async def node(node_id: str) -> SubtaskResult:
            parents = {p: await tasks[p] for p in dag.predecessors(node_id)}
            return await self._run_node(subtask_of(dag, node_id), parents, make_agent, limit, trace)

        async with asyncio.TaskGroup() as group:
            for node_id in nx.topological_sort(dag):  # parents' tasks exist before their children's
                tasks[node_id] = group.create_task(node(node_id))
        return {node_id: tasks[node_id].result() for node_id in nx.topological_sort(dag)}

    async def _run_node(
        self,
        sub: Subtask,
        parents: dict[str, SubtaskResult],
        make_agent: MakeAgent,
        limit: asyncio.Semaphore,
        trace: _Trace,
    ) -> SubtaskResult:
        failed = [pid for pid, result in parents.items() if result.status != "completed"]
        if failed:
            trace("node_skipped", id=sub.id, because=failed)
            return SubtaskResult(sub.id, sub.task, "skipped", error=f"parent subtask(s) {failed} did not complete")
        text = child_task(sub, {pid: self._clip(r.output or "") for pid, r in parents.items()})
        async with limit:
            trace("node_start", id=sub.id, task=text, tools=list(sub.tools))
            result = await self._run_agent(sub, text, make_agent(sub))
        trace(
            "node_end",
            id=sub.id,
            status=result.status,
            seconds=round(result.seconds, 3),
            output=self._clip(result.output or ""),
            error=result.error,
        )
        return result

    async def _run_agent(self, sub: Subtask, text: str, agent: Agent[Any, Any]) -> SubtaskResult:
        started = time.perf_counter()
        scoped = FilteredToolset(agent.toolset, lambda spec: spec.name in sub.tools) if sub.tools else None
        try:
            with agent.override(tools=scoped):
                run = await agent.run(text, timeout=self.subtask_timeout)
        except RunTimeoutError as exc:
            usage = exc.partial.usage if exc.partial else Usage()
            return SubtaskResult(sub.id, text, "timeout", error=str(exc), seconds=_since(started), usage=usage)
        except (AgentRunError, ModelError) as exc:
            usage = exc.partial.usage if isinstance(exc, AgentRunError) and exc.partial else Usage()
            return SubtaskResult(sub.id, text, "failed", error=str(exc), seconds=_since(started), usage=usage)
        if not run.ok:
            return SubtaskResult(
                sub.id,
                text,
                "failed",
                error=run.error or run.status,
                seconds=_since(started),
                usage=run.usage,
            )
        return SubtaskResult(sub.id, text, "completed", _text_of(run.output), seconds=_since(started), usage=run.usage)

    # -- synthesis ------------------------------------------------------------------------------------------

    def synthesis_request(self, task: str, dag: nx.DiGraph[str], results: dict[str, SubtaskResult]) -> ModelRequest:
        lines = [
            f"[{r.id}] {subtask_of(dag, r.id).task}\n-> {self._clip(r.output or '')}"
            for r in results.values()
            if r.status == "completed"
        ]
        user = f"Task: {task}\nResults of the subtasks:\n" + "\n".join(lines) + "\nWrite the final answer to the task."
        return ModelRequest(
            messages=(Message("system", SYNTHESIS_SYSTEM), Message("user", user)),
            output_schema={"type": "string"},
            max_tokens=self.synthesis_max_tokens,
        )

    async def _synthesise(
        self, task: str, dag: nx.DiGraph[str], results: dict[str, SubtaskResult], trace: _Trace, usage: Usage
    ) -> tuple[str | None, str | None]:
        done = [r for r in results.values() if r.status == "completed"]
        if not done:
            error = "no subtask completed: " + "; ".join(f"{r.id}: {r.error}" for r in results.values())
            trace("synthesis", skipped=True, error=error)
            return None, error
        if len(results) == 1:
            trace("synthesis", skipped=True, reason="one subtask: its answer is the answer")
            return done[0].output, None
        try:
            response = await self.model.complete(self.synthesis_request(task, dag, results))
        except ModelError as exc:
            trace("synthesis", error=str(exc))
            return None, f"synthesis failed: {exc}"
        usage.add(response.usage)
        answer = _answer_text(response.content)
        trace("synthesis", output=answer, used=[r.id for r in done])
        incomplete = [r.id for r in results.values() if r.status != "completed"]
        return answer, (f"subtasks {incomplete} did not complete" if incomplete else None)

    def _clip(self, text: str) -> str:
        limit = self.result_chars
        return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} more characters]"


def _since(started: float) -> float:
    return time.perf_counter() - started


async def _tool_names(make_agent: MakeAgent, task: str) -> list[str]:
    probe = make_agent(Subtask("s0", task))
    return [spec.name for spec in await probe.toolset.list_tools()]
