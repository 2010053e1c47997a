"""Publish your own tools, and an agent that uses them, as an MCP server over stdio (what an MCP host such as
an IDE or a desktop assistant launches). Equivalent CLI: `agentcore mcp serve --object examples.mcp_server:tools`.

    .venv/bin/python examples/mcp_server.py
"""

from __future__ import annotations

import asyncio

from agentcore import Agent, tool
from agentcore.protocols.mcp_server import build_server, serve_stdio
from agentcore.tools import FunctionToolset


@tool
def shipping_cost(weight_kg: float, express: bool = False) -> float:
    """Shipping cost in euros for a parcel of this weight."""
    return round(4.5 + 1.2 * weight_kg + (6 if express else 0), 2)


tools = FunctionToolset([shipping_cost])
# Calling the `shipping_clerk` tool runs this agent (on the default local model, loaded on the first call).
clerk = Agent(tools=tools, name="shipping_clerk", instructions="Answer questions about shipping costs.")

if __name__ == "__main__":
    asyncio.run(serve_stdio(build_server(tools, [clerk])))
