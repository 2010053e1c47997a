"""The meta-architect on a scripted model: a draft under the draft schema's grammar, validated, and repaired
with the validator's messages."""

from __future__ import annotations

import copy
import json

from agentcore.grammar import schema_to_gbnf
from agentcore.messages import ModelRequest
from agentcore.teams import Team
from agentcore.teams.design import EXAMPLE, design_team, draft_schema
from agentcore.testing import FunctionModel, ScriptedModel


def test_draft_schema_compiles_to_a_grammar() -> None:
    grammar = schema_to_gbnf(draft_schema())
    assert "root ::=" in grammar and "optimal_weight" in grammar and "list[str]" in grammar


async def test_a_valid_first_draft_is_accepted_and_runs() -> None:
    model = ScriptedModel([json.dumps(EXAMPLE)])
    draft = await design_team("Answer with two solvers and a vote.", model)
    assert draft.ok and draft.attempts == 1 and "kind: join" in draft.text
    assert model.requests[0].output_schema == draft_schema()
    team = Team.from_text(draft.text)
    assert team.spec.topology.exit == "vote"


async def test_an_invalid_draft_is_repaired_with_the_validators_messages() -> None:
    broken = copy.deepcopy(EXAMPLE)
    broken["nodes"][0]["reads"] = ["question"]  # undeclared key
    broken["exit"] = "finish"  # no such node
    seen: list[ModelRequest] = []

    def reply(request: ModelRequest) -> str:
        seen.append(request)
        return json.dumps(broken if len(seen) == 1 else EXAMPLE)

    draft = await design_team("Answer with two solvers and a vote.", FunctionModel(reply), repairs=2)
    assert draft.ok and draft.attempts == 2
    repair = seen[1].messages[-1].content
    assert "no node named 'finish'" in repair and "no key 'question'" in repair
    assert draft.notes[0].startswith("draft 1: ") and draft.notes[1] == "draft 2: valid"


def test_the_input_key_is_always_declared() -> None:
    from agentcore.teams.design import to_team

    broken = copy.deepcopy(EXAMPLE)
    broken["state"] = broken["state"][1:]  # the 0.5B model left "task" out when no node read it
    assert to_team(broken)["state"]["task"] == {"type": "str", "reducer": "replace"}


async def test_repairs_are_bounded_and_an_invalid_team_is_never_returned_as_ok() -> None:
    broken = copy.deepcopy(EXAMPLE)
    broken["edges"] = []  # vote unreachable, solvers cannot reach the exit
    model = FunctionModel(lambda request: json.dumps(broken))
    draft = await design_team("x", model, repairs=1)
    assert not draft.ok and draft.attempts == 2 and len(model.requests) == 2
    assert "no path" in draft.problems[-1]
