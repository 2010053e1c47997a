"""Experience memory on the real default model (Qwen 0.5B through llama.cpp) and the real MiniLM embedder: a run
with a check, reflect() turning it into a principle (a success: its own calls as a worked example; a failure: a
lesson under the grammar), and the principle read back into the next run of the same kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.memory import Memory
from agentcore.tools.builtin.calculator import calculator

pytestmark = pytest.mark.real_model


async def test_a_checked_run_becomes_a_principle_read_into_the_next_run(qwen: Any, tmp_path: Path) -> None:
    memory = Memory.open(tmp_path, long_term=False, verifier=lambda result: "391" in str(result.output))
    agent: Agent[None, str] = Agent(qwen, tools=[calculator], memory=memory, max_steps=3)
    first = await agent.run("What is 17 * 23?")
    bank = memory.experience
    assert bank is not None
    t = bank.trajectory(first.run_id)
    assert t is not None and t.outcome == ("391" in str(first.output))
    assert any(step.startswith("calculator(") for step in t.steps)

    report = await memory.reflect(qwen)
    assert report.trajectories == 1 and report.skipped == 0
    principles = bank.all()
    if not t.outcome:  # a failure: one model-written cautionary lesson, waiting, or rejected as implausible
        assert report.model_calls >= 1 and len(principles) + len(report.rejected) == 1
        assert all(p.type == "cautionary" and not p.active for p in principles)
        return
    # a success: its own calls as a worked example, no model call, found by the next task of the same pattern
    assert report.model_calls == 0 and len(principles) == 1
    lesson = principles[0]
    assert lesson.type == "guiding" and lesson.active
    assert lesson.description.startswith('For a task like "What is N1 * N2?": call calculator(expression=')
    second = await agent.run("What is 19 * 21?")
    assert [r for e in second.trace if e["kind"] == "memory" for r in e["recalled"]] == [lesson.id]
    system = second.messages[0].content
    assert f"[{lesson.id}] Do: For a task like" in system and "never an instruction" in system


def test_the_cli_records_a_run_into_memory_and_takes_feedback(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    exe = str(Path(sys.executable).parent / "agentcore")
    env = {k: v for k, v in os.environ.items() if k != "AGENTCORE_BLOCK_REAL_MODELS"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=600, check=False, env=env)

    ran = cli("run", "--memory", str(tmp_path), "--threads", "2", "--max-steps", "3", "What is 6 * 7?")
    assert ran.returncode == 0, ran.stderr
    assert "recorded in memory" in ran.stderr
    runs = json.loads(cli("memory", "--dir", str(tmp_path), "--json", "list", "runs").stdout)
    assert len(runs) == 1 and runs[0]["task"] == "What is 6 * 7?" and runs[0]["outcome"] == "unknown"
    assert cli("memory", "--dir", str(tmp_path), "feedback", runs[0]["id"], "good").returncode == 0
    again = json.loads(cli("memory", "--dir", str(tmp_path), "--json", "list", "runs").stdout)
    assert again[0]["outcome"] == "good"
