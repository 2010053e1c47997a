"""Our MCP client against a real third-party MCP server from PyPI: `mcp-server-time` (the reference time server
of the modelcontextprotocol project, offline), as a subprocess over stdio. Plus the failure modes over stdio:
a server process that dies (reconnected) and a server that never answers (a clear timeout, no hang)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import psutil
import pytest

from agentcore import Agent
from agentcore.context import RunContext
from agentcore.tools.mcp import MCPServerError, MCPTimeoutError, MCPToolError, MCPToolset

CTX: RunContext[Any] = RunContext(deps=None, run_id="r", task="t")


def time_server(**options: Any) -> MCPToolset:
    return MCPToolset.stdio(sys.executable, ["-m", "mcp_server_time", "--local-timezone", "UTC"], **options)


async def test_time_server_over_stdio_lists_and_calls_its_tools() -> None:
    async with time_server(timeout=20) as time:
        specs = {spec.name: spec for spec in await time.list_tools()}
        assert set(specs) == {"get_current_time", "convert_time"}
        assert specs["convert_time"].parameters["required"] == ["source_timezone", "time", "target_timezone"]
        now = await time.call_tool("get_current_time", {"timezone": "Asia/Tokyo"}, CTX)
        assert now["timezone"] == "Asia/Tokyo" and now["datetime"].endswith("+09:00")
        converted = await time.call_tool(
            "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Kolkata"}, CTX
        )
        assert converted["target"]["datetime"].endswith("T17:30:00+05:30")  # its $defs'd output, structured
        with pytest.raises(MCPToolError, match="Invalid timezone"):
            await time.call_tool("get_current_time", {"timezone": "Mars/Olympus"}, CTX)


async def test_a_killed_stdio_server_is_restarted_and_the_call_succeeds() -> None:
    async with time_server(timeout=20) as time:
        await time.list_tools()
        before = psutil.Process().children()
        assert before, "the server subprocess should be running"
        for child in before:
            child.kill()
        await asyncio.sleep(0.3)
        now = await time.call_tool("get_current_time", {"timezone": "UTC"}, CTX)
        assert now["timezone"] == "UTC"
        assert time.reconnections == 1
        assert {c.pid for c in psutil.Process().children()}.isdisjoint({c.pid for c in before})


async def test_a_server_that_never_answers_fails_the_connect_with_a_timeout() -> None:
    silent = MCPToolset.stdio(sys.executable, ["-c", "import time; time.sleep(60)"], timeout=1.5)
    started = asyncio.get_running_loop().time()
    with pytest.raises(MCPTimeoutError, match=r"did not finish connecting within 1\.5s"):
        async with silent:
            pass
    assert asyncio.get_running_loop().time() - started < 10
    assert not psutil.Process().children()  # the silent process was not left behind


async def test_a_command_that_does_not_exist_is_a_clear_error() -> None:
    with pytest.raises(MCPServerError, match="could not connect"):
        async with MCPToolset.stdio("/nonexistent/mcp-server", timeout=5):
            pass


@pytest.mark.real_model
async def test_the_real_model_calls_the_time_server(qwen: Any) -> None:
    time = time_server(timeout=20).filtered(["get_current_time"])
    agent = Agent(qwen, tools=time, max_steps=3)
    result = await agent.run("What is the current time in the Asia/Tokyo timezone? Use the tool.")
    calls = [s.call for s in result.steps if s.call is not None]
    assert calls and calls[0].name == "get_current_time"
    assert calls[0].arguments["timezone"] == "Asia/Tokyo"
    first = next(s for s in result.steps if s.call is not None)
    assert not first.tool_error and "+09:00" in (first.result or "")
