"""Publish an agent over A2A on loopback (its card at /.well-known/agent-card.json, JSON-RPC at /).
Equivalent CLI: `agentcore a2a serve --agent helper --tools calculator`.

    .venv/bin/python examples/a2a_server.py [port]
"""

from __future__ import annotations

import asyncio
import sys

import uvicorn

from agentcore import Agent
from agentcore.protocols.a2a_server import build_app
from agentcore.tools.builtin import builtin_toolset

agent = Agent(tools=builtin_toolset(["calculator"]), name="helper", instructions="Answer with the calculator.")


async def main(port: int) -> None:
    app = await build_app(agent, url=f"http://127.0.0.1:{port}/")  # add token="..." before binding beyond loopback
    await uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")).serve()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 9999))
