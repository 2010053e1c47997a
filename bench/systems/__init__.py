"""The systems under test. Each module has `run(tasks, settings, emit) -> dict`: it loads its model, then takes
tasks from the iterable `tasks` (they arrive one at a time), calls `emit(TaskResult)` once per task, and returns
facts about itself (load time, version). Each system runs in its own subprocess (`bench.systems.worker`), so
peak RSS is per system, and the harness interleaves the systems task by task.
"""

from __future__ import annotations

SYSTEMS: dict[str, str] = {
    "agentcore": "bench.systems.agentcore_inproc",
    "agentcore-http": "bench.systems.agentcore_http",
    "raw": "bench.systems.raw_loop",
    "smolagents": "bench.systems.peer_smolagents",  # needs bench/peers/.venv-smolagents (see that module)
    "agentcore+route": "bench.systems.agentcore_policies:run_route",
    "agentcore+optimize": "bench.systems.agentcore_policies:run_optimize",
    "agentcore+advisor": "bench.systems.agentcore_policies:run_advise",
    "oracle": "bench.systems.oracle",  # replays reference calls, no model: a check of the harness itself
}
DEFAULT_SYSTEMS = ("agentcore", "agentcore-http", "raw")
