"""agentcore over HTTP: OpenAICompatModel against llama-cpp-python's server on loopback, same GGUF and settings.

The server gets the same grammar as the in-process backend (response_format="grammar"), so decoding is
identical and the difference is the cost of the HTTP hop and the server. Model time is what the client waits
for (agentcore's ledger), so HTTP and server time count as model time here, not as framework overhead.
Peak RSS of the server is read by the worker from RUSAGE_CHILDREN once the server has exited; CPU seconds
per task are the client's plus the server's (psutil).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable
from typing import Any

from bench.suite import Task
from bench.systems.agentcore_inproc import run_agent_tasks
from bench.systems.common import Emit, Settings, TaskResult


def run(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    import agentcore
    from agentcore.models.openai_compat import OpenAICompatModel
    from agentcore.testing_server import start_llama_server

    started = time.perf_counter()
    server = start_llama_server(settings.model_path, n_ctx=settings.n_ctx, n_threads=settings.n_threads)
    with server:
        model = OpenAICompatModel(server.base_url, timeout=settings.timeout, response_format="grammar")
        asyncio.run(_warm_up(model))
        load_s = time.perf_counter() - started
        asyncio.run(run_agent_tasks(model, tasks, settings, _with_server_cpu(emit), None))
    return {
        "load_s": load_s,
        "version": f"agentcore {agentcore.__version__} + llama_cpp.server",
        "cache_unreported": True,  # llama-cpp-python's server says nothing about KV cache reuse
    }


def _with_server_cpu(emit: Emit) -> Emit:
    """Add the server's CPU seconds since the last task to each result: the client alone does almost nothing."""
    import psutil

    def children_cpu() -> float:
        total = 0.0
        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                times = child.cpu_times()
                total += times.user + times.system
        return total

    last = children_cpu()

    def emit_with_cpu(result: TaskResult) -> None:
        nonlocal last
        now = children_cpu()
        result.cpu_s += now - last
        last = now
        emit(result)

    return emit_with_cpu


async def _warm_up(model: Any) -> None:
    """One tiny request, as the in-process systems make one tiny completion (weights paged in, HTTP set up)."""
    from agentcore.messages import Message, ModelRequest

    await model.complete(ModelRequest(messages=(Message("user", "Hello"),), max_tokens=1, constrain=False))
