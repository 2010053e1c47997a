"""`agentcore mcp serve` for real: the official SDK client over stdio (our CLI as a subprocess) and over
streamable HTTP (uvicorn on loopback); and bad input over HTTP: no or wrong token, oversize body, malformed
JSON-RPC, unknown method. Each gets a clean error, never a crash."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator

import httpx
import mcp
import pytest
import uvicorn
from mcp import StdioServerParameters

from agentcore.errors import UserError
from agentcore.protocols.mcp_server import build_server, http_app
from agentcore.tools.builtin import builtin_toolset
from agentcore.tools.mcp import MCPToolset

TOKEN = "s3cret-token"
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


async def test_the_sdk_client_over_stdio_against_the_cli() -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "agentcore.cli", "mcp", "serve"])
    async with mcp.Client(params, read_timeout_seconds=30) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == ["calculator"]
        result = await client.call_tool("calculator", {"expression": "12*12"})
        assert (result.is_error, result.content[0].text) == (False, "144")


@pytest.fixture
async def http_url() -> AsyncIterator[str]:
    app = http_app(build_server(builtin_toolset(["calculator"])), token=TOKEN, max_body=2000)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    await task


async def test_our_client_and_the_sdk_client_over_http_with_a_token(http_url: str) -> None:
    async with MCPToolset.http(http_url, token=TOKEN, timeout=20) as remote:
        assert [spec.name for spec in await remote.list_tools()] == ["calculator"]
        from agentcore.context import RunContext

        assert await remote.call_tool("calculator", {"expression": "7*6"}, RunContext(None, "r", "t")) == "42"


async def test_bad_requests_over_http_get_clean_errors(http_url: str) -> None:
    auth = {**HEADERS, "authorization": f"Bearer {TOKEN}"}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    async with httpx.AsyncClient(timeout=20) as http:
        missing = await http.post(http_url, json=call, headers=HEADERS)
        assert missing.status_code == 401 and missing.json()["error"]["message"] == "missing bearer token"
        wrong = await http.post(http_url, json=call, headers={**HEADERS, "authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["message"] == "invalid bearer token"
        huge = await http.post(http_url, content=b'{"jsonrpc":"2.0","x":"' + b"a" * 5000 + b'"}', headers=auth)
        assert huge.status_code == 413
        broken = await http.post(http_url, content=b'{"jsonrpc": "2.0", "id": 1, "meth', headers=auth)
        assert broken.status_code == 400 and broken.json()["error"]["code"] == -32700  # parse error
        unknown = await http.post(http_url, json={**call, "method": "tools/explode"}, headers=auth)
        assert unknown.json()["error"]["code"] == -32601  # method not found
        still = await http.post(http_url, json=call, headers=auth)  # the server is still up
        assert still.status_code == 200


def test_binding_beyond_loopback_without_a_token_is_refused() -> None:
    with pytest.raises(UserError, match="bearer token"):
        http_app(build_server(), host="0.0.0.0")
    http_app(build_server(), host="0.0.0.0", token=TOKEN)  # with a token it is allowed
