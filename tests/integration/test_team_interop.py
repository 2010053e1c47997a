"""Teams across MCP and A2A, each against a real peer on this machine:
- `mcp:` servers in team files: the reference time server from PyPI over stdio, our own MCP server over
  streamable HTTP with a bearer token from the environment; connected when a run starts, closed when it ends;
- `kind: a2a` nodes: a server built with the a2a-sdk alone (its own AgentExecutor), with timeouts and
  cancellation that reach the peer;
- a team published over A2A (`build_team_app`, `agentcore a2a serve --team`), driven by the a2a-sdk client:
  card skills from the nodes, send, stream, get, cancel; and a team whose a2a node calls a served team.
Models are scripted: the peers are what is under test."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
import uvicorn
from a2a.client import ClientConfig, create_client
from a2a.types import CancelTaskRequest, GetTaskRequest, SendMessageConfiguration, TaskState

from agentcore.messages import ModelRequest
from agentcore.protocols.a2a_team import build_team_app
from agentcore.protocols.mcp_server import build_server, http_app
from agentcore.teams import Registry, Team, TeamEvent
from agentcore.testing import FunctionModel, ScriptedModel, call
from agentcore.tools.builtin import builtin_toolset
from tests.integration.test_a2a_interop import Shouter, sdk_app, serving, stop, user_message

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "teams" / "mcp_time.yaml"


def time_servers() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if "mcp-server-time" in " ".join(p.cmdline())]


def clock(request: ModelRequest) -> Any:
    """A scripted time keeper: asks the time server for Tokyo's time, then answers with it."""
    last = str(request.messages[-1].content)
    if not last.startswith("Result of get_current_time:"):
        return call("get_current_time", timezone="Asia/Tokyo")
    now = json.JSONDecoder().raw_decode(last.partition("\n")[2])[0]
    return f"In {now['timezone']} it is {now['datetime']}."


def one_node(node: str, extra: str = "", writes: str = "answer") -> str:
    return textwrap.dedent(
        """\
        team: t
        output: answer
        {extra}
        state:
          task: str
          answer: str
        nodes:
          n:
        {node}
            reads: [task]
            writes: [{writes}]
        topology:
          entry: n
          exit: n
        """
    ).format(extra=extra, node=textwrap.indent(node, "    "), writes=writes)


def a2a_node(url: str, extra: str = "", prompt: str = "{task}") -> str:
    return one_node(f'kind: a2a\nurl: {url}\nprompt: "{prompt}"\n{extra}')


# -- MCP servers in team files ------------------------------------------------------------------------------


async def test_the_example_team_uses_the_time_server_and_stops_it_at_the_end() -> None:
    seen: list[int] = []
    offered: list[list[str]] = []

    def watched(request: ModelRequest) -> Any:
        seen.append(len(time_servers()))
        offered.append([tool.name for tool in request.tools])
        return clock(request)

    team = Team.load(EXAMPLE, registry=Registry(models={"default": FunctionModel(watched)}))
    results = await asyncio.gather(*(team.run("What time is it in Tokyo?") for _ in range(3)))
    for result in results:
        assert result.ok, result.error
        assert result.output.startswith("In Asia/Tokyo it is 20") and result.output.endswith("+09:00.")
    assert offered[0] == ["get_current_time"]  # `tools:` in the file keeps only this one of its two
    assert seen and max(seen) == 1  # three concurrent runs share one server process
    assert time_servers() == []  # closed when the last run ended
    assert not team.env.remotes.mcp("time").inner.is_open  # type: ignore[attr-defined]


@pytest.fixture
async def mcp_url() -> AsyncIterator[str]:
    app = http_app(build_server(builtin_toolset(["calculator"])), token="mcp-secret")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}/mcp"
    server.should_exit = True
    await task


async def test_an_http_mcp_server_with_a_token_from_the_environment(
    mcp_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = one_node(
        'mcp: [calc]\nprompt: "{task}"\n',
        f"mcp:\n  calc: {{url: '{mcp_url}', token_env: CALC_TOKEN, prefix: remote_, timeout: 10}}",
    )
    model = ScriptedModel([call("remote_calculator", expression="6*7"), "It is 42."])
    team = Team.from_text(text, registry=Registry(models={"default": model}))
    monkeypatch.delenv("CALC_TOKEN", raising=False)
    missing = await team.run("six times seven")
    assert missing.status == "failed"
    assert missing.error == "mcp.calc: cannot connect: mcp.calc.token_env: the environment variable CALC_TOKEN" \
        " (the bearer token) is not set"  # fmt: skip
    monkeypatch.setenv("CALC_TOKEN", "wrong")
    team = Team.from_text(text, registry=Registry(models={"default": model}))
    refused = await team.run("six times seven")
    assert refused.status == "failed" and refused.error.startswith("mcp.calc: cannot connect:")  # type: ignore[union-attr]
    monkeypatch.setenv("CALC_TOKEN", "mcp-secret")
    team = Team.from_text(text, registry=Registry(models={"default": model}))
    result = await team.run("six times seven")
    assert result.ok and result.output == "It is 42."
    assert model.requests[0].tools[0].name == "remote_calculator"
    assert str(model.requests[1].messages[-1].content).startswith("Result of remote_calculator:\n42\n")


async def test_a_tool_node_calls_an_mcp_tool_with_typed_arguments() -> None:
    text = textwrap.dedent(
        """\
        team: convert
        output: when
        mcp:
          time: {command: mcp-server-time, args: [--local-timezone, UTC], timeout: 20}
        state:
          task: str
          when: dict
        nodes:
          convert:
            kind: tool
            mcp: time
            tool: convert_time
            arguments: {source_timezone: UTC, time: "{task}", target_timezone: Asia/Kolkata}
            reads: [task]
            writes: [when]
        topology: {entry: convert, exit: convert}
        """
    )
    team = Team.from_text(text)
    result = await team.run("12:00")
    assert result.ok, result.error
    assert result.output["target"]["datetime"].endswith("T17:30:00+05:30")  # structured content, typed as dict
    wrong = await team.run("25:99")
    assert wrong.status == "failed" and "MCPToolError" in (wrong.error or "")
    assert time_servers() == []


async def test_a_dead_mcp_server_or_a_missing_tool_fails_the_run_with_where() -> None:
    text = one_node("mcp: [gone]\n", "mcp:\n  gone: {command: /nonexistent/mcp-server, timeout: 5}")
    result = await Team.from_text(text, registry=Registry(models={"default": ScriptedModel([])})).run("hi")
    assert result.status == "failed" and result.error.startswith("mcp.gone: cannot connect:")  # type: ignore[union-attr]
    assert result.ledger == []  # no node ran
    text = one_node("mcp: [time]\n", "mcp:\n  time: {command: mcp-server-time, tools: [get_time], timeout: 20}")
    result = await Team.from_text(text, registry=Registry(models={"default": ScriptedModel([])})).run("hi")
    assert result.status == "failed"
    offered = "['convert_time', 'get_current_time']"
    assert result.error == f"mcp.time: cannot connect: the server has no tool 'get_time'; it has: {offered}"
    assert time_servers() == []


# -- a2a nodes ---------------------------------------------------------------------------------------------


@pytest.fixture
async def shouter() -> AsyncIterator[str]:
    server, task, url = await serving(sdk_app)
    yield url
    await stop(server, task)


async def test_an_a2a_node_asks_an_sdk_server_and_records_its_updates(shouter: str) -> None:
    team = Team.from_text(a2a_node(shouter, prompt="say {task}"))
    events: list[TeamEvent] = []
    result = await team.run("hello", on_event=events.append)
    assert result.ok and result.output == "SAY HELLO"
    assert result.ledger[0].detail == {"updates": ["shouting"]}
    blocking = await Team.from_text(a2a_node(shouter, "streaming: false\n", prompt="say {task}")).run("bye")
    assert blocking.ok and blocking.output == "SAY BYE"
    failed = await Team.from_text(a2a_node(shouter, "retries: 1\n")).run("fail")
    assert failed.status == "failed" and failed.ledger[0].attempts == 2
    assert "the remote task ended failed: cannot shout that" in (failed.error or "")


async def test_an_a2a_node_timeout_and_a_team_cancel_cancel_the_remote_task(shouter: str) -> None:
    before = Shouter.cancelled
    timed = await Team.from_text(a2a_node(shouter, "timeout: 1.0\n")).run("wait")
    assert timed.status == "failed" and "1.0s" in (timed.error or "")
    assert Shouter.cancelled == before + 1  # the peer was told to stop
    cancel = asyncio.Event()
    team = Team.from_text(a2a_node(shouter))

    def on_event(event: TeamEvent) -> None:
        if event.kind == "node_start":
            asyncio.get_running_loop().call_later(0.5, cancel.set)

    result = await team.run("wait", cancel=cancel, on_event=on_event)
    assert result.status == "cancelled"
    assert Shouter.cancelled == before + 2
    assert not team.env.remotes.a2a("n").is_open


async def test_an_unreachable_a2a_peer_fails_the_run_before_any_node() -> None:
    result = await Team.from_text(a2a_node("http://127.0.0.1:9/", "timeout: 5\n")).run("hi")
    assert result.status == "failed" and result.ledger == []
    assert (result.error or "").startswith("nodes.n: cannot connect: could not reach the A2A agent")


# -- a team published over A2A -------------------------------------------------------------------------------

SERVED = """\
team: desk
description: A front desk that drafts a reply and has it checked.
output: answer
state:
  task: str
  draft: str
  answer: str
nodes:
  writer:
    role: writer
    prompt: "{task}"
    reads: [task]
    writes: [draft]
  checker:
    kind: function
    function: check
    description: Checks the draft.
    reads: [draft]
    writes: [answer]
topology:
  entry: writer
  exit: checker
  edges:
    - {from: writer, to: checker}
"""


def desk(hang: asyncio.Event | None = None, stopped: list[str] | None = None) -> Team:
    async def check(draft: str) -> str:
        if draft == "hang" and hang is not None:
            hang.set()
            try:
                await asyncio.sleep(60)
            finally:
                (stopped if stopped is not None else []).append("checker")
        return f"checked: {draft}"

    def writer(request: ModelRequest) -> str:
        text = str(request.messages[-1].content).removeprefix("Task: ")
        return "hang" if "slow" in text else f"reply to {text}"

    registry = Registry(models={"default": FunctionModel(writer)}, functions={"check": check})
    return Team.from_text(SERVED, registry=registry)


async def test_the_sdk_client_runs_a_served_team_streams_gets_and_cancels() -> None:
    hang, stopped = asyncio.Event(), []
    server, task, url = await serving(lambda url: build_team_app(desk(hang, stopped), url=url, token="t0k"))
    try:
        async with httpx.AsyncClient(headers={"Authorization": "Bearer t0k"}, timeout=30) as http:
            client = await create_client(url, ClientConfig(httpx_client=http, streaming=True))
            card = client._card
            assert card.name == "desk" and card.description.startswith("A front desk")
            assert [(s.id, list(s.tags)) for s in card.skills] == [
                ("desk", ["team"]), ("writer", ["node", "agent"]), ("checker", ["node", "function"])
            ]  # fmt: skip
            events = [event async for event in client.send_message(user_message("hello"))]
            notes = [e.status_update.status.message.parts[0].text for e in events if e.HasField("status_update")
                     and e.status_update.status.HasField("message")]  # fmt: skip
            assert notes == ["node writer completed", "node checker completed"]
            stored = await client.get_task(GetTaskRequest(id=events[0].task.id))
            assert TaskState.Name(stored.status.state) == "TASK_STATE_COMPLETED"
            assert stored.artifacts[0].parts[0].text == "checked: reply to hello"
            blocking = await create_client(url, ClientConfig(httpx_client=http, streaming=False))
            request = user_message("be slow")
            request.configuration.CopyFrom(SendMessageConfiguration(return_immediately=True))
            [first] = [event async for event in blocking.send_message(request)]
            await asyncio.wait_for(hang.wait(), 10)
            cancelled = await blocking.cancel_task(CancelTaskRequest(id=first.task.id))
            assert TaskState.Name(cancelled.status.state) == "TASK_STATE_CANCELED"
            for _ in range(50):
                if stopped:
                    break
                await asyncio.sleep(0.1)
            assert stopped == ["checker"]  # the team's running node was really stopped
        async with httpx.AsyncClient(timeout=30) as http:
            assert (await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "GetTask"})).status_code == 401
    finally:
        await stop(server, task)


async def test_a_team_whose_a2a_node_calls_a_served_team() -> None:
    server, task, url = await serving(lambda url: build_team_app(desk(), url=url))
    try:
        outer = Team.from_text(a2a_node(url, prompt="front desk: {task}"))
        results = await asyncio.gather(*(outer.run(f"question {i}") for i in range(20)))
        assert sorted(str(r.output) for r in results) == sorted(
            f"checked: reply to front desk: question {i}" for i in range(20)
        )
        notes = ["node writer completed", "node checker completed"]
        assert all(r.ledger[0].detail["updates"] == notes for r in results)
    finally:
        await stop(server, task)


async def test_the_a2a_example_asks_the_mcp_example_served_over_a2a() -> None:
    """Three hops, each a real protocol: team file -> A2A -> served team file -> MCP stdio -> time server."""
    served = Team.load(EXAMPLE, registry=Registry(models={"default": FunctionModel(clock)}))
    server, task, url = await serving(lambda url: build_team_app(served, url=url))
    try:
        text = (ROOT / "examples" / "teams" / "a2a_peer.yaml").read_text()
        asker = Team.from_text(text.replace("http://127.0.0.1:9999/", url), "a2a_peer.yaml")
        result = await asker.run("What time is it in Tokyo?")
        assert result.ok, result.error
        assert result.output.startswith("In Asia/Tokyo it is 20") and result.output.endswith("+09:00.")
        assert result.ledger[0].detail == {"updates": ["node clock completed"]}
    finally:
        await stop(server, task)
    assert time_servers() == []


@pytest.mark.real_model
async def test_the_real_model_runs_the_mcp_example(qwen: Any) -> None:
    from agentcore.events import ToolCalled, add_sink, remove_sink

    calls: list[ToolCalled] = []
    sink = lambda event: calls.append(event) if isinstance(event, ToolCalled) else None  # noqa: E731
    team = Team.load(EXAMPLE, registry=Registry(models={"default": qwen}))
    add_sink(sink)
    try:
        result = await team.run("What is the current time in the Asia/Tokyo timezone? Use the tool.")
    finally:
        remove_sink(sink)
    assert result.ok, result.error
    assert calls and calls[0].call.name == "get_current_time" and not calls[0].error
    assert calls[0].call.arguments["timezone"] == "Asia/Tokyo" and "+09:00" in calls[0].result
    assert calls[0].run_id == result.ledger[0].run_id  # the agent node's run, a child of the team run
    assert time_servers() == []


async def test_the_cli_serves_a_team_file(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "agentcore.cli", "a2a", "serve", "--team", str(EXAMPLE), "--port", str(port)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        async with httpx.AsyncClient(timeout=5) as http:
            for _ in range(150):
                try:
                    card = (await http.get(f"http://127.0.0.1:{port}/.well-known/agent-card.json")).json()
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.2)
            else:
                raise AssertionError("the server did not start: " + (process.stderr.read() if process.stderr else ""))
        assert card["name"] == "mcp-time" and [s["id"] for s in card["skills"]] == ["mcp-time", "clock"]
    finally:
        process.terminate()
        process.wait(10)
    bad = tmp_path / "bad.yaml"
    bad.write_text(EXAMPLE.read_text().replace("mcp: [time]", "mcp: [clock]"))
    refused = subprocess.run([*command[:6], str(bad)], capture_output=True, text=True, check=False)
    assert refused.returncode != 0 and "bad.yaml:27: nodes.clock.mcp[0]: no MCP server named 'clock'" in refused.stderr
