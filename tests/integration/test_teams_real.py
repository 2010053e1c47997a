"""The vote example team on the real default model (Qwen 0.5B through llama.cpp): three parallel agents as
child runs of one team run, joined by majority vote."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentcore.teams import Registry, Team
from agentcore.teams.joins import normalize

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"


@pytest.mark.real_model
async def test_vote_team_on_the_real_model(qwen: object) -> None:
    team = Team.load(EXAMPLES / "vote.yaml", registry=Registry(models={"default": qwen}))
    events: list[str] = []
    result = await team.run("What is 12 + 30? Answer with the number only.", on_event=lambda e: events.append(e.kind))
    assert result.ok, result.error
    answers = result.state["answers"]
    assert len(answers) == 3 and sorted(result.sources["answers"]) == ["careful", "checker", "quick"]
    assert result.output in answers
    assert normalize(result.output, "number") == "42"  # two of three 0.5B solvers get this sum right
    assert result.usage.calls >= 3 and result.usage.prompt_tokens > 0
    assert events.count("node_start") == 4 and events[-1] == "team_end"
    agents = [r for r in result.ledger if r.kind == "agent"]
    assert len(agents) == 3 and all(r.run_id and r.usage.calls >= 1 for r in agents)


TIERED = """\
team: tiered
models:
  large: {large}
state:
  task: str
  answer: {{type: str, default: ""}}
nodes:
  solver:
    role: solver
    reads: [task]
    writes: [answer]
    tools: [calculator, {lookup}]
    policies: [routing]
topology:
  entry: solver
  exit: solver
"""


def price(item: str) -> str:
    """Look up the price of an item in the shop."""
    return {"chair": "40"}.get(item.strip().lower(), "unknown")


@pytest.mark.real_model
async def test_a_routing_node_with_two_tools_runs_on_the_large_tier(qwen: object, default_model_path: str) -> None:
    """The team names `large` as a GGUF path (loaded by the team) and the registry gives `small`: the node is
    offered two tools, so every turn goes to the large tier's model, which the team loads on first use."""
    text = TIERED.format(large=default_model_path, lookup=f"{__name__}:price")
    team = Team.from_text(text, registry=Registry(models={"default": qwen, "small": qwen}))
    result = await team.run("What is 6 times 7? Answer with the number only.")
    assert result.ok, result.error
    assert normalize(result.state["answer"], "number") == "42"
    loaded = list(team.env._models.values())  # the models the team loaded itself: the large tier's
    assert len(loaded) == 1 and loaded[0] is not qwen and loaded[0].loaded  # type: ignore[attr-defined]
