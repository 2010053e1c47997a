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
