"""Our MCP server (agentcore.protocols.mcp_server) seen by the official SDK's own client, in memory: tools, agents
as tools, errors as isError results, and an MCP toolset served onwards (our client inside our server)."""

from __future__ import annotations

import mcp
import pytest

from agentcore import Agent
from agentcore.errors import UserError
from agentcore.protocols.mcp_server import build_server
from agentcore.testing import ScriptedModel, call
from agentcore.tools.builtin import builtin_toolset
from agentcore.tools.mcp import MCPToolset


async def test_the_sdk_client_lists_and_calls_tools_and_agents() -> None:
    tools = builtin_toolset(["calculator"])
    model = ScriptedModel([call("calculator", expression="6*7"), "It is 42."])
    server = build_server(tools, [Agent(model, tools=tools, name="math")])
    async with mcp.Client(server) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == {"calculator", "math"}
        assert listed["math"].input_schema["required"] == ["task"]
        assert listed["calculator"].input_schema["properties"]["expression"]["type"] == "string"
        done = await client.call_tool("calculator", {"expression": "2+3"})
        assert (done.is_error, done.content[0].text) == (False, "5")
        answered = await client.call_tool("math", {"task": "what is 6*7?"})
        assert (answered.is_error, answered.content[0].text) == (False, "It is 42.")
        model.assert_complete()  # the agent really ran: one tool turn, one answer


async def test_errors_are_is_error_results_and_the_server_carries_on() -> None:
    server = build_server(builtin_toolset(["calculator"]), [Agent(ScriptedModel([]), name="idle")])
    async with mcp.Client(server) as client:
        bad = await client.call_tool("calculator", {"expression": "2+"})
        assert bad.is_error and "cannot parse" in bad.content[0].text
        unknown = await client.call_tool("nope", {})
        assert unknown.is_error and "no tool named 'nope'" in unknown.content[0].text
        empty = await client.call_tool("idle", {"task": "  "})
        assert empty.is_error and "non-empty 'task'" in empty.content[0].text
        assert (await client.call_tool("calculator", {"expression": "1+1"})).content[0].text == "2"


async def test_an_mcp_toolset_is_served_onwards_through_our_server() -> None:
    inner = build_server(builtin_toolset(["calculator"]), name="inner")
    outer = build_server(MCPToolset(inner, prefix="inner_"), name="outer")
    async with mcp.Client(outer) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["inner_calculator"]
        relayed = await client.call_tool("inner_calculator", {"expression": "10/4"})
        assert relayed.content[0].text == "2.5"


def test_two_agents_with_one_name_are_refused() -> None:
    with pytest.raises(UserError, match="same name"):
        build_server(None, [Agent(ScriptedModel([]), name="a"), Agent(ScriptedModel([]), name="a")])
