"""Use a third-party MCP server's tools: `mcp-server-time` (installed by the `mcp` extra), over stdio.

.venv/bin/python examples/mcp_client.py            # list its tools and call one directly
.venv/bin/python examples/mcp_client.py --agent    # let the default local model call it
"""

from __future__ import annotations

import asyncio
import sys

from agentcore import Agent
from agentcore.context import RunContext
from agentcore.tools.mcp import MCPToolset


def time_server() -> MCPToolset:
    return MCPToolset.stdio(sys.executable, ["-m", "mcp_server_time", "--local-timezone", "UTC"], timeout=20)


async def main(with_agent: bool) -> None:
    time = time_server()
    async with time:
        for spec in await time.list_tools():
            print(f"tool {spec.name}: {spec.description.splitlines()[0]}")
        now = await time.call_tool("get_current_time", {"timezone": "Europe/Paris"}, RunContext(None, "example", ""))
        print(f"Paris: {now['datetime']} ({now['day_of_week']})")
    if with_agent:
        agent = Agent(tools=time.filtered(["get_current_time"]))  # the run connects and closes the server
        result = await agent.run("What time is it in the Asia/Tokyo timezone?")
        print("Answer:", result.output)


if __name__ == "__main__":
    asyncio.run(main("--agent" in sys.argv))
