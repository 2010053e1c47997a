"""Model tiers in team files: an agent node with the `routing` policy, in a team whose `models:` (or registry)
names `small` and `large`, runs on `large` when it is offered two or more tools and on `small` otherwise."""

from __future__ import annotations

from typing import Any

from agentcore.teams import Registry, Team
from agentcore.testing import ScriptedModel, call

TEAM = """\
team: tiered
state:
  task: str
  answer: {type: str, default: ""}
nodes:
  solver:
    role: solver
    reads: [task]
    writes: [answer]
    tools: TOOLS
    policies: [routing]
topology:
  entry: solver
  exit: solver
"""


def lookup(key: str) -> str:
    """Look a key up in the shop's price list."""
    return {"chair": "40"}.get(key, "unknown")


def team(tools: list[str], small: Any, large: Any) -> Team:
    text = TEAM.replace("TOOLS", "[" + ", ".join(tools) + "]")
    registry = Registry(tools=[lookup], models={"default": small, "small": small, "large": large})
    return Team.from_text(text, registry=registry)


async def test_two_tools_run_on_the_large_tier() -> None:
    small, large = ScriptedModel([]), ScriptedModel([call("calculator", expression="6*7"), "42"])
    result = await team(["calculator", "lookup"], small, large).run("What is 6 times 7?")
    assert result.ok and result.state["answer"] == "42"
    large.assert_complete()
    assert small.requests == []


async def test_one_tool_stays_on_the_small_tier() -> None:
    small, large = ScriptedModel([call("calculator", expression="6*7"), "42"]), ScriptedModel([])
    result = await team(["calculator"], small, large).run("What is 6 times 7?")
    assert result.ok and result.state["answer"] == "42"
    small.assert_complete()
    assert large.requests == []


async def test_without_both_tiers_the_node_keeps_its_model() -> None:
    registry_only = ScriptedModel([call("calculator", expression="6*7"), "42"])
    small = ScriptedModel([])
    text = TEAM.replace("TOOLS", "[calculator, lookup]")
    registry = Registry(tools=[lookup], models={"default": registry_only, "small": small})
    result = await Team.from_text(text, registry=registry).run("What is 6 times 7?")
    assert result.ok and result.state["answer"] == "42"
    registry_only.assert_complete()
    assert small.requests == []
