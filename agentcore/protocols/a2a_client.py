"""A remote A2A agent as a tool: `A2AAgentToolset(url)` offers one tool, named after the agent's card, whose
`task` argument is sent as an A2A message; the answer is the task's artifacts (or the agent's reply message).

    remote = A2AAgentToolset("http://127.0.0.1:9999/", token=os.environ["PEER_TOKEN"])
    agent = Agent(model, tools=[remote])          # the run connects it (reads the card) and closes it

Every call has a timeout; a call that times out or whose run is cancelled cancels the remote task too
(`tasks/cancel`), so nothing keeps running on the peer. Streaming is used when the card allows it, and each
status message the peer streams is passed to `on_update`.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from agentcore.context import RunContext
from agentcore.errors import AgentcoreError, UserError
from agentcore.messages import ToolSpec
from agentcore.tools.toolset import ToolsetOps

TASK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"task": {"type": "string", "description": "What the remote agent should do, in plain words."}},
    "required": ["task"],
}


class A2AError(AgentcoreError):
    """The remote A2A agent could not be reached, refused the task, failed it, or did not finish in time."""


class A2AAgentToolset(ToolsetOps):
    """One remote A2A agent, offered as one tool."""

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        name: str | None = None,
        timeout: float = 120.0,
        streaming: bool = True,
        on_update: Callable[[str], None] | None = None,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise UserError(f"an A2A agent URL must start with http:// or https://, got {url!r}")
        if not timeout > 0:
            raise UserError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.url, self.token, self.timeout, self.streaming, self.on_update = url, token, timeout, streaming, on_update
        self.name = name
        self.card: Any = None
        self._client: Any = None
        self._http: Any = None

    @property
    def is_open(self) -> bool:
        return self._client is not None

    async def __aenter__(self) -> A2AAgentToolset:
        import httpx
        from a2a.client import ClientConfig, create_client

        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        self._http = httpx.AsyncClient(headers=headers, timeout=self.timeout)
        try:
            config = ClientConfig(httpx_client=self._http, streaming=self.streaming)
            self._client = await asyncio.wait_for(create_client(self.url, config), self.timeout)
            self.card = self._client._card  # the resolved card: its name and skills describe the tool
        except Exception as exc:
            await self._http.aclose()
            self._http = None
            raise A2AError(f"could not reach the A2A agent at {self.url}: {type(exc).__name__}: {exc}") from exc
        return self

    async def __aexit__(self, *exc: object) -> None:
        client, http, self._client, self._http = self._client, self._http, None, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close()
        if http is not None:
            await http.aclose()

    def tool_name(self) -> str:
        if self.name:
            return self.name
        raw = self.card.name if self.card is not None else "remote_agent"
        return re.sub(r"[^A-Za-z0-9_]+", "_", raw).strip("_") or "remote_agent"

    async def list_tools(self) -> Sequence[ToolSpec]:
        self._require()
        skills = "; ".join(f"{s.name}: {s.description}" for s in self.card.skills if "tool" in s.tags)
        about = self.card.description + (f" It can use: {skills}" if skills else "")
        return [ToolSpec(self.tool_name(), f"Ask the remote agent {self.card.name!r}. {about}"[:600], TASK_SCHEMA)]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        if name != self.tool_name():
            raise UserError(f"no tool named {name!r} (this toolset offers {self.tool_name()!r})")
        task = arguments.get("task")
        if not isinstance(task, str) or not task.strip():
            raise UserError("the remote agent's tool needs a non-empty 'task' string")
        return await self.ask(task)

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return None, 1  # ask() enforces the timeout itself, so that it can cancel the remote task first

    async def ask(self, task: str, on_update: Callable[[str], None] | None = None) -> str:
        """Send `task`, wait (at most `timeout`) for the remote task to end, and return its answer text. Status
        messages go to `on_update` (default: the toolset's)."""
        self._require()
        state = _TaskState()
        try:
            await asyncio.wait_for(self._send(task, state, on_update or self.on_update), self.timeout)
        except TimeoutError:
            await self._cancel_remote(state.task_id)
            raise A2AError(f"the A2A agent at {self.url} did not finish within {self.timeout}s") from None
        except asyncio.CancelledError:
            await self._cancel_remote(state.task_id)
            raise
        return state.answer()

    async def _send(self, task: str, state: _TaskState, on_update: Callable[[str], None] | None) -> None:
        from a2a.types import Message, Part, Role, SendMessageRequest

        message = Message(role=Role.ROLE_USER, message_id=uuid.uuid4().hex, parts=[Part(text=task)])
        try:
            async for event in self._client.send_message(SendMessageRequest(message=message)):
                state.take(event, on_update)
        except A2AError:
            raise
        except Exception as exc:
            raise A2AError(f"the A2A agent at {self.url} failed: {type(exc).__name__}: {exc}") from exc

    async def _cancel_remote(self, task_id: str | None) -> None:
        if task_id is None:
            return
        from a2a.types import CancelTaskRequest

        with contextlib.suppress(Exception):  # best effort: the peer may have finished meanwhile
            await asyncio.wait_for(asyncio.shield(self._client.cancel_task(CancelTaskRequest(id=task_id))), 5.0)

    def _require(self) -> None:
        if self._client is None:
            raise UserError(f"A2A toolset {self.url} is not connected: `async with toolset:`, or give it to an Agent")


class _TaskState:
    """What the event stream said so far: the task id, its state, artifacts and the last message."""

    def __init__(self) -> None:
        self.task_id: str | None = None
        self.state = "submitted"
        self.artifacts: list[str] = []
        self.reply: str | None = None
        self.status_text = ""

    def take(self, event: Any, on_update: Callable[[str], None] | None) -> None:
        kind = event.WhichOneof("payload")
        if kind == "message":
            self.reply, self.state = _text(event.message.parts), "completed"
        elif kind == "task":
            self._task(event.task)
        elif kind == "status_update":
            self.task_id = event.status_update.task_id
            self._status(event.status_update.status, on_update)
        elif kind == "artifact_update":
            self.artifacts.append(_text(event.artifact_update.artifact.parts))

    def _task(self, task: Any) -> None:
        self.task_id = task.id
        self._status(task.status, None)
        if task.artifacts:
            self.artifacts = [_text(artifact.parts) for artifact in task.artifacts]

    def _status(self, status: Any, on_update: Callable[[str], None] | None) -> None:
        from a2a.types import TaskState

        self.state = TaskState.Name(status.state).removeprefix("TASK_STATE_").lower()
        self.status_text = _text(status.message.parts) if status.HasField("message") else ""
        if on_update is not None and self.status_text:
            on_update(self.status_text)

    def answer(self) -> str:
        if self.state in ("failed", "rejected", "canceled"):
            raise A2AError(f"the remote task ended {self.state}: {self.status_text or 'no reason given'}")
        if self.state in ("input_required", "auth_required"):
            raise A2AError(f"the remote agent needs {self.state.replace('_', ' ')}: {self.status_text}")
        if self.artifacts:
            return "\n".join(self.artifacts)
        if self.reply is not None:
            return self.reply
        raise A2AError(f"the remote task ended {self.state} without an answer")


def _text(parts: Any) -> str:
    texts = [part.text for part in parts if part.WhichOneof("content") == "text"]
    return "\n".join(texts)
