"""What every system shares: the settings of a run, the record of one task, and a timer for llama.cpp calls.

Framework overhead is measured the same way for every in-process system: wall time minus the time spent inside
`Llama.create_completion` (the inference itself) minus tool time. So prompt rendering, tokenising, grammar set-up,
thread hops and bookkeeping all count as overhead, whoever does them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Settings:
    """Identical for every system in a run."""

    model_path: str
    n_ctx: int = 4096
    n_threads: int = 2
    max_tokens: int = 256  # per model call, as agentcore's default
    max_steps: int = 8
    timeout: float = 120.0  # per task
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class TaskResult:
    """One task run by one system. `ok` is filled in by the worker from the task's check."""

    id: str
    family: str
    status: str  # completed, max_steps, timeout, error, crash, ...
    output: str | None
    wall_s: float
    cpu_s: float  # CPU seconds of this process (all threads): less sensitive to a busy machine than wall time
    model_s: float
    tool_s: float
    calls: int
    prompt_tokens: int
    cached_tokens: int
    generated_tokens: int
    tool_calls: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)  # "name(arguments) -> result" per tool call, for reading
    error: str | None = None
    ok: bool = False

    @property
    def overhead_s(self) -> float:
        return max(0.0, self.wall_s - self.model_s - self.tool_s)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "overhead_s": self.overhead_s}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TaskResult:
        return cls(**{key: value for key, value in data.items() if key != "overhead_s"})


Emit = Callable[[TaskResult], None]


class CallTimer:
    """Wraps a Llama instance's create_completion and eval to add up the seconds spent inside llama.cpp.

    `eval` counts too: LlamaCppModel evaluates the prompt itself first (under an abort callback, so a cancel
    stops it), then create_completion samples. Only the outermost call counts (create_completion calls eval)."""

    def __init__(self, llm: Any) -> None:
        self.seconds = 0.0
        self.depth = 0
        for name in ("create_completion", "eval"):
            setattr(llm, name, self._timed(getattr(llm, name)))

    def _timed(self, original: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            self.depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.seconds += time.perf_counter() - started

        return timed

    def take(self) -> float:
        """Seconds since the last take, and reset."""
        seconds, self.seconds = self.seconds, 0.0
        return seconds


def warm_up(llm: Any) -> None:
    """One tiny completion, so the first task does not pay for paging in the mmapped weights."""
    llm.create_completion("Hello", max_tokens=1, temperature=0.0)


def trace_line(name: str, arguments: dict[str, Any], result: str | None) -> str:
    shown = (result or "").replace("\n", " ")
    return f"{name}({json.dumps(arguments, ensure_ascii=False)}) -> {shown[:120]}"


def output_text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def load_llama(settings: Settings) -> Any:
    """A raw llama_cpp.Llama with the bench's shared settings (same for every system that drives one directly)."""
    import llama_cpp

    return llama_cpp.Llama(
        model_path=settings.model_path,
        n_ctx=settings.n_ctx,
        n_threads=settings.n_threads,
        seed=settings.seed,
        verbose=False,
    )
