"""The server side of the MCP conformance suite: our `agentcore mcp serve` stack (build_server + http_app) with
the tools the suite's tool scenarios call, written as ordinary agentcore tools.

    .venv/bin/python scripts/interop/mcp_conformance_server.py PORT
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from typing import Any

from agentcore import tool
from agentcore.context import RunContext
from agentcore.messages import ToolSpec
from agentcore.protocols.mcp_server import build_server, serve_http
from agentcore.tools import FunctionToolset
from agentcore.tools.toolset import CombinedToolset

SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}


@tool
def test_simple_text() -> str:
    """Returns a simple text."""
    return "This is a simple text response for testing."


@tool
def test_error_handling() -> str:
    """Always fails."""
    raise RuntimeError("This tool intentionally returns an error for testing")


class RawSchemaTools:
    """A toolset whose tool keeps its input schema exactly as written (the 2020-12 keyword scenario)."""

    async def list_tools(self) -> Sequence[ToolSpec]:
        return [ToolSpec("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", SCHEMA_2020_12)]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        return {"received": arguments}

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return 10.0, 0


if __name__ == "__main__":
    tools = CombinedToolset([FunctionToolset([test_simple_text, test_error_handling]), RawSchemaTools()])
    asyncio.run(serve_http(build_server(tools, name="agentcore-conformance"), port=int(sys.argv[1])))
