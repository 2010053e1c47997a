"""`agentcore a2a serve`: an Agent published as an A2A server with the official `a2a-sdk` (protocol 1.0, JSON-RPC
binding): an agent card whose skills are the agent's tools, message send and stream, task get and cancel, and
the task states submitted -> working -> completed | failed | canceled.

Each A2A task is one `agent.run`; its steps stream out as `working` status messages, its answer as an artifact.
Cancelling a task cancels the run. Over HTTP: loopback by default, a bearer token required elsewhere (the agent
card stays public, as the spec wants clients to read it first), request bodies limited.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)

from agentcore.events import Event, ToolCalled
from agentcore.protocols.http_guard import BearerAuth, BodyLimit, check_exposure

if TYPE_CHECKING:
    from agentcore.agent import Agent

CARD_PATH = "/.well-known/agent-card.json"
MAX_BODY = 1_000_000
TOKEN_ENV = "AGENTCORE_A2A_TOKEN"


class TaskFailed(Exception):
    """The run ended without an answer; the message is the failed task's reason."""


Note = Callable[[str], None]


async def run_task(
    context: RequestContext, event_queue: EventQueue, run: Callable[[str, Note], Awaitable[str]]
) -> None:
    """One A2A task: `run(task_text, note)` gives the answer; each `note` is streamed as a working-status
    message, the answer becomes the `answer` artifact, an exception fails the task with its reason."""
    if context.current_task is None and context.message is not None:
        await event_queue.enqueue_event(new_task_from_user_message(context.message))
    updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
    await updater.start_work()
    task = context.get_user_input().strip()
    if not task:
        await updater.reject(updater.new_agent_message([new_text_part("the message has no text task")]))
        return
    progress: list[asyncio.Future[None]] = []

    def note(text: str) -> None:
        message = updater.new_agent_message([new_text_part(text)])
        progress.append(asyncio.ensure_future(updater.start_work(message)))

    try:
        answer = await run(task, note)
    except Exception as exc:  # a failed run fails the task; the server carries on
        await asyncio.gather(*progress, return_exceptions=True)
        reason = str(exc) if isinstance(exc, TaskFailed) else f"{type(exc).__name__}: {exc}"
        await updater.failed(updater.new_agent_message([new_text_part(reason)]))
        return
    await asyncio.gather(*progress, return_exceptions=True)
    await updater.add_artifact([new_text_part(answer)], name="answer")
    await updater.complete()


class AgentExecutorAdapter(AgentExecutor):
    """Runs an agentcore Agent for each A2A task, publishing its progress on the task's event queue."""

    def __init__(self, agent: Agent[Any, Any], deps: Any = None, timeout: float | None = None) -> None:
        self.agent, self.deps, self.timeout = agent, deps, timeout

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        await run_task(context, event_queue, self._run)

    async def _run(self, task: str, note: Note) -> str:
        def on_event(event: Event) -> None:  # a step's tool call, streamed as a working-status message
            if isinstance(event, ToolCalled):
                note(f"called {event.call.name}: {event.result[:200]}")

        result = await self.agent.run(task, deps=self.deps, timeout=self.timeout, on_event=on_event)
        if not result.ok:
            raise TaskFailed(f"{result.status}: {result.error}")
        return _text(result.output)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # The SDK has already cancelled execute()'s asyncio task, and with it the run; record the state.
        updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        await updater.cancel()


def _text(output: Any) -> str:
    dump = getattr(output, "model_dump_json", None)
    return str(dump()) if callable(dump) else str(output)


def agent_card(agent: Agent[Any, Any], skills: list[tuple[str, str]], url: str, token: bool) -> AgentCard:
    """The card: the agent, one skill per tool, JSON-RPC at `url`, a bearer scheme when a token guards it."""
    own = AgentSkill(id=agent.name, name=agent.name, description=_about(agent), tags=["agent"])
    tool_skills = [AgentSkill(id=name, name=name, description=about or name, tags=["tool"]) for name, about in skills]
    return make_card(agent.name, _about(agent), [own, *tool_skills], url, token)


def make_card(name: str, description: str, skills: list[AgentSkill], url: str, token: bool) -> AgentCard:
    card = AgentCard(
        name=name,
        description=description,
        version="0.1.0",
        supported_interfaces=[AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=skills,
    )
    if token:
        card.security_schemes["bearer"].CopyFrom(
            SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="Bearer"))
        )
        card.security_requirements.append(SecurityRequirement(schemes={"bearer": StringList()}))
    return card


def _about(agent: Agent[Any, Any]) -> str:
    text = " ".join(agent.instructions_text.split())[:300]
    return text or f"The {agent.name} agent: give it a task in plain words."


async def build_app(
    agent: Agent[Any, Any],
    *,
    url: str,
    host: str = "127.0.0.1",
    token: str | None = None,
    max_body: int = MAX_BODY,
    deps: Any = None,
    timeout: float | None = None,
    v03_compat: bool = False,
) -> Any:
    """The ASGI app: agent card at CARD_PATH, JSON-RPC at /, guarded by token and body limit. `v03_compat` also
    answers protocol 0.3 method names (`message/send`...), for older clients and the A2A TCK."""
    from agentcore.tools.toolset import toolset_scope

    check_exposure(host, token, TOKEN_ENV)
    async with toolset_scope(agent.current_toolset()):  # an MCP toolset lists its tools once connected
        skills = [(spec.name, spec.description) for spec in await agent.current_toolset().list_tools()]
    card = agent_card(agent, skills, url, token is not None)
    return asgi_app(card, AgentExecutorAdapter(agent, deps, timeout), token, max_body, v03_compat)


def asgi_app(card: AgentCard, executor: AgentExecutor, token: str | None, max_body: int, v03_compat: bool) -> Any:
    """The SDK's request handler and routes for `executor`, behind the body limit and the bearer token."""
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
    from a2a.server.tasks import InMemoryTaskStore
    from starlette.applications import Starlette

    handler = DefaultRequestHandler(executor, InMemoryTaskStore(), card)
    app: Any = Starlette(
        routes=[
            *create_agent_card_routes(card, card_url=CARD_PATH),
            *create_jsonrpc_routes(handler, "/", enable_v0_3_compat=v03_compat),
        ]
    )
    app = BodyLimit(app, max_body)
    return BearerAuth(app, token, public=[CARD_PATH]) if token else app
