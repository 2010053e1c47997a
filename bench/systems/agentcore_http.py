"""agentcore over HTTP: OpenAICompatModel against llama-cpp-python's server on loopback, same GGUF and settings.

The server gets the same grammar as the in-process backend (response_format="grammar"), so decoding is
identical and the difference is the cost of the HTTP hop and the server. Model time is what the client waits
for (agentcore's ledger), so HTTP and server time count as model time here, not as framework overhead.
Peak RSS of the server is read by the worker from RUSAGE_CHILDREN once the server has exited.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from bench.suite import Task
from bench.systems.agentcore_inproc import run_agent_tasks
from bench.systems.common import Emit, Settings


def run(tasks: Sequence[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    import agentcore
    from agentcore.models.openai_compat import OpenAICompatModel
    from agentcore.testing_server import start_llama_server

    started = time.perf_counter()
    server = start_llama_server(settings.model_path, n_ctx=settings.n_ctx, n_threads=settings.n_threads)
    with server:
        load_s = time.perf_counter() - started
        model = OpenAICompatModel(server.base_url, timeout=settings.timeout, response_format="grammar")
        asyncio.run(run_agent_tasks(model, tasks, settings, emit, None))
    return {"load_s": load_s, "version": f"agentcore {agentcore.__version__} + llama_cpp.server"}
