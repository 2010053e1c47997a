"""`agentcore mcp serve`: a toolset, and agents as tools, published as an MCP server (the official SDK's low-level
`Server`), over stdio or streamable HTTP.

Calling an agent's tool runs the agent on the `task` argument and returns its answer. Tool exceptions become
`isError` results the client's model can read; nothing a caller sends crashes the server. Over HTTP the server
binds to loopback unless told otherwise, refuses to bind elsewhere without a bearer token, checks the token on
every request, and limits request bodies (the SDK answers 413 above the limit).
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.prompting import format_result
from agentcore.protocols.http_guard import BearerAuth, check_exposure

if TYPE_CHECKING:
    from agentcore.agent import Agent
    from agentcore.tools.toolset import Toolset

MAX_BODY = 1_000_000  # bytes of one HTTP request: tool arguments, not file uploads
AGENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"task": {"type": "string", "description": "What the agent should do, in plain words."}},
    "required": ["task"],
}


def build_server(
    toolset: Toolset | None = None, agents: Sequence[Agent[Any, Any]] = (), *, name: str = "agentcore", deps: Any = None
) -> Any:
    """An `mcp.server.lowlevel.Server` listing the toolset's tools and one tool per agent (named after it)."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from agentcore.tools.toolset import FunctionToolset, toolset_scope

    tools: Toolset = toolset if toolset is not None else FunctionToolset()
    by_name = {agent.name: agent for agent in agents}
    if len(by_name) != len(agents):
        raise UserError("two served agents have the same name; give each a distinct name=")

    @contextlib.asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        async with toolset_scope(tools):  # an MCP toolset served onwards is connected once, for the server's life
            yield

    async def on_list_tools(_ctx: Any, _params: Any) -> Any:
        listed = [
            types.Tool(name=s.name, description=s.description, input_schema=s.parameters)
            for s in await tools.list_tools()
        ]
        clash = set(by_name) & {tool.name for tool in listed}
        if clash:
            raise UserError(f"an agent and a tool are both named {sorted(clash)[0]!r}")
        for agent in by_name.values():
            listed.append(types.Tool(name=agent.name, description=_agent_description(agent), input_schema=AGENT_SCHEMA))
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(_ctx: Any, params: Any) -> Any:
        arguments = dict(params.arguments or {})
        try:
            if params.name in by_name:
                value = await _run_agent(by_name[params.name], arguments, deps)
            else:
                run = RunContext(deps=deps, run_id=uuid.uuid4().hex[:12], task=f"mcp tools/call {params.name}")
                value = await tools.call_tool(params.name, arguments, run)
        except Exception as exc:  # the caller's model reads the error; the server carries on
            return _error_result(types, f"{type(exc).__name__}: {exc}")
        return _result(types, value)

    return Server(name, lifespan=lifespan, on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def _run_agent(agent: Agent[Any, Any], arguments: dict[str, Any], deps: Any) -> Any:
    task = arguments.get("task")
    if not isinstance(task, str) or not task.strip():
        raise UserError("the agent's tool needs a non-empty 'task' string")
    result = await agent.run(task, deps=deps)
    if not result.ok:
        raise RuntimeError(f"the agent's run ended with status {result.status}: {result.error}")
    return result.output


def _agent_description(agent: Agent[Any, Any]) -> str:
    instructions = " ".join(agent.instructions_text.split())[:200]
    return f"Ask the {agent.name} agent to do a task; it answers in words. {instructions}".strip()


def _result(types: Any, value: Any) -> Any:
    structured = _structured(value)
    text = format_result(value) if structured is None else json.dumps(structured, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured)


def _structured(value: Any) -> dict[str, Any] | None:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        value = dump(mode="json")
    return value if isinstance(value, dict) else None


def _error_result(types: Any, message: str) -> Any:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


# -- transports -----------------------------------------------------------------------------------------------


async def serve_stdio(server: Any) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def http_app(server: Any, *, host: str = "127.0.0.1", token: str | None = None, max_body: int = MAX_BODY) -> Any:
    """The streamable-HTTP ASGI app at /mcp, behind a bearer-token check when `token` is set."""
    check_exposure(host, token, "AGENTCORE_MCP_TOKEN")
    app = server.streamable_http_app(host=host, max_request_body_size=max_body, stateless_http=True, json_response=True)
    return BearerAuth(app, token) if token else app


async def serve_http(
    server: Any, *, host: str = "127.0.0.1", port: int = 8000, token: str | None = None, max_body: int = MAX_BODY
) -> None:
    import uvicorn

    app = http_app(server, host=host, token=token, max_body=max_body)
    await uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")).serve()
