"""Scripted models and worker functions for tests/integration/test_ray_scale.py. They live in their own module
so that Ray workers and replicas can import them (the test puts this folder on the workers' PYTHONPATH)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from agentcore.messages import ModelRequest, ToolCall
from agentcore.testing import FunctionModel

PLAN = {"part_a": "name a fruit", "part_b": "name a vegetable"}


def team_answer(request: ModelRequest) -> str:
    """plan_work.yaml's roles, deterministic: the same state whichever process answers."""
    system, prompt = request.messages[0].content, request.messages[-1].content
    if "You are the planner." in system:
        return json.dumps(PLAN)
    if "You are the worker." in system:
        return prompt.strip().upper()
    if "You are the editor." in system:
        results = re.findall(r"Result \d: (.*)", prompt)
        return " and ".join(results)
    raise AssertionError(f"no scripted answer for {system[:80]!r}")


def team_model() -> FunctionModel:
    return FunctionModel(team_answer, name="team-script")


async def tool_answer(request: ModelRequest) -> str | ToolCall:
    """First turn: call `record` with the task's id; second turn: answer with the tool's result. Slow enough
    (50 ms a call) that a batch is still running when the test kills a replica."""
    await asyncio.sleep(0.05)
    seen = re.search(r"recorded-\w+", request.messages[-1].content)
    if request.messages[-1].kind == "observation" and seen:
        return f"done {seen.group(0)}"
    task_id = re.search(r"task (\w+)", request.messages[-1].content)
    assert task_id is not None, request.messages[-1].content
    return ToolCall(name="record", arguments={"task_id": task_id.group(1)})


def tool_model() -> FunctionModel:
    return FunctionModel(tool_answer, name="tool-script")


async def write_memories(owner: Any, worker: int, n: int) -> list[str]:
    """One worker's writes through the memory owner: n facts and one recorded run."""
    from agentcore.memory.principles import Trajectory
    from agentcore.scale.memory_owner import OwnedBank, OwnedStore

    store, ids = OwnedStore(owner), []
    for i in range(n):
        ids.append(
            await store.add(f"fact w{worker}i{i} from worker {worker}", kind="fact", metadata={"worker": worker})
        )
    trajectory = Trajectory(id=f"run-{worker}", task=f"task of worker {worker}", answer="ok", outcome=True)
    await asyncio.to_thread(OwnedBank(owner).record, trajectory)
    return ids


def write_memories_sync(owner: Any, worker: int, n: int) -> list[str]:
    return asyncio.run(write_memories(owner, worker, n))


def boom(**values: Any) -> str:
    """A function node that fails: its error must come back to the engine as locally."""
    raise ValueError(f"no luck with {sorted(values)}")


def adder_agent() -> Any:
    """`agentcore batch run --agent ray_scripts:adder_agent`: adds the two numbers of its task."""
    from agentcore.agent import Agent

    def add(request: ModelRequest) -> str:
        a, b = map(int, re.findall(r"\d+", request.messages[-1].content)[:2])
        return str(a + b)

    return Agent(FunctionModel(add, name="adder"), tools=[], max_steps=2)


def lesson_answer(request: ModelRequest) -> str:
    """Reflection's requests: distil a lesson from a run, or say whether two lessons are the same."""
    assert request.output_schema is not None
    if "same" in request.output_schema.get("properties", {}):
        return json.dumps({"same": True})
    return json.dumps({"when": "a worker records a fact", "do": "record it once", "triplets": []})


def lesson_model() -> FunctionModel:
    return FunctionModel(lesson_answer, name="lessons")
