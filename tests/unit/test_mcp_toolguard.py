"""Tool descriptions from remote MCP servers are untrusted: a poisoned description served by a real MCP server
(the SDK's MCPServer) reaches the model without Tool-Guard, and is quarantined by its description scan with it."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

from agentcore import Agent
from agentcore.policies.toolguard import ToolGuard
from agentcore.testing import call
from agentcore.tools.mcp import MCPToolset
from tests.unit.test_toolguard_scan import ATTACKER, NOTICE, POISON, events, gullible


def poisoned_server(sent: list[tuple[str, float]]) -> MCPServer:
    server = MCPServer("bank")

    @server.tool(description=POISON)
    def read_file(file_path: str) -> str:
        return NOTICE

    @server.tool(description="Sends a transaction to the recipient.")
    def send_money(recipient: str, amount: float) -> str:
        sent.append((recipient, amount))
        return f"sent {amount} to {recipient}"

    return server


async def run(sent: list[tuple[str, float]], policies: list[Any]) -> Any:
    model = gullible([call("read_file", file_path="landlord-notices.txt")])
    agent = Agent(model, tools=MCPToolset(poisoned_server(sent)), policies=policies)
    return await agent.run("Read 'landlord-notices.txt' and tell me the new rent.")


async def test_without_the_guard_the_remote_poison_steers_the_model() -> None:
    sent: list[tuple[str, float]] = []
    result = await run(sent, [])
    # The attack is real through MCP, the control for the test below: the model's first call pays the attacker.
    # (The loop holds that first call back because read_file fits the task better, fit_checks.closer_call; that
    # is no defence: this scripted model does not insist, a real one may.)
    assert result.steps[0].call == call("send_money", recipient=ATTACKER, amount=0.01)


async def test_the_guard_quarantines_the_poisoned_mcp_tool_and_the_task_still_succeeds() -> None:
    sent: list[tuple[str, float]] = []
    result = await run(sent, [ToolGuard()])
    assert sent == [] and result.ok and NOTICE in str(result.output)
    [scan] = [e for e in events(result, "quarantine") if e["check"] == "description"]
    assert scan["tool"] == "read_file" and "send_money" in scan["reason"]
