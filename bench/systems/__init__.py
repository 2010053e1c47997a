"""The systems under test. Each module has `run(tasks, settings, emit) -> dict` (facts about the system, such as
its load time and version) and calls `emit(TaskResult)` once per task, in order. The harness runs every system
in its own subprocess (`bench.systems.worker`), so peak RSS is per system.
"""

from __future__ import annotations

SYSTEMS: dict[str, str] = {
    "agentcore": "bench.systems.agentcore_inproc",
    "agentcore-http": "bench.systems.agentcore_http",
    "raw": "bench.systems.raw_loop",
}
DEFAULT_SYSTEMS = ("agentcore", "agentcore-http", "raw")
