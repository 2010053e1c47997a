"""agentcore with the model in-process (LlamaCppModel): the system the benchmark is about.

Each task gets a fresh Agent with the task's tools and agentcore's defaults (instructions, max_tokens, retries).
A run that hits max_steps or the timeout counts as a failure, with the numbers of its partial result kept.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from bench import toolbox
from bench.suite import Task
from bench.systems.common import CallTimer, Emit, Settings, TaskResult, output_text, trace_line, warm_up

if TYPE_CHECKING:
    from agentcore.result import Step


def run(
    tasks: Iterable[Task], settings: Settings, emit: Emit, *, prompt_lookup: int = 0, tool_format: str = "json"
) -> dict[str, Any]:
    import agentcore
    from agentcore.models.llamacpp import LlamaCppModel

    model = LlamaCppModel(
        settings.model_path,
        n_ctx=settings.n_ctx,
        n_threads=settings.n_threads,
        seed=settings.seed,
        prompt_lookup=prompt_lookup,
        tool_format=tool_format,
    )
    started = time.perf_counter()
    llm = model.load()
    warm_up(llm)
    timer = CallTimer(llm)
    load_s = time.perf_counter() - started
    asyncio.run(run_agent_tasks(model, tasks, settings, emit, timer))
    return {"load_s": load_s, "version": f"agentcore {agentcore.__version__}"}


LOOKUP_DRAFT = 10  # llama-cpp-python's default num_pred_tokens


def run_lookup(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    """`agentcore+lookup`: the same, with prompt-lookup decoding (issue #17: tried against `agentcore`)."""
    return run(tasks, settings, emit, prompt_lookup=LOOKUP_DRAFT)


def run_think(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    """`agentcore+think`: each turn starts with a bounded thought (`Agent(think=THINK)`; issue #12)."""
    global AGENT_OPTIONS
    AGENT_OPTIONS = {"think": THINK}
    return run(tasks, settings, emit)


def run_native(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    """`agentcore-native`: the chat template's own tool format (issue #18: measured against `agentcore`)."""
    return run(tasks, settings, emit, tool_format="native")


async def run_agent_tasks(
    model: Any, tasks: Iterable[Task], settings: Settings, emit: Emit, timer: CallTimer | None
) -> None:
    """Run every task through a fresh Agent on `model`; `timer` (in-process only) times llama.cpp itself."""
    for task in tasks:
        if timer is not None:
            timer.take()
        emit(await run_agent_task(model, task, settings, timer))


# Policy variants (bench/systems/agentcore_policies.py) set this: model -> the policies each Agent gets.
def _no_policies(model: Any) -> list[Any]:
    return []


POLICIES: Callable[[Any], list[Any]] = _no_policies
THINK = 80  # characters of thought per turn for `agentcore+think`
AGENT_OPTIONS: dict[str, Any] = {}  # extra Agent keyword arguments of a variant


async def run_agent_task(model: Any, task: Task, settings: Settings, timer: CallTimer | None) -> TaskResult:
    from agentcore import Agent
    from agentcore.errors import AgentRunError

    agent: Agent[None, str] = Agent(
        model,
        tools=toolbox.agent_tools(task.tools),
        timeout=settings.timeout,
        max_steps=settings.max_steps,
        policies=POLICIES(model),
        **AGENT_OPTIONS,
    )
    agent.max_tokens = settings.max_tokens
    started, cpu_started = time.perf_counter(), time.process_time()
    result: Any = None
    error: str | None = None
    try:
        result = await agent.run(task.task)
    except AgentRunError as exc:
        result, error = exc.partial, str(exc)
    except Exception as exc:  # a crash is a failed task, not a failed benchmark
        error = f"{type(exc).__name__}: {exc}"
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if result is None:
        return TaskResult(task.id, task.family, "crash", None, wall, cpu, 0.0, 0.0, 0, 0, 0, 0, error=error)
    ledger, usage = result.ledger, result.usage
    return TaskResult(
        id=task.id,
        family=task.family,
        status=result.status,
        output=output_text(result.output),
        wall_s=wall,
        cpu_s=cpu,
        model_s=timer.take() if timer is not None else ledger.model_seconds,
        tool_s=ledger.tool_seconds,
        calls=usage.calls,
        prompt_tokens=usage.prompt_tokens,
        cached_tokens=usage.cached_tokens,
        generated_tokens=usage.generated_tokens,
        tool_calls=[step.call.name for step in result.steps if step.call is not None],
        trace=[_traced(step) for step in result.steps if step.call is not None or step.content],
        error=error or result.error,
    )


def _traced(step: Step) -> str:
    """A call and its result, or an answer the model gave (held back or final), so a failure reads whole."""
    if step.call is not None:
        return trace_line(step.call.name, step.call.arguments, step.result)
    return f"answer: {(step.content or '').replace(chr(10), ' ')[:160]}"
