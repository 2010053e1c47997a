"""A2A interop with the official a2a-sdk, both directions, over HTTP on loopback:
- the SDK's own client against our server (`agentcore a2a serve`'s app): card, stream, send, get, cancel, states;
- our client (A2AAgentToolset) against a server built with the SDK alone (its own AgentExecutor);
- bad input: missing or wrong token, oversize body, malformed JSON-RPC, unknown method;
- 200 concurrent tasks against our server with a scripted model: none lost, none duplicated."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
import uvicorn
from a2a.client import ClientConfig, create_client
from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    TaskState,
)
from starlette.applications import Starlette

from agentcore import Agent
from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.protocols.a2a_client import A2AAgentToolset, A2AError
from agentcore.protocols.a2a_server import build_app
from agentcore.testing import FunctionModel, ScriptedModel, call
from agentcore.tools.builtin import builtin_toolset

TOKEN = "a2a-token"
CTX: RunContext[Any] = RunContext(deps=None, run_id="r", task="t")


async def serving(make_app: Callable[[str], Awaitable[Any]]) -> tuple[uvicorn.Server, asyncio.Task[None], str]:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    server = uvicorn.Server(uvicorn.Config(await make_app(url), host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    return server, task, url


async def stop(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    server.should_exit = True
    await task


def user_message(text: str) -> SendMessageRequest:
    message = Message(role=Role.ROLE_USER, message_id=uuid.uuid4().hex, parts=[Part(text=text)])
    return SendMessageRequest(message=message)


# -- the SDK's client against our server ------------------------------------------------------------------------


@pytest.fixture
async def ours() -> AsyncIterator[tuple[str, ScriptedModel]]:
    tools = builtin_toolset(["calculator"])
    model = ScriptedModel([call("calculator", expression="6*7"), "It is 42.", "plain answer"])
    agent = Agent(model, tools=tools, name="math", instructions="Answers arithmetic questions.")
    server, task, url = await serving(lambda url: build_app(agent, url=url, token=TOKEN, max_body=4000))
    yield url, model
    await stop(server, task)


async def test_the_sdk_client_streams_a_task_from_our_server(ours: tuple[str, ScriptedModel]) -> None:
    url, _ = ours
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as http:
        client = await create_client(url, ClientConfig(httpx_client=http, streaming=True))
        card = client._card
        assert card.name == "math" and card.capabilities.streaming
        assert [skill.id for skill in card.skills] == ["math", "calculator"]
        assert "bearer" in card.security_schemes
        events = [event async for event in client.send_message(user_message("what is 6*7?"))]
        kinds = [event.WhichOneof("payload") for event in events]
        assert kinds[0] == "task" and "artifact_update" in kinds
        states = [TaskState.Name(e.status_update.status.state) for e in events if e.HasField("status_update")]
        assert states[0] == "TASK_STATE_WORKING" and states[-1] == "TASK_STATE_COMPLETED"
        progress = [e.status_update.status.message.parts[0].text for e in events if e.HasField("status_update")
                    and e.status_update.status.HasField("message")]  # fmt: skip
        assert progress == ["called calculator: 42"]
        task_id = events[0].task.id
        stored = await client.get_task(GetTaskRequest(id=task_id))
        assert TaskState.Name(stored.status.state) == "TASK_STATE_COMPLETED"
        assert stored.artifacts[0].parts[0].text == "It is 42."
        # non-streaming send of the next task
        blocking = await create_client(url, ClientConfig(httpx_client=http, streaming=False))
        [reply] = [event async for event in blocking.send_message(user_message("say something"))]
        assert reply.task.artifacts[0].parts[0].text == "plain answer"


async def test_the_sdk_client_cancels_a_task_on_our_server() -> None:
    started = asyncio.Event()

    async def slow(_: Any) -> str:
        started.set()
        await asyncio.sleep(30)
        return "never"

    agent = Agent(FunctionModel(slow), name="slow")
    server, task, url = await serving(lambda url: build_app(agent, url=url))
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            client = await create_client(url, ClientConfig(httpx_client=http, streaming=False))
            request = user_message("take your time")
            request.configuration.CopyFrom(SendMessageConfiguration(return_immediately=True))
            [first] = [event async for event in client.send_message(request)]
            await asyncio.wait_for(started.wait(), 10)
            cancelled = await client.cancel_task(CancelTaskRequest(id=first.task.id))
            assert TaskState.Name(cancelled.status.state) == "TASK_STATE_CANCELED"
            stored = await client.get_task(GetTaskRequest(id=first.task.id))
            assert TaskState.Name(stored.status.state) == "TASK_STATE_CANCELED"
    finally:
        await stop(server, task)


async def test_bad_requests_get_json_rpc_errors_and_the_server_carries_on(ours: tuple[str, ScriptedModel]) -> None:
    url, _ = ours
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json", "A2A-Version": "1.0"}
    get = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "nope"}}
    async with httpx.AsyncClient(timeout=30) as http:
        assert (await http.get(url + ".well-known/agent-card.json")).status_code == 200  # the card is public
        missing = await http.post(url, json=get)
        assert missing.status_code == 401 and missing.json()["error"]["message"] == "missing bearer token"
        wrong = await http.post(url, json=get, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["message"] == "invalid bearer token"
        huge = await http.post(url, content=b"{" + b" " * 5000 + b"}", headers=auth)
        assert huge.status_code == 413 and huge.json()["error"]["code"] == -32600
        broken = await http.post(url, content=b'{"jsonrpc": "2.0", "id": 1, "meth', headers=auth)
        assert broken.json()["error"]["code"] == -32700
        unknown = await http.post(url, json={**get, "method": "tasks/explode"}, headers=auth)
        assert unknown.json()["error"]["code"] == -32601
        absent = await http.post(url, json=get, headers=auth)
        assert "error" in absent.json()  # task not found: an error answer, not a crash
        assert (await http.get(url + ".well-known/agent-card.json")).status_code == 200


def test_exposing_our_server_without_a_token_is_refused() -> None:
    agent = Agent(ScriptedModel([]), name="a")
    with pytest.raises(UserError, match="bearer token"):
        asyncio.run(build_app(agent, url="http://0.0.0.0:1/", host="0.0.0.0"))


async def test_200_concurrent_tasks_none_lost_or_duplicated() -> None:
    async def echo(request: Any) -> str:
        await asyncio.sleep(0.01)
        return "echo " + request.messages[-1].content.rsplit("#", 1)[-1].split()[0]

    agent = Agent(FunctionModel(echo), name="echo")
    server, task, url = await serving(lambda url: build_app(agent, url=url))
    try:
        async with A2AAgentToolset(url, timeout=120) as remote:
            answers = await asyncio.gather(*(remote.ask(f"echo #{i} please") for i in range(200)))
        assert sorted(answers) == sorted(f"echo {i}" for i in range(200))
    finally:
        await stop(server, task)


# -- our client against a server built with the SDK alone --------------------------------------------------------


class Shouter(AgentExecutor):
    """An A2A agent written with the SDK only: upper-cases the text; 'fail' fails; 'wait' never ends."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        if context.current_task is None and context.message is not None:
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
        updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        text = context.get_user_input()
        await updater.start_work(updater.new_agent_message([new_text_part("shouting")]))
        if text == "fail":
            await updater.failed(updater.new_agent_message([new_text_part("cannot shout that")]))
            return
        if text == "wait":
            await asyncio.sleep(60)
        await updater.add_artifact([new_text_part(text.upper())])
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        Shouter.cancelled += 1
        await TaskUpdater(event_queue, context.task_id or "", context.context_id or "").cancel()

    cancelled = 0


async def sdk_app(url: str) -> Any:
    card = AgentCard(
        name="Shouter Bot",
        description="Repeats your text in capitals.",
        version="1.0",
        supported_interfaces=[AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
    )
    handler = DefaultRequestHandler(Shouter(), InMemoryTaskStore(), card)
    return Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/")])


async def test_our_client_against_an_sdk_server_as_an_agents_tool() -> None:
    server, task, url = await serving(sdk_app)
    updates: list[str] = []
    try:
        remote = A2AAgentToolset(url, timeout=20, on_update=updates.append)
        model = ScriptedModel([call("Shouter_Bot", task="hello there"), call("Shouter_Bot", task="fail"), "done"])
        result = await Agent(model, tools=[remote]).run("shout hello there")
        steps = [(s.call.name, s.result, s.tool_error) for s in result.steps if s.call is not None]
        assert steps == [
            ("Shouter_Bot", "HELLO THERE", False),
            ("Shouter_Bot", "A2AError: the remote task ended failed: cannot shout that", True),
        ]
        assert "shouting" in updates
        assert model.requests[0].tools[0].description.startswith("Ask the remote agent 'Shouter Bot'.")
        assert not remote.is_open
    finally:
        await stop(server, task)


async def test_our_client_times_out_and_cancels_the_remote_task() -> None:
    server, task, url = await serving(sdk_app)
    try:
        async with A2AAgentToolset(url, timeout=1.0) as remote:
            before = Shouter.cancelled
            with pytest.raises(A2AError, match=r"did not finish within 1\.0s"):
                await remote.call_tool("Shouter_Bot", {"task": "wait"}, CTX)
            assert Shouter.cancelled == before + 1  # the peer was told to stop
    finally:
        await stop(server, task)


async def test_an_unreachable_peer_is_a_clear_error() -> None:
    with pytest.raises(A2AError, match="could not reach"):
        async with A2AAgentToolset("http://127.0.0.1:9/", timeout=5):
            pass


async def test_the_cli_publishes_an_agent_card_on_loopback() -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "agentcore.cli", "a2a", "serve", "--agent", "helper", "--port", str(port)]
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
        assert card["name"] == "helper" and [s["id"] for s in card["skills"]] == ["helper", "calculator"]
        assert card["supportedInterfaces"][0]["url"] == f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait(10)
    refused = subprocess.run(
        [*command[:5], "--host", "0.0.0.0"], capture_output=True, text=True, check=False, env=without_token()
    )
    assert refused.returncode == 1 and "bearer token" in refused.stderr


def without_token() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if key != "AGENTCORE_A2A_TOKEN"}
