"""From a file (or text, or a dict) to a checked `TeamSpec`: YAML with positions, then pydantic, with each
pydantic error turned into a located `Problem` that says what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentcore.teams.errors import Problem, TeamSpecError
from agentcore.teams.source import Path_, Source, from_mapping, load_file, load_text
from agentcore.teams.spec import NODE_KINDS, AgentNode, Edge, Limits, MCPServer, StateField, TeamSpec, Topology


def parse_source(source: Source) -> TeamSpec:
    """Validate the data of `source` into a TeamSpec; every error is located in the file."""
    from pydantic import ValidationError

    try:
        return TeamSpec.model_validate(source.data)
    except ValidationError as exc:
        problems = [_problem(source, error) for error in exc.errors(include_url=False)]
        raise TeamSpecError(problems) from None


def load_spec(path: str | Path) -> tuple[TeamSpec, Source]:
    source = load_file(path)
    return parse_source(source), source


def spec_from_text(text: str, name: str = "<team>") -> tuple[TeamSpec, Source]:
    source = load_text(text, name)
    return parse_source(source), source


def spec_from_mapping(data: Mapping[str, Any], name: str = "<team>") -> tuple[TeamSpec, Source]:
    source = from_mapping(data, name)
    return parse_source(source), source


def _data_loc(loc: tuple[Any, ...]) -> Path_:
    """The pydantic location without union tags (nodes.solver.agent.role -> nodes.solver.role)."""
    out: list[str | int] = []
    for index, part in enumerate(loc):
        if index == 2 and loc[0] == "nodes" and part in NODE_KINDS:
            continue
        out.append(part if isinstance(part, int) else str(part))
    if out and out[0] == "topology" and len(out) > 3 and out[1] == "edges":
        out = [{"source": "from", "target": "to"}.get(str(p), p) if i == 3 else p for i, p in enumerate(out)]
    return tuple(out)


_MODELS_AT: dict[tuple[str, int], type[Any]] = {
    ("state", 3): StateField,
    ("nodes", 3): AgentNode,
    ("topology", 2): Topology,
    ("topology", 4): Edge,
    ("limits", 2): Limits,
    ("mcp", 3): MCPServer,
}


def _model_at(loc: tuple[Any, ...]) -> type[Any] | None:
    """The model whose field `loc` names, for listing the allowed fields."""
    if len(loc) == 1:
        return TeamSpec
    if loc[0] == "nodes" and len(loc) == 4:
        return NODE_KINDS.get(str(loc[2]))
    return _MODELS_AT.get((str(loc[0]), len(loc)))


def _fields(model: type[Any]) -> str:
    names = [f.alias or name for name, f in model.model_fields.items()]
    return ", ".join(names)


def _problem(source: Source, error: Mapping[str, Any]) -> Problem:
    loc = tuple(error["loc"])
    kind, message = error["type"], str(error["msg"])
    data_loc = _data_loc(loc)
    if kind == "extra_forbidden":
        model = _model_at(loc)
        message = f"unknown field '{loc[-1]}'" + (f"; allowed: {_fields(model)}" if model else "")
    elif kind == "missing":
        message = f"required field '{loc[-1]}' is missing"
    elif kind == "union_tag_invalid":
        message = f"unknown node kind {error['input'].get('kind')!r}; allowed: {', '.join(NODE_KINDS)}"
        data_loc = (*data_loc, "kind")
    elif kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        message = f"{error['input']!r} is not allowed; allowed: {expected}"
    elif kind == "string_pattern_mismatch":
        message = f"{error['input']!r} is not allowed here: {_PATTERNS.get(str(loc[-1]), _NAMING)}"
        if loc[-1] == "type":
            message = f"unknown type {error['input']!r}; allowed: " + _types()
    elif kind == "value_error":
        message = message.removeprefix("Value error, ")
    return source.problem(f"field:{kind}", data_loc, message)


_PATTERNS = {
    "url": "give an http:// or https:// URL",
    "token_env": "give the name of an environment variable (letters, digits, _), not the token itself",
    "prefix": "letters, digits and _ only",
}
_NAMING = "names start with a letter, then letters, digits, _ or -; state keys use _, not -"


def _types() -> str:
    from agentcore.teams.spec import TYPES_ALLOWED

    return TYPES_ALLOWED
