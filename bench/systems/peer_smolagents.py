"""Peer: smolagents' ToolCallingAgent on the same GGUF, in-process through llama-cpp-python.

smolagents ships no llama.cpp model class, so this is the small custom `Model` its docs suggest: the agent's
messages go to `Llama.create_chat_completion` (the GGUF's own chat template), greedy, with smolagents' stop
sequences, and the agent parses the JSON tool call out of the text as it does for any text-only model. No
grammar: smolagents does not constrain local models. Its default prompts, max_steps and final-answer tool are
kept as they are. smolagents has no run timeout; max_steps and max_tokens bound a run.

smolagents lives in its own folder so that its dependencies cannot change the project's venv:
    .venv/bin/pip install --target bench/peers/.venv-smolagents smolagents==1.26.0
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench import toolbox
from bench.suite import Task
from bench.systems.common import CallTimer, Emit, Settings, TaskResult, load_llama, output_text, trace_line, warm_up

LIBRARY = Path(__file__).resolve().parents[1] / "peers" / ".venv-smolagents"
VERSION = "1.26.0"


def run(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    if not (LIBRARY / "smolagents").is_dir():
        raise RuntimeError(
            f"smolagents is not installed for the benchmark: .venv/bin/pip install --target {LIBRARY}"
            f" smolagents=={VERSION}"
        )
    sys.path.append(str(LIBRARY))  # last, so the project's own packages win where both have one
    import smolagents

    started = time.perf_counter()
    llm = load_llama(settings)
    warm_up(llm)
    meter = _Meter(llm)
    load_s = time.perf_counter() - started
    model = _model_class()(llm, settings)
    for task in tasks:
        meter.reset()
        emit(run_task(model, meter, task, settings))
    return {"load_s": load_s, "version": f"smolagents {smolagents.__version__}"}


class _Meter(CallTimer):
    """CallTimer that also counts calls and prompt, cached and generated tokens of every completion."""

    def __init__(self, llm: Any) -> None:
        self.llm = llm
        self.reset()
        inner = llm.create_completion

        def metered(*args: Any, **kwargs: Any) -> Any:
            prompt = kwargs.get("prompt", args[0] if args else "")
            tokens = llm.tokenize(prompt.encode(), add_bos=False, special=True) if isinstance(prompt, str) else prompt
            held = list(llm._input_ids[: llm.n_tokens])
            same = [a == b for a, b in zip(held, tokens, strict=False)]
            self.calls += 1
            self.prompt_tokens += len(tokens)
            self.cached_tokens += min(same.index(False) if False in same else len(same), len(tokens) - 1)
            out = inner(*args, **kwargs)
            self.generated_tokens += int(out["usage"]["completion_tokens"])
            return out

        llm.create_completion = metered
        super().__init__(llm)  # times the metered call: the token counting above is small

    def reset(self) -> None:
        self.seconds = 0.0
        self.calls = self.prompt_tokens = self.cached_tokens = self.generated_tokens = 0


def _model_class() -> type:
    from smolagents import ChatMessage, Model
    from smolagents.monitoring import TokenUsage

    class LlamaCppSmolModel(Model):  # type: ignore[misc]
        def __init__(self, llm: Any, settings: Settings) -> None:
            super().__init__(flatten_messages_as_text=True, model_id="local-gguf")
            self.llm, self.settings = llm, settings

        def generate(self, messages: Any, stop_sequences: Any = None, **kwargs: Any) -> Any:
            prepared = self._prepare_completion_kwargs(messages=messages, stop_sequences=stop_sequences)
            out = self.llm.create_chat_completion(
                messages=prepared["messages"], stop=prepared.get("stop"), max_tokens=self.settings.max_tokens,
                temperature=0.0, top_k=1, repeat_penalty=1.0, seed=self.settings.seed,
            )  # fmt: skip
            usage = out["usage"]
            return ChatMessage(
                role="assistant",
                content=out["choices"][0]["message"]["content"] or "",
                token_usage=TokenUsage(usage["prompt_tokens"], usage["completion_tokens"]),
            )

    return LlamaCppSmolModel


def run_task(model: Any, meter: _Meter, task: Task, settings: Settings) -> TaskResult:
    from smolagents import ToolCallingAgent
    from smolagents import tool as smol_tool

    tools = [smol_tool(toolbox.FUNCTIONS[name]) for name in task.tools]
    agent = ToolCallingAgent(tools=tools, model=model, max_steps=settings.max_steps, verbosity_level=0)
    started, cpu_started = time.perf_counter(), time.process_time()
    status, output, error = "completed", None, None
    try:
        output = output_text(agent.run(task.task))
    except Exception as exc:  # a crash is a failed task
        status, error = "crash", f"{type(exc).__name__}: {exc}"
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    calls = [c for step in agent.memory.steps for c in (getattr(step, "tool_calls", None) or [])]
    if any(getattr(step, "error", None) and "max steps" in str(step.error) for step in agent.memory.steps):
        status = "max_steps"
    return TaskResult(
        id=task.id, family=task.family, status=status, output=output, wall_s=wall, cpu_s=cpu,
        model_s=meter.seconds, tool_s=0.0, calls=meter.calls, prompt_tokens=meter.prompt_tokens,
        cached_tokens=meter.cached_tokens, generated_tokens=meter.generated_tokens,
        tool_calls=[c.name for c in calls if c.name != "final_answer"],
        trace=[trace_line(c.name, c.arguments if isinstance(c.arguments, dict) else {}, None) for c in calls],
        error=error,
    )  # fmt: skip
