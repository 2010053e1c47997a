"""Scale-out on a real local Ray cluster (2 CPUs, one cluster shared by this module: Ray starts slowly).

- a team runs on Ray (nodes as Ray tasks, the model as a replica actor) with the same final state as locally;
- a batch of 50 tasks completes, none lost or duplicated and no tool run twice, while a replica process is
  killed mid-run;
- the memory owner serialises concurrent writes from 20 workers without loss.

Skipped when the `ray` extra is not installed (`make test` installs it).
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

import ray_scripts  # noqa: E402  (this folder; the workers import it too)

from agentcore.agent import Agent  # noqa: E402
from agentcore.errors import UserError  # noqa: E402
from agentcore.scale.batch import run_batch  # noqa: E402
from agentcore.scale.cluster import connect, shutdown  # noqa: E402
from agentcore.scale.memory_owner import MemoryOwner, owned_memory  # noqa: E402
from agentcore.scale.ray_executor import RayExecutor  # noqa: E402
from agentcore.scale.replicas import ReplicaPool  # noqa: E402
from agentcore.scale.tasks import BatchTask  # noqa: E402
from agentcore.teams import Registry, Team  # noqa: E402

HERE = Path(__file__).resolve().parent
TEAM = HERE.parents[1] / "examples" / "teams" / "plan_work.yaml"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    previous = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), previous) if p)  # workers find ray_scripts
    try:
        yield connect(num_cpus=2)
    finally:
        shutdown()
        if previous is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = previous


async def test_team_on_ray_reaches_the_same_state_as_locally(cluster: Any) -> None:
    local = await Team.load(TEAM, registry=Registry(models={"default": ray_scripts.team_model()})).run("fruit, veg")
    pool = ReplicaPool.start(ray_scripts.team_model, replicas=1)
    try:
        registry = Registry(models={"default": pool})
        remote = await Team.load(TEAM, registry=registry, executor=RayExecutor(registry)).run("fruit, veg")
    finally:
        pool.close()
    assert local.ok and remote.ok, (local.error, remote.error)
    assert remote.state == local.state
    assert remote.output == "TASK: NAME A FRUIT and TASK: NAME A VEGETABLE"  # the task message, upper-cased
    assert sorted(r.node for r in remote.ledger) == sorted(r.node for r in local.ledger)
    assert remote.usage.calls == local.usage.calls == 4  # node usage rolls up into the team run on Ray too
    with pytest.raises(UserError, match="2 replicas x 2 threads need 4 CPUs, but the Ray cluster has 2"):
        ReplicaPool.start("qwen2.5-coder-0.5b", replicas=2, threads=2)  # refused at once, not a hang


async def test_a_failing_node_on_ray_fails_as_it_does_locally(cluster: Any, tmp_path: Path) -> None:
    team_file = tmp_path / "boom.yaml"
    team_file.write_text(
        "team: boom\nstate: {task: str, out: str}\n"
        "nodes:\n  b: {kind: function, function: 'ray_scripts:boom', reads: [task], writes: [out], retries: 1}\n"
        "topology: {entry: b, exit: b}\n"
    )
    local = await Team.load(team_file).run("x")
    remote = await Team.load(team_file, executor=RayExecutor(Registry())).run("x")
    assert local.status == remote.status == "failed"
    assert remote.error == local.error == "node 'b' failed: ValueError: no luck with ['task']"
    assert [r.attempts for r in remote.ledger] == [2]  # the engine's own retry, not Ray's


def test_batch_cli_on_ray_with_an_agent_by_import_path(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentcore.cli import main

    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": f"s{i}", "task": f"{i} + {i * 10}"}) + "\n" for i in range(6)))
    out = tmp_path / "out.jsonl"
    argv = ["batch", "run", str(tasks), "--agent", "ray_scripts:adder_agent", "--out", str(out), "--quiet"]
    assert main([*argv, "--executor", "ray", "--replicas", "2", "--memory", str(tmp_path / "mem")]) == 0
    err = capsys.readouterr().err
    assert "6 run (6 completed, 0 failed, 0 errors), 0 already done;" in err and "(ray, 2 replica(s))" in err
    owner = MemoryOwner.start(tmp_path / "mem")  # the same named owner the batch wrote through
    counts = ray.get(owner.counts.remote())
    assert counts["long_term"] == 6 and counts["trajectories"] == 6  # each run's exchange and its experience
    ray.kill(owner, no_restart=True)
    assert {json.loads(line)["output"] for line in out.read_text().splitlines()} == {str(11 * i) for i in range(6)}


async def test_batch_survives_a_killed_replica_without_loss_or_duplicates(cluster: Any, tmp_path: Path) -> None:
    executed: collections.Counter[str] = collections.Counter()

    def record(task_id: str) -> str:
        """Record that the task ran.

        Args:
            task_id: the task's id.
        """
        executed[task_id] += 1
        return f"recorded-{task_id}"

    tasks = [BatchTask(f"t{i:02d}", f"Do task t{i:02d} now.") for i in range(50)]
    agent: Agent[None, str] = Agent(tools=[record], max_steps=4)
    pool = ReplicaPool.start(ray_scripts.tool_model, replicas=2)
    out = tmp_path / "results.jsonl"
    before = pool.pids()
    try:
        run = asyncio.create_task(run_batch(tasks, agent, out, model=pool, concurrency=4))
        while not out.exists() or len(out.read_text().splitlines()) < 10:
            await asyncio.sleep(0.05)
        os.kill(before[0], signal.SIGKILL)  # a replica's process dies mid-batch, with calls in flight
        report = await asyncio.wait_for(run, 120)
        after = pool.pids()
    finally:
        pool.close()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["id"] for line in lines) == [t.id for t in tasks]  # none lost, none written twice
    assert all(line["status"] == "completed" for line in lines), [ln for ln in lines if ln["status"] != "completed"]
    assert all(line["output"] == f"done recorded-{line['id']}" for line in lines)
    assert executed == {t.id: 1 for t in tasks}  # every tool call ran exactly once, in the driver
    assert report.completed == 50 and report.errors == 0
    assert after[0] != before[0] and after[1] == before[1]  # the dead replica was replaced, the other kept


async def test_memory_owner_serialises_writes_from_20_workers(cluster: Any, tmp_path: Path) -> None:
    owner = MemoryOwner.start(tmp_path / "mem", name="test-memory-owner", reflect_model=ray_scripts.lesson_model())
    writer = ray.remote(ray_scripts.write_memories_sync).options(num_cpus=0)
    ids = await asyncio.gather(*[writer.remote(owner, w, 10) for w in range(20)])
    flat = [i for worker_ids in ids for i in worker_ids]
    assert len(flat) == len(set(flat)) == 200
    counts = await owner.counts.remote()
    assert counts["long_term"] == 200 and counts["trajectories"] == 20 and counts["pending"] == 20
    memory = owned_memory(owner)  # a worker's view: reads what the others wrote
    found = await memory.search("w7i3", k=3)
    assert [r.text for r in found] == ["fact w7i3 from worker 7"]
    # reflect() runs in the owner, one at a time: of two concurrent calls, one reflects on all 20 runs, the other
    # finds nothing left (no run is reflected on twice)
    reports = await asyncio.gather(memory.reflect(), owned_memory(owner).reflect())
    assert sorted(r.trajectories for r in reports) == [0, 20]
    after = await owner.counts.remote()
    assert after["pending"] == 0 and after["principles"] >= 1
    ray.kill(owner, no_restart=True)
    from agentcore.memory.sqlite_store import SQLiteStore  # the file itself holds every write

    store = SQLiteStore(tmp_path / "mem" / "longterm.db", create=False)
    texts = {r.text for r in await store.list(limit=500)}
    store.close()
    assert texts == {f"fact w{w}i{i} from worker {w}" for w in range(20) for i in range(10)}


@pytest.mark.real_model
async def test_the_real_model_answers_from_a_replica(cluster: Any, default_model_path: str, tmp_path: Path) -> None:
    from agentcore.tools.builtin.calculator import calculator

    pool = ReplicaPool.start(default_model_path, replicas=1, threads=1, settings={"n_ctx": 2048})
    agent: Agent[None, str] = Agent(tools=[calculator], max_steps=3)
    agent.max_tokens = 48
    out = tmp_path / "results.jsonl"
    try:
        report = await run_batch([BatchTask("add", "What is 17 + 25? Use the calculator.")], agent, out, model=pool)
    finally:
        pool.close()
    line = json.loads(out.read_text())
    assert report.completed == 1 and "42" in str(line["output"]), line
    assert line["tool_calls"] and line["tool_calls"][0].startswith("calculator(")
    assert line["usage"]["calls"] >= 2 and line["usage"]["generated"] > 0  # real token counts came back
