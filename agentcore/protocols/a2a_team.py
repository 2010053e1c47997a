"""A team (a team file) published over A2A: `agentcore a2a serve --team FILE`, or `build_team_app(team, url=...)`.

The card has one skill for the team and one per node (its description, role or kind; tagged `node` and the
node's kind). Each A2A task is one team run on the message's text: every node that ends is streamed as a
`working` status message, the team's answer becomes the `answer` artifact, and a run that ends failed, timed
out, incomplete or over its limits fails the task with the reason. Cancelling the task cancels the run: its
running nodes stop, remote A2A calls are cancelled at the peer, and its MCP connections close.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCard, AgentSkill

from agentcore.protocols.a2a_server import MAX_BODY, TOKEN_ENV, Note, TaskFailed, asgi_app, make_card, run_task
from agentcore.protocols.http_guard import check_exposure

if TYPE_CHECKING:
    from agentcore.teams.engine import Team
    from agentcore.teams.result import TeamEvent


class TeamExecutor(AgentExecutor):
    """Runs the team for each A2A task."""

    def __init__(self, team: Team, timeout: float | None = None) -> None:
        self.team, self.timeout = team, timeout

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        await run_task(context, event_queue, self._run)

    async def _run(self, task: str, note: Note) -> str:
        def on_event(event: TeamEvent) -> None:
            if event.kind == "node_end":
                error = event.data.get("error")
                note(f"node {event.node} {event.data.get('status')}" + (f": {error}" if error else ""))

        result = await self.team.run(task, on_event=on_event, timeout=self.timeout)
        if not result.ok:
            raise TaskFailed(f"team {self.team.name} {result.status}: {result.error}")
        output = result.output
        dump = getattr(output, "model_dump_json", None)
        return str(dump()) if callable(dump) else output if isinstance(output, str) else _json(output)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # The SDK has already cancelled execute()'s asyncio task, and with it the team run; record the state.
        await TaskUpdater(event_queue, context.task_id or "", context.context_id or "").cancel()


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def team_card(team: Team, url: str, token: bool) -> AgentCard:
    """The team as an agent: one skill for the whole team, then one per node, in file order."""
    spec = team.spec
    about = " ".join(spec.description.split())[:300] or f"The {spec.team} team: give it a task in plain words."
    skills = [AgentSkill(id=spec.team, name=spec.team, description=about, tags=["team"])]
    for name, node in spec.nodes.items():
        text = node.description or getattr(node, "role", "") or getattr(node, "instructions", "") or node.kind
        skills.append(
            AgentSkill(id=name, name=name, description=" ".join(text.split())[:300], tags=["node", node.kind])
        )
    return make_card(spec.team, about, skills, url, token)


async def build_team_app(
    team: Team,
    *,
    url: str,
    host: str = "127.0.0.1",
    token: str | None = None,
    max_body: int = MAX_BODY,
    timeout: float | None = None,
    v03_compat: bool = False,
) -> Any:
    """The ASGI app publishing `team`: card at /.well-known/agent-card.json, JSON-RPC at /, guarded like an
    agent's (loopback by default, a bearer token when exposed, a body limit)."""
    check_exposure(host, token, TOKEN_ENV)
    return asgi_app(team_card(team, url, token is not None), TeamExecutor(team, timeout), token, max_body, v03_compat)
