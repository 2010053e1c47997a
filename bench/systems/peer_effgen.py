"""Peer: effGen 1.3.0's Agent in ReAct mode on the same GGUF, in-process through its own GGUFEngine.

effGen ships a llama-cpp-python engine (`effgen.models.gguf_engine.GGUFEngine`), so nothing here talks to
llama.cpp on effGen's behalf: the engine loads the GGUF, and the agent renders its own ReAct prompt as one flat
string (effGen does not apply the GGUF's chat template on this path), sends it to `Llama.__call__`, and parses
`Action: tool | Action Input: {...}` / `Final Answer:` out of the text. No grammar: effGen does not constrain
local models. Its prompts, stop sequences, repeat guards and answer extraction are kept as they are.

Settings chosen, and why (everything else is effGen's default):
- `GGUFEngine(model_path, n_ctx, n_threads)` from Settings; the engine loads with `verbose=False`.
- `tool_calling_mode="react"`: effGen's ReAct text protocol. Stated rather than left at "auto", whose choice
  depends on a capability probe that effGen runs against the model once and stores in EFFGEN_HOME.
- Greedy: `temperature=0.0`. The engine maps temperature <= 0 to llama.cpp's greedy sampler (it then sends
  top_k=-1, top_p=1, which greedy ignores), so `top_k=1` would change nothing and is not effGen's knob here;
  `repetition_penalty=1.0` (effGen's default, sent as repeat_penalty).
- `seed=None` (effGen's default): with a fixed seed the engine clears the KV cache before every call so a seeded
  call is bit-reproducible, which would make each step re-evaluate the whole prompt. Greedy decoding needs no
  seed, so we leave it unset and effGen reuses the cached prompt prefix, as it does for its own users.
- `max_tokens=Settings.max_tokens` per call (effGen's default is 1,024; a run measured before this module went up
  to that after its answer) and `max_iterations=Settings.max_steps`.
- `tool_use="auto"`: `Tool.from_function` gives an uncategorised function the SYSTEM category, whose default
  policy *requires* a tool call before any answer. Every other system leaves that choice to the model (the
  "direct" tasks hold distractor tools), so we state effGen's own "model decides" policy. Its tool contract
  text (chosen from the category) is left as it is.
- `enable_memory=False`, `enable_sub_agents=False`: tasks are independent single-agent runs; a fresh Agent per
  task (as the smolagents peer builds one per task) means no conversation carries over.
- `raise_on_error=False`: effGen's documented setting for batch evaluation; a stopped run comes back with
  `metadata["reason"]` instead of raising, and is recorded with that reason as its status.
- `EFFGEN_HOME=bench/peers/.venv-effgen/home`: effGen writes its run history and cost database there instead
  of ~/.effgen (inside the git-ignored install folder).
effGen has no per-task timeout; max_iterations and max_tokens bound a run (Settings.timeout is not applied).
Tools are the bench toolbox functions wrapped with effGen's own `Tool.from_function`; tool time is the
durations effGen records for each call.

effGen lives in its own folder (no torch: the GGUF engine needs only llama-cpp-python, taken from .venv):
    ./scripts/setup_peers.sh
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from bench import toolbox
from bench.suite import Task
from bench.systems.common import Emit, Settings, TaskResult, output_text, trace_line, warm_up
from bench.systems.peer_smolagents import _Meter

LIBRARY = Path(__file__).resolve().parents[1] / "peers" / ".venv-effgen"
HOME = LIBRARY / "home"
VERSION = "1.3.0"
# effGen's reasons for a run that ended at its iteration cap, reported as the bench's "max_steps".
MAX_STEPS_REASONS = frozenset({"max_iterations_partial", "max_iterations_exhausted"})


def run(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    if not (LIBRARY / "effgen").is_dir():
        raise RuntimeError(f"effgen is not installed for the benchmark: ./scripts/setup_peers.sh (into {LIBRARY})")
    os.environ["EFFGEN_HOME"] = str(HOME)  # before effgen is imported: some of its stores read it early
    sys.path.append(str(LIBRARY))  # last, so the project's own packages win where both have one
    import effgen
    from effgen.models.gguf_engine import GGUFEngine

    started = time.perf_counter()
    engine = GGUFEngine(settings.model_path, n_ctx=settings.n_ctx, n_threads=settings.n_threads)
    engine.load()
    warm_up(engine._llm)
    meter = _Meter(engine._llm)
    load_s = time.perf_counter() - started
    for task in tasks:
        meter.reset()
        emit(run_task(engine, meter, task, settings))
    return {"load_s": load_s, "version": f"effgen {effgen.__version__}"}


@cache
def _tool(name: str) -> Any:
    from effgen.tools.function_tool import Tool

    return Tool.from_function(toolbox.FUNCTIONS[name])


def agent_config(engine: Any, tools: list[Any], settings: Settings) -> Any:
    """The AgentConfig of one task (see the module docstring for each setting)."""
    from effgen.core.agent import AgentConfig

    return AgentConfig(
        name="bench", model=engine, tools=tools, tool_calling_mode="react",
        temperature=0.0, repetition_penalty=1.0, seed=None,
        max_tokens=settings.max_tokens, max_iterations=settings.max_steps,
        tool_use="auto", enable_memory=False, enable_sub_agents=False, raise_on_error=False,
    )  # fmt: skip


def run_task(engine: Any, meter: _Meter, task: Task, settings: Settings) -> TaskResult:
    from effgen.core.agent import Agent

    started, cpu_started = time.perf_counter(), time.process_time()
    status, output, error, calls = "completed", None, None, []
    try:
        with Agent(agent_config(engine, [_tool(name) for name in task.tools], settings)) as agent:
            response = agent.run(task.task)
        status, error = run_status(response.success, response.metadata.get("reason"))
        output, calls = output_text(response.output), list(response.tool_calls)
    except Exception as exc:  # a crash is a failed task
        status, error = "crash", f"{type(exc).__name__}: {exc}"
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return TaskResult(
        id=task.id, family=task.family, status=status, output=output, wall_s=wall, cpu_s=cpu,
        model_s=meter.seconds, tool_s=sum(c.duration or 0.0 for c in calls), calls=meter.calls,
        prompt_tokens=meter.prompt_tokens, cached_tokens=meter.cached_tokens,
        generated_tokens=meter.generated_tokens, tool_calls=[c.name for c in calls],
        trace=[trace_line(c.name, call_arguments(c.arguments), c.error or c.result) for c in calls],
        error=error,
    )  # fmt: skip


def run_status(success: bool, reason: Any) -> tuple[str, str | None]:
    """The bench's status and error for effGen's outcome: its stop reason names what ended a failed run."""
    if success:
        return "completed", None
    if reason in MAX_STEPS_REASONS:
        return "max_steps", f"effgen stopped: {reason}"
    return str(reason or "error"), f"effgen stopped: {reason or 'no reason given'}"


def call_arguments(arguments: Any) -> dict[str, Any]:
    """A tool call's arguments as a dict: the ReAct path records the JSON text the model wrote."""
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except json.JSONDecodeError:
            return {"input": arguments}
        return decoded if isinstance(decoded, dict) else {"input": decoded}
    return {} if arguments is None else {"input": arguments}
