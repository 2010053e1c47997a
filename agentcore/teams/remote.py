"""The remote parts of a team: the MCP servers its agent nodes use (`mcp:` at the top, `mcp: [name]` on a node)
and its `a2a` nodes. A team run connects them when it starts and closes them when it ends; concurrent runs of
one team share each connection (`toolset_scope`: the first run in opens it, the last one out closes it).

Secrets stay out of team files: `token_env` names an environment variable, and `${VAR}` in an MCP server's env
or headers values is read from the environment when the team's first run builds the connection objects.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any

from agentcore.errors import AgentcoreError, UserError
from agentcore.teams.spec import A2ANode, AgentNode, MCPServer, TeamSpec, ToolNode

if TYPE_CHECKING:
    from agentcore.protocols.a2a_client import A2AAgentToolset
    from agentcore.teams.registry import Registry
    from agentcore.tools.toolset import Toolset

A2A_TIMEOUT = 300.0  # an a2a node without `timeout`: the remote call still ends
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class RemoteUnavailable(AgentcoreError):
    """An MCP server or A2A agent of the team could not be connected when the run started."""


def expand(value: str, where: str) -> str:
    """`value` with each ${VAR} replaced by the environment variable; a missing one is a UserError."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in os.environ:
            raise UserError(f"{where}: the environment variable {name} is not set")
        return os.environ[name]

    return _VAR.sub(sub, value)


def env_token(name: str | None, where: str) -> str | None:
    if name is None:
        return None
    token = os.environ.get(name)
    if not token:
        raise UserError(f"{where}: the environment variable {name} (the bearer token) is not set")
    return token


def mcp_toolset(name: str, server: MCPServer) -> Toolset:
    """The MCPToolset a team file's `mcp.<name>` declares (filtered to its `tools`, when given)."""
    from agentcore.tools.mcp import MCPToolset

    where = f"mcp.{name}"
    options: dict[str, Any] = {"name": name, "timeout": server.timeout, "prefix": server.prefix}
    toolset: MCPToolset
    if server.command is not None:
        env = {key: expand(value, f"{where}.env.{key}") for key, value in server.env.items()}
        command = local_command(server.command)
        toolset = MCPToolset.stdio(command, server.args, env=env or None, cwd=server.cwd, **options)
    else:
        headers = {key: expand(value, f"{where}.headers.{key}") for key, value in server.headers.items()}
        token = env_token(server.token_env, f"{where}.token_env")
        toolset = MCPToolset.http(server.url or "", token=token, headers=headers, **options)
    if server.tools is None:
        return toolset
    return toolset.filtered([server.prefix + tool for tool in server.tools])


def local_command(command: str) -> str:
    """A bare command found beside the running Python (its virtual environment's scripts) first, so that
    `command: mcp-server-time` runs the server the project installed; else as given (looked up on PATH)."""
    if os.sep in command:
        return command
    found = shutil.which(command, path=os.path.dirname(sys.executable))
    return found or command


class Remotes:
    """The connections of one team: built on first use, entered for each run."""

    def __init__(self, spec: TeamSpec, registry: Registry) -> None:
        self.spec, self.registry = spec, registry
        self._mcp: dict[str, Toolset] = {}
        self._a2a: dict[str, A2AAgentToolset] = {}

    def mcp(self, name: str) -> Toolset:
        if name not in self._mcp:
            declared = self.spec.mcp.get(name)
            self._mcp[name] = mcp_toolset(name, declared) if declared else self.registry.toolsets[name]
        return self._mcp[name]

    def a2a(self, node_name: str) -> A2AAgentToolset:
        if node_name not in self._a2a:
            from agentcore.protocols.a2a_client import A2AAgentToolset

            node = self.spec.nodes[node_name]
            assert isinstance(node, A2ANode)
            token = env_token(node.token_env, f"nodes.{node_name}.token_env")
            self._a2a[node_name] = A2AAgentToolset(
                node.url, token=token, timeout=node.timeout or A2A_TIMEOUT, streaming=node.streaming
            )
        return self._a2a[node_name]

    def used(self) -> list[str]:
        """Labels of the remotes this team's nodes use, in file order: `mcp.<server>` and `nodes.<a2a node>`."""
        servers = {s: None for node in self.spec.nodes.values() for s in _servers(node)}
        a2a = [name for name, node in self.spec.nodes.items() if isinstance(node, A2ANode)]
        return [*(f"mcp.{s}" for s in servers), *(f"nodes.{n}" for n in a2a)]

    def toolset(self, label: str) -> Toolset:
        kind, _, name = label.partition(".")
        return self.mcp(name) if kind == "mcp" else self.a2a(name)

    @contextlib.asynccontextmanager
    async def connected(self) -> AsyncIterator[None]:
        """Connect every remote the team uses, for one run; RemoteUnavailable names the one that failed."""
        from agentcore.tools.toolset import toolset_scope

        async with contextlib.AsyncExitStack() as stack:
            for label in self.used():
                try:
                    toolset = self.toolset(label)
                    await stack.enter_async_context(toolset_scope(toolset))
                    if label.startswith("mcp."):
                        await self._check_allowlist(label.removeprefix("mcp."), toolset)
                except Exception as exc:  # any failure to connect ends the run with its name, never a crash
                    raise RemoteUnavailable(f"{label}: cannot connect: {exc}") from exc
            yield

    async def _check_allowlist(self, name: str, toolset: Toolset) -> None:
        server = self.spec.mcp.get(name)
        if server is None or server.tools is None:
            return
        offered = {spec.name for spec in await getattr(toolset, "inner", toolset).list_tools()}
        missing = [tool for tool in server.tools if server.prefix + tool not in offered]
        if missing:
            raise UserError(f"the server has no tool {', '.join(map(repr, missing))}; it has: {sorted(offered)}")


def _servers(node: Any) -> list[str]:
    if isinstance(node, AgentNode):
        return node.mcp
    return [node.mcp] if isinstance(node, ToolNode) and node.mcp is not None else []


def a2a_writes(node: A2ANode, types: Mapping[str, str], answer: str) -> dict[str, Any]:
    """The answer text as the node's writes: a str key gets the text; another type, or several keys, JSON."""
    if not node.writes:
        return {}
    if len(node.writes) == 1:
        key = node.writes[0]
        return {key: answer if types[key] in ("str", "any") else _json_or_text(answer)}
    decoded = _json_or_text(answer)
    if not isinstance(decoded, dict) or set(node.writes) - set(decoded):
        raise ValueError(f"writes {node.writes}, so the remote answer must be a JSON object with those keys;"
                         f" got {answer!r:.120}")  # fmt: skip
    return {key: decoded[key] for key in node.writes}


def _json_or_text(answer: str) -> Any:
    try:
        return json.loads(answer)
    except ValueError:
        return answer  # the state's type check says what was wrong
