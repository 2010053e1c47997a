"""MCPToolset against the official `mcp` SDK's own server (MCPServer), in memory: schemas, structured results,
errors, timeouts, the run lifecycle, and an Agent calling an MCP tool (scripted model)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from agentcore import Agent
from agentcore.context import RunContext
from agentcore.errors import ModelRetry, UserError
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import ModelRequest
from agentcore.testing import ScriptedModel, call
from agentcore.tools import FunctionToolset
from agentcore.tools.mcp import MCPTimeoutError, MCPToolError, MCPToolset
from agentcore.turns import turn_schema
from tests.unit.test_grammar import Grammar


class Point(BaseModel):
    x: int
    y: int


def demo_server() -> MCPServer:
    server = MCPServer("demo")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def move(p: Point, dx: Annotated[int, Field(ge=0, le=10)] = 1) -> Point:
        """Move a point right."""
        return Point(x=p.x + dx, y=p.y)

    @server.tool()
    def shout(text: str) -> str:
        """Upper-case a text (unstructured)."""
        return text.upper()

    @server.tool()
    def boom() -> str:
        """Always fails."""
        raise ValueError("kaboom")

    @server.tool()
    async def slow() -> str:
        """Never answers in time."""
        await asyncio.sleep(30)
        return "late"

    @server.resource("note://today")
    def today() -> str:
        return "buy milk"

    @server.prompt()
    def greet(name: str) -> str:
        return f"Say hello to {name}"

    return server


CTX: RunContext[Any] = RunContext(deps=None, run_id="r", task="t")


async def test_tools_are_listed_with_refs_resolved_and_unenforced_keywords_named() -> None:
    async with MCPToolset(demo_server()) as mcp:
        specs = {spec.name: spec for spec in await mcp.list_tools()}
    assert set(specs) == {"add", "move", "shout", "boom", "slow"}
    assert specs["add"].description == "Add two integers."
    assert specs["add"].read_only and not specs["shout"].read_only  # readOnlyHint: failed calls may be probed
    move = specs["move"].parameters
    assert move["properties"]["p"]["properties"]["x"] == {"title": "X", "type": "integer"}  # $ref inlined
    assert "$defs" not in move
    assert mcp.unenforced["move"] == []  # dx: 0..10 is enforced by the grammar (grammar_ranges)
    assert mcp.unenforced["add"] == []
    schema = turn_schema(ModelRequest(messages=(), tools=(specs["move"],)))
    assert schema is not None
    grammar = Grammar(schema_to_gbnf(schema))  # the grammar types the $ref'd point, where it used to allow anything
    assert grammar.accepts('{"tool":"move","arguments":{"p":{"x":1,"y":2}}}')
    assert not grammar.accepts('{"tool":"move","arguments":{"p":{"x":"one","y":2}}}')


async def test_structured_text_and_error_results() -> None:
    async with MCPToolset(demo_server()) as mcp:
        assert await mcp.call_tool("add", {"a": 2, "b": 40}, CTX) == 42  # {"result": 42} unwrapped
        assert await mcp.call_tool("move", {"p": {"x": 1, "y": 2}, "dx": 3}, CTX) == {"x": 4, "y": 2}
        assert await mcp.call_tool("shout", {"text": "hi"}, CTX) == "HI"
        with pytest.raises(MCPToolError, match="Error executing tool boom"):
            await mcp.call_tool("boom", {}, CTX)
        with pytest.raises(MCPToolError, match="Unknown tool"):
            await mcp.call_tool("nope", {}, CTX)


async def test_bad_arguments_come_back_to_the_model_as_a_tool_error() -> None:
    async with MCPToolset(demo_server()) as mcp:
        with pytest.raises((MCPToolError, ModelRetry), match=r"(?i)validation|input"):
            await mcp.call_tool("add", {"a": "two", "b": 1}, CTX)


async def test_a_silent_tool_times_out_with_a_clear_error() -> None:
    async with MCPToolset(demo_server(), timeout=0.5) as mcp:
        started = asyncio.get_running_loop().time()
        with pytest.raises(MCPTimeoutError, match="did not answer tools/call 'slow'"):
            await mcp.call_tool("slow", {}, CTX)
        assert asyncio.get_running_loop().time() - started < 5
        assert await mcp.call_tool("add", {"a": 1, "b": 1}, CTX) == 2  # the connection still works


async def test_using_it_unconnected_is_a_user_error() -> None:
    with pytest.raises(UserError, match="not connected"):
        await MCPToolset(demo_server()).list_tools()
    with pytest.raises(UserError, match="timeout"):
        MCPToolset(demo_server(), timeout=0)


async def test_resources_and_prompts() -> None:
    async with MCPToolset(demo_server()) as mcp:
        assert [str(r.uri) for r in await mcp.list_resources()] == ["note://today"]
        assert await mcp.read_resource("note://today") == "buy milk"
        assert [p.name for p in await mcp.list_prompts()] == ["greet"]
        assert await mcp.get_prompt("greet", {"name": "Ada"}) == [("user", "Say hello to Ada")]


async def test_prefix_keeps_two_servers_apart() -> None:
    mcp = MCPToolset(demo_server(), prefix="demo_")
    async with mcp:
        assert "demo_add" in {s.name for s in await mcp.list_tools()}
        assert await mcp.call_tool("demo_add", {"a": 1, "b": 2}, CTX) == 3


async def test_an_agent_run_connects_the_server_calls_its_tool_and_closes_it() -> None:
    mcp = MCPToolset(demo_server())
    local = FunctionToolset()

    @local.add
    def double(n: int) -> int:
        """Double a number."""
        return 2 * n

    model = ScriptedModel([call("add", a=20, b=22), call("boom"), "42"])
    result = await Agent(model, tools=[double, mcp]).run("what is 20 + 22?")
    assert result.output == "42"
    tool_steps = [s for s in result.steps if s.call is not None]
    assert [(s.call.name, s.result, s.tool_error) for s in tool_steps if s.call] == [
        ("add", "42", False),
        ("boom", "MCPToolError: Error executing tool boom", True),
    ]
    offered = {t.name for t in model.requests[0].tools}
    assert {"add", "move", "double"} <= offered
    assert not mcp.is_open  # the run opened it and closed it
