"""The meta-architect: a model drafts a team file for a task, under a grammar, and the validator has the last
word. A drafted team never runs unvalidated; on problems the draft is repaired with the validator's own
messages, a bounded number of times.

The grammar comes from a *draft schema*: the team format in list form (team files key nodes and state by name,
which JSON Schema can only say with `additionalProperties`, outside the grammar subset), with the allowed
types, reducers, node kinds and join methods taken from the format's own models. `to_team` turns a draft into a
team file, which goes through the same loader and validator as a hand-written one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_args

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, Usage
from agentcore.teams.errors import TeamSpecError
from agentcore.teams.spec import JoinMethod, Reducer

if TYPE_CHECKING:
    from agentcore.models.base import Model
    from agentcore.teams.registry import Registry

DRAFT_TYPES = ["str", "int", "float", "bool", "list[str]"]
DRAFT_KINDS = ["agent", "join"]
NAME = {"type": "string", "maxLength": 24}

SYSTEM = """You design small multi-agent teams as JSON. A team has:
- state: the typed keys the nodes share. One key named "task" (type str) receives the task.
- nodes: agents (role, instructions, the keys they read and write) and joins (kind "join": read one list[str]
  key that parallel agents fill with reducer "append", write one str key, method majority).
- entry: the nodes that start; exit: the node that ends the run (no edge leaves it); edges: from -> to.
  An edge with several "from" nodes waits for all of them. A loop back needs max_loops >= 1 and the node it
  leaves needs another edge with otherwise true. Use max_loops 0 and otherwise false on ordinary edges.
Every key a node reads must be "task" or written by an earlier node. Keep it small: 2 to 5 nodes."""

EXAMPLE = {
    "team": "vote",
    "answer": "answer",
    "state": [
        {"key": "task", "type": "str", "reducer": "replace"},
        {"key": "answers", "type": "list[str]", "reducer": "append"},
        {"key": "answer", "type": "str", "reducer": "replace"},
    ],
    "nodes": [
        {"name": "solver_a", "kind": "agent", "role": "solver", "instructions": "Answer briefly.",
         "reads": ["task"], "writes": ["answers"], "method": "majority"},
        {"name": "solver_b", "kind": "agent", "role": "checker", "instructions": "Solve it twice, answer once.",
         "reads": ["task"], "writes": ["answers"], "method": "majority"},
        {"name": "vote", "kind": "join", "role": "", "instructions": "", "reads": ["answers"],
         "writes": ["answer"], "method": "majority"},
    ],
    "entry": ["solver_a", "solver_b"],
    "exit": "vote",
    "edges": [{"from": ["solver_a", "solver_b"], "to": ["vote"], "when": "", "max_loops": 0, "otherwise": False}],
}  # fmt: skip


def draft_schema() -> dict[str, Any]:
    """The JSON Schema a drafting model is constrained to (agentcore.grammar turns it into GBNF)."""
    names = {"type": "array", "items": NAME, "minItems": 1, "maxItems": 5}
    state_item = _object(key=NAME, type={"enum": DRAFT_TYPES}, reducer={"enum": list(get_args(Reducer))})
    node = _object(
        name=NAME,
        kind={"enum": DRAFT_KINDS},
        role={"type": "string", "maxLength": 40},
        instructions={"type": "string", "maxLength": 200},
        reads={"type": "array", "items": NAME, "maxItems": 4},
        writes={"type": "array", "items": NAME, "maxItems": 3},
        method={"enum": list(get_args(JoinMethod))},
    )
    edge = _object(
        **{"from": names, "to": names},
        when={"type": "string", "maxLength": 60},
        max_loops={"type": "integer"},
        otherwise={"type": "boolean"},
    )
    return _object(
        team=NAME,
        answer=NAME,
        state={"type": "array", "items": state_item, "minItems": 1, "maxItems": 8},
        nodes={"type": "array", "items": node, "minItems": 1, "maxItems": 6},
        entry=names,
        exit=NAME,
        edges={"type": "array", "items": edge, "maxItems": 8},
    )


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def to_team(draft: dict[str, Any]) -> dict[str, Any]:
    """A team file (as data) from a draft; shapes the draft schema cannot promise are left to the validator."""
    state = {item["key"]: {"type": item["type"], "reducer": item["reducer"]} for item in draft.get("state", [])}
    state.setdefault("task", {"type": "str", "reducer": "replace"})  # the input key of every draft: never left out
    nodes: dict[str, Any] = {}
    for node in draft.get("nodes", []):
        body: dict[str, Any] = {"reads": node.get("reads", []), "writes": node.get("writes", [])}
        if node.get("kind") == "join":
            body.update(kind="join", method=node.get("method", "majority"))
        else:
            body.update(role=node.get("role", ""), instructions=node.get("instructions", ""), max_tokens=128)
            body["prompt"] = "\n".join(f"{key}: {{{key}}}" for key in body["reads"]) or None
        nodes[node.get("name", "")] = body
    edges = []
    for edge in draft.get("edges", []):
        item: dict[str, Any] = {"from": edge.get("from", []), "to": edge.get("to", [])}
        if edge.get("when"):
            item["when"] = edge["when"]
        if edge.get("max_loops"):
            item["max_loops"] = edge["max_loops"]
        if edge.get("otherwise"):
            item["otherwise"] = True
        edges.append(item)
    topology = {"entry": draft.get("entry", []), "exit": draft.get("exit", ""), "edges": edges}
    team = {"team": draft.get("team", "drafted"), "input": "task", "output": draft.get("answer") or None}
    return {**team, "state": state, "nodes": nodes, "topology": topology}


@dataclass(slots=True)
class Draft:
    """The outcome: `text` is the team file (YAML) when `ok`; `problems` holds each failed attempt's problems."""

    task: str
    text: str = ""
    ok: bool = False
    attempts: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)


async def design_team(
    task: str, model: Model, *, repairs: int = 2, registry: Registry | None = None, max_tokens: int = 900
) -> Draft:
    """Draft a team for `task`; validate; repair with the validator's messages at most `repairs` times."""
    draft = Draft(task)
    messages = [Message("system", SYSTEM), Message("user", _ask(task))]
    for attempt in range(1, repairs + 2):
        draft.attempts = attempt
        request = ModelRequest(messages=tuple(messages), output_schema=draft_schema(), max_tokens=max_tokens)
        try:
            response = await model.complete(request)
        except ModelError as exc:
            draft.problems.append(f"the model failed: {exc}")
            break
        draft.usage.add(response.usage)
        content = response.content or ""
        problems, text = _check(content, registry)
        if not problems:
            draft.text, draft.ok = text, True
            draft.notes.append(f"draft {attempt}: valid")
            return draft
        draft.problems.append("; ".join(problems))
        draft.notes.append(f"draft {attempt}: {len(problems)} problems: {problems[0]}")
        messages += [Message("assistant", content), Message("user", _repair(problems))]
    return draft


def _ask(task: str) -> str:
    return f"Example of a valid team:\n{json.dumps(EXAMPLE)}\n\nDesign a team for this task: {task}"


def _repair(problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems[:8])
    return f"The validator found these problems:\n{listed}\nWrite the whole team again with them fixed."


def _check(content: str, registry: Registry | None) -> tuple[list[str], str]:
    import yaml

    from agentcore.teams.loader import spec_from_text
    from agentcore.teams.validate import validate

    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        return [f"the draft is not JSON: {exc.msg}"], ""
    text = yaml.safe_dump(to_team(data), sort_keys=False, allow_unicode=True, width=110)
    try:
        spec, source = spec_from_text(text, "draft.yaml")
        validate(spec, source, registry)
    except TeamSpecError as exc:
        return [f"{p.field}: {p.message}" for p in exc.problems], text
    return [], text
