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
    "effgen": "bench.systems.peer_effgen",  # needs bench/peers/.venv-effgen (./scripts/setup_peers.sh)
    "pydantic-ai": "bench.systems.peer_pydantic_ai",  # needs bench/peers/.venv-pydantic-ai (same script)
    "agentcore+route": "bench.systems.agentcore_policies:run_route",
    "agentcore+optimize": "bench.systems.agentcore_policies:run_optimize",
    "agentcore+advisor": "bench.systems.agentcore_policies:run_advise",
    "agentcore+relevance": "bench.systems.agentcore_policies:run_relevance",
    "agentcore+tiers": "bench.systems.agentcore_policies:run_tiers",  # 1.5B for runs offered 2+ tools (#12)
    "agentcore+tiers-native": "bench.systems.agentcore_policies:run_tiers_native",  # the 1.5B in its own format
    "agentcore+tiers-first": "bench.systems.agentcore_policies:run_tiers_first",  # ... for its first call only
    "agentcore+lookup": "bench.systems.agentcore_inproc:run_lookup",  # prompt-lookup decoding (issue #17)
    "agentcore+think": "bench.systems.agentcore_inproc:run_think",  # a bounded thought per turn (#12)
    "agentcore-native": "bench.systems.agentcore_inproc:run_native",  # chat template's tool format (issue #18)
    "oracle": "bench.systems.oracle",  # replays reference calls, no model: a check of the harness itself
}
DEFAULT_SYSTEMS = ("agentcore", "agentcore-http", "raw")
