"""Team files that are not YAML, not a mapping, use anchors, or have wrong types: a located error, never a
traceback. Plus the expression language and the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentcore.teams import expr
from agentcore.teams.errors import TeamSpecError
from agentcore.teams.loader import load_spec, spec_from_text
from agentcore.teams.spec import json_schema

MINIMAL = """\
team: t
state:
  task: str
nodes:
  a:
    prompt: "{task}"
    reads: [task]
    writes: [task]
topology:
  entry: a
  exit: a
"""


def problems(text: str) -> list[tuple[str, int | None, str, str]]:
    with pytest.raises(TeamSpecError) as caught:
        spec_from_text(text, "t.yaml")
    return [(p.rule, p.line, p.field, p.message) for p in caught.value.problems]


def test_minimal_file_loads_with_defaults() -> None:
    spec, source = spec_from_text(MINIMAL)
    node = spec.nodes["a"]
    assert node.kind == "agent" and spec.topology.entry == ["a"] and spec.limits.concurrency == 4
    assert source.line_of(("nodes", "a", "prompt")) == 6


def test_not_yaml() -> None:
    [(rule, line, _, message)] = problems("team: t\nstate: [unclosed\n")
    assert rule == "yaml" and line == 3 and "not valid YAML" in message


def test_bracket_type_inside_a_flow_mapping_hints_at_quoting() -> None:
    [(_, _, _, message)] = problems("team: t\nstate:\n  a: {type: list[str], reducer: append}\n")
    assert 'quote values that hold brackets: type: "list[str]"' in message


@pytest.mark.parametrize(("text", "kind"), [("", "empty"), ("- a\n- b\n", "a list"), ("just text\n", "a str")])
def test_not_a_mapping(text: str, kind: str) -> None:
    [(rule, line, _, message)] = problems(text)
    assert rule == "shape" and line == 1 and kind in message and "team, state, nodes and topology" in message


def test_anchors_and_aliases_are_refused() -> None:
    bomb = 'a: &a ["x", "x"]\nb: &b [*a, *a]\nc: [*b, *b]\n'
    [(rule, line, _, message)] = problems(bomb)
    assert rule == "yaml" and line == 1 and "anchor 'a' is not allowed" in message


def test_duplicate_keys_are_refused() -> None:
    [(rule, line, field, message)] = problems(MINIMAL + "team: again\n")
    assert rule == "yaml" and line == 12 and field == "team" and "first on line 1" in message


def test_wrong_types_are_located_and_say_what_is_allowed() -> None:
    text = MINIMAL.replace("  task: str", "  task: string\n  n: {type: int, reducer: append}").replace(
        '    prompt: "{task}"', '    prompt: "{task}"\n    max_steps: lots\n    colour: red'
    )
    found = {field: (line, message) for _, line, field, message in problems(text)}
    assert found["state.task.type"][0] == 3 and "unknown type 'string'" in found["state.task.type"][1]
    assert "list[str]" in found["state.task.type"][1]
    assert found["state.n"][0] == 4 and "needs a list type" in found["state.n"][1]
    assert found["nodes.a.max_steps"][0] == 8 and "integer" in found["nodes.a.max_steps"][1]
    assert found["nodes.a.colour"][0] == 9 and "allowed: " in found["nodes.a.colour"][1]
    assert "instructions" in found["nodes.a.colour"][1]


def test_unknown_kind_lists_the_kinds() -> None:
    [(_, line, field, message)] = problems(MINIMAL.replace('    prompt: "{task}"', "    kind: robot"))
    assert line == 6 and field == "nodes.a.kind" and "agent, tool, function, join, team, a2a" in message


def test_literal_fields_list_their_values() -> None:
    text = MINIMAL.replace('    prompt: "{task}"', "    kind: join\n    method: median")
    [(_, line, _, message)] = problems(text)
    assert line == 7 and "'median' is not allowed" in message and "'optimal_weight'" in message


def test_missing_sections_are_named() -> None:
    found = {field: message for _, _, field, message in problems("team: t\nstate: {}\n")}
    assert "required field 'nodes' is missing" in found["nodes"]
    assert "required field 'topology' is missing" in found["topology"]


def test_edge_fields_use_the_file_spelling() -> None:
    text = MINIMAL + "  edges:\n    - {from: a, to: a, when: 'x', otherwise: true}\n"
    [(_, line, field, message)] = problems(text)
    assert line == 13 and field == "topology.edges[0]" and "not both" in message


def test_unreadable_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(TeamSpecError, match="cannot read the team file"):
        load_spec(tmp_path / "absent.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"team: \xff\xfe\n")
    with pytest.raises(TeamSpecError, match="not UTF-8"):
        load_spec(bad)


def test_json_schema_is_published_and_describes_the_format() -> None:
    schema = json_schema()
    text = json.dumps(schema)
    assert schema["title"] == "agentcore team file" and "optimal_weight" in text and '"from"' in text
    assert set(schema["required"]) == {"team", "state", "nodes", "topology"}


# -- the condition language --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("verdict != 'approve'", True),
        ("len(drafts) >= 2 and not done", True),
        ("score * 2 > 10 or contains(verdict, 'REVISE')", True),
        ("drafts[0] == 'a' and 'b' in drafts", True),
        ("lower(verdict) == 'approve'", False),
        ("done == false and missing_ok == none", True),
    ],
)
def test_conditions_evaluate_on_state(text: str, expected: bool) -> None:
    state = {"verdict": "revise", "drafts": ["a", "b"], "done": False, "score": 5, "missing_ok": None}
    assert expr.parse(text)(state) is expected


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('ls')",
        "verdict.upper() == 'X'",
        "(lambda: 1)()",
        "[x for x in drafts]",
        "open('f')",
        "drafts[0:2]",
        "x = 1",
        "\ud800 == 1",  # a lone surrogate: Python's parser raises UnicodeEncodeError, not SyntaxError
        "a ==\x00 1",
    ],
)
def test_conditions_refuse_everything_else(text: str) -> None:
    with pytest.raises(expr.ExpressionError):
        expr.parse(text)


def test_condition_names_and_runtime_errors() -> None:
    condition = expr.parse("len(drafts) < limit")
    assert condition.names == {"drafts", "limit"}
    with pytest.raises(expr.ConditionFailed, match="state has no key 'limit'"):
        condition({"drafts": []})
    with pytest.raises(expr.ConditionFailed, match="TypeError"):
        expr.parse("score > 'x'")({"score": 1})
    with pytest.raises(expr.ExpressionError, match="at most 500"):
        expr.parse("a or " * 200 + "a")


def test_example_files_validate_against_the_published_schema() -> None:
    import jsonschema
    import yaml

    examples = sorted((Path(__file__).resolve().parents[2] / "examples" / "teams").glob("*.yaml"))
    schema = json_schema()
    for file in examples:
        jsonschema.validate(yaml.safe_load(file.read_text()), schema)  # shorthand forms (entry: a, x: str) too
    bad = yaml.safe_load(examples[0].read_text())
    bad["nodes"][next(iter(bad["nodes"]))]["colour"] = "red"
    try:
        jsonschema.validate(bad, schema)
    except jsonschema.ValidationError as exc:
        assert "colour" in exc.message or "colour" in str(exc)
    else:
        raise AssertionError("an unknown field passed the schema")
