"""The client side of the MCP conformance suite: our MCPToolset (agentcore.tools.mcp) connects to the suite's
server (its URL is the last argument), lists the tools, and calls `add_numbers` when the scenario offers it.

    MCP_CONFORMANCE_SCENARIO=tools_call .venv/bin/python scripts/interop/mcp_conformance_client.py URL
"""

from __future__ import annotations

import asyncio
import sys

from agentcore.context import RunContext
from agentcore.tools.mcp import MCPToolset


async def main(url: str) -> None:
    async with MCPToolset.http(url, timeout=20) as server:
        names = [spec.name for spec in await server.list_tools()]
        print("tools:", names)
        if "add_numbers" in names:
            print(await server.call_tool("add_numbers", {"a": 2, "b": 3}, RunContext(None, "conformance", "")))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[-1]))
