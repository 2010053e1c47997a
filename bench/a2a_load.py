"""A2A load on loopback: N concurrent tasks from the official a2a-sdk client against `agentcore a2a serve`'s app
with a scripted model (`--team`: a two-node team file, published as `a2a serve --team` does). Prints p50/p99
latency and checks that no task was lost or duplicated (every answer arrives once, every task id is distinct and
completed in the server's store). Numbers, never pass/fail.

    .venv/bin/python -m bench.a2a_load [--tasks 200] [--stream] [--team]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import time
import uuid
from typing import Any

import httpx
import uvicorn
from a2a.client import ClientConfig, create_client
from a2a.types import GetTaskRequest, Message, Part, Role, SendMessageRequest, TaskState

from agentcore import Agent
from agentcore.protocols.a2a_server import build_app
from agentcore.testing import FunctionModel

TEAM = """
team: echo
output: answer
state: {task: str, draft: str, answer: str}
nodes:
  echo: {prompt: "{task}", reads: [task], writes: [draft]}
  copy: {kind: function, function: passthrough, reads: [draft], writes: [answer]}
topology: {entry: echo, exit: copy, edges: [{from: echo, to: copy}]}
"""


async def echo(request: Any) -> str:
    await asyncio.sleep(0.01)  # a model call's await, so the tasks really interleave
    return "echo " + request.messages[-1].content.rsplit("#", 1)[-1].split()[0]


async def one(client: Any, index: int) -> tuple[float, str, str]:
    message = Message(role=Role.ROLE_USER, message_id=uuid.uuid4().hex, parts=[Part(text=f"echo #{index} please")])
    started = time.perf_counter()
    answer, task_id = "", ""
    async for event in client.send_message(SendMessageRequest(message=message)):
        if event.HasField("task"):
            task_id = event.task.id
            answer = "".join(p.text for a in event.task.artifacts for p in a.parts) or answer
        elif event.HasField("artifact_update"):
            answer = "".join(p.text for p in event.artifact_update.artifact.parts)
    return time.perf_counter() - started, task_id, answer


async def published(url: str, team: bool) -> Any:
    if not team:
        return await build_app(Agent(FunctionModel(echo), name="echo"), url=url)
    from agentcore.protocols.a2a_team import build_team_app
    from agentcore.teams import Registry, Team

    return await build_team_app(
        Team.from_text(TEAM, registry=Registry(models={"default": FunctionModel(echo)})), url=url
    )


async def main(tasks: int, stream: bool, team: bool = False) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    app = await published(url, team)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    limits = httpx.Limits(max_connections=tasks, max_keepalive_connections=tasks)
    async with httpx.AsyncClient(timeout=300, limits=limits) as http:
        client = await create_client(url, ClientConfig(httpx_client=http, streaming=stream))
        wall = time.perf_counter()
        results = await asyncio.gather(*(one(client, i) for i in range(tasks)))
        wall = time.perf_counter() - wall
        states = await asyncio.gather(*(client.get_task(GetTaskRequest(id=tid)) for _, tid, _ in results))
    server.should_exit = True
    await serving
    latencies = sorted(seconds * 1000 for seconds, _, _ in results)
    answers = [answer for _, _, answer in results]
    ids = {tid for _, tid, _ in results}
    completed = sum(TaskState.Name(t.status.state) == "TASK_STATE_COMPLETED" for t in states)
    lost = len(set(f"echo {i}" for i in range(tasks)) - set(answers))
    what = "a team of 2 nodes" if team else "an agent"
    print(f"a2a load: {tasks} concurrent tasks to {what} ({'stream' if stream else 'send'}), wall {wall:.2f}s")
    print(f"  latency p50 {statistics.median(latencies):.0f} ms, p99 {latencies[int(0.99 * (tasks - 1))]:.0f} ms,"
          f" max {latencies[-1]:.0f} ms")  # fmt: skip
    print(f"  lost {lost}, duplicated answers {len(answers) - len(set(answers))}, distinct task ids {len(ids)},"
          f" completed in the store {completed}")  # fmt: skip
    flags = (" --stream" if stream else "") + (" --team" if team else "")
    print(f"  reproduce: .venv/bin/python -m bench.a2a_load --tasks {tasks}{flags}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--stream", action="store_true")
    parser.add_argument("--team", action="store_true", help="publish a two-node team file instead of an agent")
    options = parser.parse_args()
    asyncio.run(main(options.tasks, options.stream, options.team))
