"""The MCP and A2A examples run: against the real time server, the SDK's own MCP client, and A2A peers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import mcp
from mcp import StdioServerParameters

from tests.integration.test_a2a_interop import sdk_app, serving, stop

ROOT = Path(__file__).resolve().parents[2]


def test_mcp_client_example_lists_and_calls_the_time_server() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "mcp_client.py")],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "tool get_current_time:" in done.stdout and "tool convert_time:" in done.stdout
    assert "Paris: 20" in done.stdout


async def test_mcp_server_example_answers_the_sdk_client_over_stdio() -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(ROOT / "examples" / "mcp_server.py")], cwd=ROOT)
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == {"shipping_cost", "shipping_clerk"}
        cost = await client.call_tool("shipping_cost", {"weight_kg": 2, "express": True})
        assert cost.content[0].text == "12.9"


async def test_a2a_server_example_publishes_a_card_the_sdk_reads() -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import a2a_server  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    from agentcore.protocols.a2a_server import build_app

    server, task, url = await serving(lambda url: build_app(a2a_server.agent, url=url))
    try:
        async with httpx.AsyncClient() as http:
            card = (await http.get(url + ".well-known/agent-card.json")).json()
        assert card["name"] == "helper" and [s["id"] for s in card["skills"]] == ["helper", "calculator"]
    finally:
        await stop(server, task)


async def test_a2a_client_example_asks_a_server_built_with_the_sdk() -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import a2a_client  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    server, task, url = await serving(sdk_app)
    try:
        assert await a2a_client.main(url, "quiet please") == "QUIET PLEASE"
    finally:
        await stop(server, task)
