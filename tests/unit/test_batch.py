"""Batch runs without Ray: task files, resumable results, restarts that skip finished tasks, the CLI."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentcore.agent import Agent
from agentcore.cli import main
from agentcore.errors import ModelUnavailableError, UserError
from agentcore.messages import ModelRequest, ToolCall
from agentcore.scale.batch import run_batch
from agentcore.scale.cluster import ExecutorChoice, parse_executor
from agentcore.scale.tasks import BatchTask, ResultWriter, finished_ids, read_tasks
from agentcore.testing import FunctionModel


def write_tasks(path: Path, n: int) -> list[BatchTask]:
    lines = [json.dumps({"id": f"t{i}", "task": f"What is {i} + {i}?", "family": "sum"}) for i in range(n)]
    path.write_text("# a comment\n\n" + "\n".join(lines) + "\n")
    return read_tasks(path)


def test_task_files_keep_extra_keys_and_locate_every_error(tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "ok.jsonl", 3)
    assert [t.id for t in tasks] == ["t0", "t1", "t2"] and tasks[0].extra == {"family": "sum"}
    cases = {
        '{"id": "a", "task": "x"}\n{"id": "a", "task": "y"}\n': "bad.jsonl:2: duplicate task id 'a' (first on line 1)",
        '{"id": "a", "task": "x"}\n{"id": "b"\n': "bad.jsonl:2: not valid JSON",
        '{"id": "a", "task": ""}\n': "bad.jsonl:1: 'task' must be a non-empty string",
        "[1, 2]\n": "bad.jsonl:1: a task line must be a JSON object",
        "\n# only comments\n": "bad.jsonl: no tasks",
    }
    for text, message in cases.items():
        (tmp_path / "bad.jsonl").write_text(text)
        with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
            read_tasks(tmp_path / "bad.jsonl")


def test_finished_ids_skip_errors_and_a_line_cut_short(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    rows = [{"id": "a", "status": "completed"}, {"id": "b", "status": "failed"}, {"id": "c", "status": "error"},
            {"id": "d", "status": "error"}, {"id": "d", "status": "completed"}]  # fmt: skip
    out.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"id": "e", "stat')  # killed mid-write
    assert finished_ids(out) == {"a", "b", "d"}  # an error runs again; a later line for an id wins
    with ResultWriter(out) as writer:  # opening for append drops the cut-off line first
        writer.write({"id": "e", "status": "completed"})
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "b", "c", "d", "d", "e"]
    assert finished_ids(tmp_path / "missing.jsonl") == set()


def counting_agent(
    calls: collections.Counter[str], fail: set[str], delay: float = 0.0, fail_after_tool: set[str] | None = None
) -> Agent[None, str]:
    """An agent whose tool counts executions per task, and whose model fails for the tasks in `fail` (at its
    first turn) or in `fail_after_tool` (at the turn after the tool ran)."""

    async def note(task_id: str) -> str:  # async: no await inside, so a cancel never cuts it off half-way
        """Note the task.

        Args:
            task_id: the task's id.
        """
        calls[task_id] += 1
        return f"noted {task_id}"

    async def answer(request: ModelRequest) -> str | ToolCall:
        await asyncio.sleep(delay)
        text = request.messages[-1].content
        task_id = text.split("task ")[-1].split()[0].strip("?.") if "task " in text else ""
        if request.messages[-1].kind == "observation":
            task_id = next(m.content for m in request.messages if m.kind == "task").split("task ")[-1].split()[0]
            if task_id in (fail_after_tool or set()):
                raise ModelUnavailableError(f"model down after the tool of {task_id}")
            return f"done {request.messages[-1].content.strip()}"
        if task_id in fail:
            raise ModelUnavailableError(f"model down for {task_id}")
        return ToolCall(name="note", arguments={"task_id": task_id})

    agent: Agent[None, str] = Agent(FunctionModel(answer), tools=[note], max_steps=3)
    agent.retries = 0
    return agent


async def test_a_restart_runs_only_what_is_not_finished(tmp_path: Path) -> None:
    tasks = [BatchTask(f"t{i}", f"Handle task t{i} now.") for i in range(8)]
    out, calls = tmp_path / "results.jsonl", collections.Counter[str]()
    first = await run_batch(tasks, counting_agent(calls, fail={"t3"}), out, concurrency=3)
    assert (first.completed, first.errors, first.skipped) == (7, 1, 0)
    again = await run_batch(tasks, counting_agent(calls, fail=set()), out, concurrency=3)
    assert (again.completed, again.skipped) == (1, 7)  # only the task that hit the failing model runs again
    assert calls == {t.id: 1 for t in tasks}  # no task's tool ran twice across the restart
    assert finished_ids(out) == {t.id for t in tasks}


async def test_a_killed_batch_resumes_without_losing_or_repeating_tasks(tmp_path: Path) -> None:
    tasks = [BatchTask(f"t{i}", f"Handle task t{i} now.") for i in range(12)]
    out, calls = tmp_path / "results.jsonl", collections.Counter[str]()
    run = asyncio.create_task(run_batch(tasks, counting_agent(calls, set(), delay=0.01), out, concurrency=2))
    while not out.exists() or len(out.read_text().splitlines()) < 4:
        await asyncio.sleep(0.005)
    run.cancel()  # the batch is stopped in the middle (Ctrl-C)
    with pytest.raises(asyncio.CancelledError):
        await run
    written = finished_ids(out)
    assert 4 <= len(written) < 12
    report = await run_batch(tasks, counting_agent(calls, set()), out, concurrency=2)
    assert report.skipped == len(written) and report.completed == 12 - len(written)
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == sorted(t.id for t in tasks)  # each task exactly once in the results
    # a task cancelled between its tool call and its result line runs again, but its call replays from the ledger
    assert calls == {t.id: 1 for t in tasks}
    assert report.replayed <= 2


async def test_a_task_run_again_replays_the_tool_calls_it_already_made(tmp_path: Path) -> None:
    tasks = [BatchTask(f"t{i}", f"Handle task t{i} now.") for i in range(4)]
    out, calls = tmp_path / "results.jsonl", collections.Counter[str]()
    first = await run_batch(tasks, counting_agent(calls, set(), fail_after_tool={"t2"}), out)
    assert (first.completed, first.errors, calls["t2"]) == (3, 1, 1)  # t2's tool ran, then its model failed
    again = await run_batch(tasks, counting_agent(calls, set()), out)
    assert (again.completed, again.skipped, again.replayed) == (1, 3, 1)
    assert calls == {t.id: 1 for t in tasks}  # t2's tool call was replayed from the ledger, not run again
    last = json.loads(out.read_text().splitlines()[-1])
    assert last["id"] == "t2" and last["status"] == "completed" and "noted t2" in last["output"]
    assert len((tmp_path / "results.calls.jsonl").read_text().splitlines()) == 4


def test_batch_cli_runs_locally_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_tasks(tmp_path / "tasks.jsonl", 5)
    out = tmp_path / "out.jsonl"
    argv = ["batch", "run", str(tmp_path / "tasks.jsonl"), "--agent", "batch_agents:agent", "--out", str(out)]
    assert main(argv) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["status"], r["output"], r["family"]) for r in lines] == [
        (f"t{i}", "completed", str(2 * i), "sum") for i in range(5)
    ]
    err = capsys.readouterr().err
    assert "[" + "#" * 20 + "] 5/5 (5 ok, 0 failed, 0 errors, 0 skipped)" in err  # the progress bar's last state
    assert "5 run (5 completed, 0 failed, 0 errors), 0 already done" in err
    assert main(argv) == 0
    assert "0 run (0 completed, 0 failed, 0 errors), 5 already done" in capsys.readouterr().err
    assert len(out.read_text().splitlines()) == 5


def test_batch_cli_with_memory_records_each_run(tmp_path: Path) -> None:
    from agentcore.memory.principles import PrincipleBank

    write_tasks(tmp_path / "tasks.jsonl", 2)
    out, mem = tmp_path / "out.jsonl", tmp_path / "mem"
    argv = ["batch", "run", str(tmp_path / "tasks.jsonl"), "--agent", "batch_agents:agent", "--out", str(out)]
    assert main([*argv, "--memory", str(mem), "--quiet"]) == 0
    assert PrincipleBank(mem / "experience.db").counts()["trajectories"] == 2


def test_batch_cli_refuses_bad_flags_before_loading_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_tasks(tmp_path / "tasks.jsonl", 1)
    base = ["batch", "run", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "o.jsonl")]
    assert main([*base, "--executor", "spark"]) == 1
    assert "--executor 'spark' is not allowed; allowed: local, ray, ray://HOST:PORT, auto" in capsys.readouterr().err
    assert main([*base, "--replicas", "0"]) == 1
    assert "--replicas must be at least 1" in capsys.readouterr().err
    assert main([*base, "--agent", "batch_agents:nothing"]) == 1
    assert "has no attribute 'nothing'" in capsys.readouterr().err


def test_executor_values() -> None:
    assert parse_executor("local") == ExecutorChoice("local")
    assert parse_executor("ray") == ExecutorChoice("ray")
    assert parse_executor("auto") == ExecutorChoice("ray", "auto")
    assert parse_executor("ray://head:10001") == ExecutorChoice("ray", "ray://head:10001")
    assert parse_executor("ray://head") == ExecutorChoice("ray", "ray://head:10001")
    with pytest.raises(UserError, match="ray://HOST:PORT"):
        parse_executor("ray://:x")


def test_importing_agentcore_and_its_batch_runner_never_imports_ray() -> None:
    modules = "agentcore, agentcore.scale, agentcore.scale.batch, agentcore.scale.batch_cli, agentcore.scale.tasks"
    code = f"import sys, {modules}, agentcore.scale.cluster, agentcore.cli; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_team_run_checks_its_executor_before_loading_a_model(capsys: pytest.CaptureFixture[str]) -> None:
    team = str(Path(__file__).resolve().parents[2] / "examples" / "teams" / "vote.yaml")
    assert main(["team", "run", team, "--task", "1 + 1", "--executor", "dask"]) == 1
    assert "--executor 'dask' is not allowed" in capsys.readouterr().err
    assert main(["team", "run", team, "--task", "1 + 1", "--executor", "ray", "--replicas", "0"]) == 1
    assert "--replicas must be at least 1" in capsys.readouterr().err


def test_the_example_task_file_is_in_the_bench_format() -> None:
    tasks = read_tasks(Path(__file__).resolve().parents[2] / "examples" / "batch" / "tasks.jsonl")
    assert len(tasks) == 6 and all(t.extra["check"]["kind"] == "number" for t in tasks)
    assert all(str(t.extra["check"]["value"]) not in t.task for t in tasks)  # the answer is not in the question


def test_auto_is_local_when_no_cluster_is_running() -> None:
    pytest.importorskip("ray")
    code = "from agentcore.scale.cluster import *; print(resolve(parse_executor('auto')).kind)"
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == "local"
