"""What each node kind does with the state keys it reads: an agent run, a tool call, a function call, a join, a
subgraph run or a remote A2A agent. Every kind returns the keys it writes; agents run as child runs of the team
run (one trace)."""

from __future__ import annotations

import asyncio
import inspect
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from agentcore import context as run_context
from agentcore.errors import AgentRunError, UserError
from agentcore.messages import Usage
from agentcore.teams.executor import NodeOutput
from agentcore.teams.joins import JoinStats, aggregate
from agentcore.teams.registry import Registry, make_policy
from agentcore.teams.remote import Remotes, a2a_writes
from agentcore.teams.spec import A2ANode, AgentNode, FunctionNode, JoinNode, TeamNode, TeamSpec, ToolNode
from agentcore.teams.state import write_type

if TYPE_CHECKING:
    from agentcore.agent import Agent
    from agentcore.models.base import Model
    from agentcore.teams.result import TeamResult

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


class NodeFailed(RuntimeError):
    """A node could not produce its writes (the message says why); the engine may retry it. `usage`: what the
    failed attempt spent."""

    def __init__(self, message: str, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


def render(template: str, values: Mapping[str, Any]) -> str:
    def sub(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        return as_text(values.get(match.group(1), ""))

    return _PLACEHOLDER.sub(sub, template)


def as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(f"{i}. {as_text(v)}" for i, v in enumerate(value, 1))
    return json.dumps(value, ensure_ascii=False, default=str)


class SubTeam(Protocol):
    """What a team node needs of the team it runs (agentcore.teams.engine.Team, which this module must not import:
    the engine imports the nodes)."""

    spec: TeamSpec

    async def run_state(self, state: dict[str, Any]) -> TeamResult: ...


class NodeEnv:
    """What node runs share within one team: the spec, the registry, loaded models, join statistics, subteams
    (`load_team` opens one from its file), and the remote MCP servers and A2A agents (connected for each run by
    `remotes.connected()`)."""

    def __init__(
        self,
        spec: TeamSpec,
        registry: Registry,
        base: Path | None,
        stats_dir: Path | None,
        load_team: Callable[[Path], SubTeam],
    ) -> None:
        self.spec, self.registry, self.base, self.stats_dir = spec, registry, base, stats_dir
        self._load_team = load_team
        self._models: dict[str, Model] = {}
        self._model_lock = asyncio.Lock()
        self._stats: dict[str, JoinStats] = {}
        self._teams: dict[str, SubTeam] = {}
        self.remotes = Remotes(spec, registry)

    async def model(self, node: AgentNode) -> Model:
        return await self._load(node.model or node.tier or "default", explicit=node.model is not None)

    async def tiers(self) -> dict[str, Model]:
        """The routing policy's model tiers: `small` and `large` when the team's `models:` (or the registry)
        names both, else none (the policy then routes plans only)."""
        names = ("small", "large")
        if not all(n in self.spec.models or n in self.registry.models for n in names):
            return {}
        return {n: await self._load(n, explicit=False) for n in names}

    async def _load(self, key: str, *, explicit: bool) -> Model:
        if key in self.registry.models:
            return self.registry.models[key]
        spec_text = self.spec.models.get(key, key if explicit else None)
        cache_key = spec_text or "<default>"
        async with self._model_lock:  # two parallel agents on one model load it once
            if cache_key not in self._models:
                from agentcore.models.loader import load_model_async

                self._models[cache_key] = await load_model_async(spec_text)
        return self._models[cache_key]

    def stats(self, node: str) -> JoinStats:
        if node not in self._stats:
            path = self.stats_dir / f"{self.spec.team}.{node}.json" if self.stats_dir else None
            self._stats[node] = JoinStats.load(path)
        return self._stats[node]

    def subteam(self, node: TeamNode) -> SubTeam:
        if node.file not in self._teams:
            self._teams[node.file] = self._load_team((self.base or Path.cwd()) / node.file)
        return self._teams[node.file]


async def run_node(env: NodeEnv, name: str, inputs: dict[str, Any], sources: dict[str, list[str]]) -> NodeOutput:
    node = env.spec.nodes[name]
    if isinstance(node, AgentNode):
        return await _agent(env, name, node, inputs)
    if isinstance(node, ToolNode):
        return await _tool(env, name, node, inputs)
    if isinstance(node, FunctionNode):
        return await _function(env, name, node, inputs)
    if isinstance(node, JoinNode):
        return _join(env, name, node, inputs, sources)
    if isinstance(node, TeamNode):
        return await _subteam(env, node, inputs)
    if isinstance(node, A2ANode):
        return await _a2a(env, name, node, inputs)
    raise UserError(f"node '{name}' of kind {node.kind} cannot run in this version")


# -- agents ---------------------------------------------------------------------------------------------------


def task_text(node: AgentNode | A2ANode, inputs: Mapping[str, Any]) -> str:
    if node.prompt:
        return render(node.prompt, inputs)
    lines = [f"{key}: {as_text(value)}" for key, value in inputs.items()]
    return "\n".join(lines) or node.description or getattr(node, "role", "") or "Do your part of the team's task."


def output_type(spec: TeamSpec, node: AgentNode) -> Any:
    """The agent's answer type: the written key's type, or an object with one field per written key."""
    if not node.writes:
        return None
    if len(node.writes) == 1:
        kind = write_type(spec.state[node.writes[0]])
        return None if kind is str else kind
    from pydantic import create_model

    fields: dict[str, Any] = {key: (write_type(spec.state[key]), ...) for key in node.writes}
    return create_model(f"{node.role or 'Node'}Output".replace(" ", ""), **fields)


async def _agent(env: NodeEnv, name: str, node: AgentNode, inputs: dict[str, Any]) -> NodeOutput:
    agent = env.registry.agent(node.agent) if node.agent else await _build_agent(env, name, node)
    try:
        result = await agent.run(task_text(node, inputs))
    except AgentRunError as exc:
        usage = exc.partial.usage if exc.partial else Usage()
        raise NodeFailed(f"agent stopped: {exc}", usage) from exc
    if not result.ok:
        raise NodeFailed(f"agent run {result.status}: {result.error}", result.usage)
    return NodeOutput(_agent_writes(node, result.output), result.usage, result.run_id)


async def _build_agent(env: NodeEnv, name: str, node: AgentNode) -> Agent[Any, Any]:
    from agentcore.agent import Agent

    role = f"You are the {node.role}. " if node.role else ""
    instructions = (role + node.instructions).strip() or "You are a helpful assistant."
    agent: Agent[Any, Any] = Agent(
        await env.model(node),
        instructions=instructions,
        tools=[*(env.registry.tool(t) for t in node.tools), *(env.remotes.mcp(s) for s in node.mcp)],
        output_type=output_type(env.spec, node),
        policies=[make_policy(p, await env.tiers() if p == "routing" else None) for p in node.policies],
        max_steps=node.max_steps,
        name=name,
    )
    agent.max_tokens = node.max_tokens
    return agent


def _agent_writes(node: AgentNode, output: Any) -> dict[str, Any]:
    if not node.writes:
        return {}
    if len(node.writes) == 1:
        return {node.writes[0]: output}
    dumped = output.model_dump() if hasattr(output, "model_dump") else dict(output)
    return {key: dumped[key] for key in node.writes}


async def _a2a(env: NodeEnv, name: str, node: A2ANode, inputs: dict[str, Any]) -> NodeOutput:
    from agentcore.protocols.a2a_client import A2AError

    updates: list[str] = []
    try:
        answer = await env.remotes.a2a(name).ask(task_text(node, inputs), on_update=updates.append)
        writes = a2a_writes(node, {k: env.spec.state[k].type for k in node.writes}, answer)
    except (A2AError, ValueError) as exc:
        raise NodeFailed(str(exc)) from exc
    return NodeOutput(writes, detail={"updates": updates} if updates else {})


# -- tools, functions, joins, subteams ------------------------------------------------------------------------


async def _tool(env: NodeEnv, name: str, node: ToolNode, inputs: dict[str, Any]) -> NodeOutput:
    arguments = {k: _argument(v, inputs) for k, v in node.arguments.items()}
    ctx = run_context.child_context(None, f"{node.tool}({arguments})")
    token = run_context.enter(ctx)
    try:
        if node.mcp is not None:
            result = await env.remotes.mcp(node.mcp).call_tool(node.tool, arguments, ctx)
        else:
            result = await env.registry.tool(node.tool).call(arguments, ctx)
    finally:
        run_context.leave(token)
    return NodeOutput(_single_or_dict(name, node.writes, result), run_id=ctx.run_id)


def _argument(value: Any, inputs: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        whole = re.fullmatch(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", value)
        return inputs.get(whole.group(1)) if whole else render(value, inputs)
    return value


async def _function(env: NodeEnv, name: str, node: FunctionNode, inputs: dict[str, Any]) -> NodeOutput:
    function = env.registry.function(node.function)
    if inspect.iscoroutinefunction(function):
        result = await function(**inputs)
    else:
        result = await asyncio.to_thread(function, **inputs)  # a sync function never blocks the other nodes
    return NodeOutput(_single_or_dict(name, node.writes, result))


def _single_or_dict(name: str, writes: list[str], result: Any) -> dict[str, Any]:
    if not writes:
        return {}
    if len(writes) == 1:
        return {writes[0]: result}
    if not isinstance(result, Mapping) or set(writes) - set(result):
        raise NodeFailed(
            f"node '{name}' writes {writes}, so it must return a dict with those keys; got {result!r:.120}"
        )
    return {key: result[key] for key in writes}


def _join(env: NodeEnv, name: str, node: JoinNode, inputs: dict[str, Any], sources: dict[str, list[str]]) -> NodeOutput:
    key = node.reads[0]
    answers = list(inputs.get(key) or [])
    voters = sources.get(key, [])
    voters = voters if len(voters) == len(answers) else [f"voter{i}" for i in range(len(answers))]
    try:
        joined = aggregate(
            node.method, answers, voters, weights=node.weights, stats=env.stats(name), how=node.normalize
        )
    except ValueError as exc:
        raise NodeFailed(str(exc)) from None
    detail = {"method": joined.method, "scores": joined.scores}
    return NodeOutput({node.writes[0]: joined.answer}, detail=detail)


async def _subteam(env: NodeEnv, node: TeamNode, inputs: dict[str, Any]) -> NodeOutput:
    team = env.subteam(node)
    known = {k: v for k, v in inputs.items() if k in team.spec.state}
    result = await team.run_state(known)
    if not result.ok:
        raise NodeFailed(f"subteam {team.spec.team} {result.status}: {result.error}")
    missing = [k for k in node.writes if k not in result.state]
    if missing:
        raise NodeFailed(f"subteam {team.spec.team} did not produce {missing}")
    return NodeOutput({k: result.state[k] for k in node.writes}, result.usage, result.run_id)
