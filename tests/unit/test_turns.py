"""The turn schema (tool call | final answer), its parsing, and the bounding of argument schemas."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pydantic import BaseModel

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, ToolSpec
from agentcore.turns import (
    FINAL_KEY,
    MAX_ITEMS,
    MAX_STRING,
    bound_schema,
    final_branch,
    final_string_limit,
    parse_turn,
    response_from_text,
    turn_schema,
)

MESSAGES = (Message("user", "Task: x"),)
ADD = ToolSpec(
    "add",
    "Add two integers.",
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
)
ECHO = ToolSpec("echo", "Echo text.", {"type": "object", "properties": {"text": {"type": "string"}}})


def request(*tools: ToolSpec, output_schema: dict[str, Any] | None = None, allow_final: bool = True) -> ModelRequest:
    return ModelRequest(messages=MESSAGES, tools=tools, output_schema=output_schema, allow_final=allow_final)


# --- turn_schema --------------------------------------------------------------------------------------------


def test_tools_and_final_answer_are_one_of_branches() -> None:
    schema = turn_schema(request(ADD, ECHO))
    assert schema is not None
    branches = schema["oneOf"]
    assert len(branches) == 3
    assert [b["properties"]["tool"]["const"] for b in branches[:2]] == ["add", "echo"]
    assert all(b["required"] == ["tool", "arguments"] and b["additionalProperties"] is False for b in branches[:2])
    assert list(branches[0]["properties"]) == ["tool", "arguments"]  # the key order the grammar keeps
    assert branches[0]["properties"]["arguments"]["required"] == ["a", "b"]
    final = branches[2]
    assert final["required"] == [FINAL_KEY]
    assert final["properties"][FINAL_KEY] == {
        "anyOf": [{"type": "string", "maxLength": final_string_limit(256)}, {"type": "number"}]
    }


def test_a_single_branch_is_not_wrapped() -> None:
    forced = turn_schema(request(ADD, allow_final=False))
    assert forced is not None and "oneOf" not in forced
    assert forced["properties"]["tool"] == {"const": "add"}


def test_output_schema_without_tools_is_the_final_branch_only() -> None:
    schema = turn_schema(request(output_schema={"type": "integer", "title": "Answer"}))
    assert schema == {
        "type": "object",
        "properties": {FINAL_KEY: {"type": "integer"}},
        "required": [FINAL_KEY],
        "additionalProperties": False,
    }


def test_no_tools_and_no_output_schema_unconstrained_is_free_text() -> None:
    free = ModelRequest(messages=MESSAGES, constrain=False)
    assert turn_schema(free) is None
    response = response_from_text('{"final_answer": "hi"} and more', free)
    assert response.content == '{"final_answer": "hi"} and more' and response.tool_call is None


def test_constrained_request_without_tools_still_gets_the_final_schema() -> None:
    """Agent.constrain_final: a tool-less (or final-only) turn is still one clean JSON final answer."""
    constrained = ModelRequest(messages=MESSAGES, tools=(), output_schema=None, constrain=True)
    assert turn_schema(constrained) == final_branch(None, final_string_limit(constrained.max_tokens))
    assert response_from_text('{"final_answer": "hi"}', constrained).content == "hi"
    with pytest.raises(ModelError):
        response_from_text("hi", constrained)


def test_forced_tool_call_has_no_final_branch() -> None:
    schema = turn_schema(request(ADD, ECHO, allow_final=False))
    assert schema is not None and len(schema["oneOf"]) == 2
    assert all("tool" in branch["properties"] for branch in schema["oneOf"])


def test_final_branch_bounds_output_strings_by_max_string() -> None:
    branch = final_branch({"type": "string"}, max_string=50)
    assert branch["properties"][FINAL_KEY]["maxLength"] == 50


# --- parse_turn ---------------------------------------------------------------------------------------------


def test_parse_tool_call() -> None:
    content, call = parse_turn('{"tool": "add", "arguments": {"a": 1, "b": 2}}', request(ADD))
    assert content is None
    assert call is not None and call.name == "add" and call.arguments == {"a": 1, "b": 2}


def test_parse_tool_call_without_arguments_defaults_to_empty() -> None:
    _, call = parse_turn('{"tool": "echo"}', request(ECHO))
    assert call is not None and call.arguments == {}


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("not json", "not JSON"),
        ('["tool", "add"]', "not a JSON object"),
        ('{"tool": "sub", "arguments": {}}', "unknown tool"),
        ('{"tool": "add", "arguments": [1, 2]}', "bad arguments"),
        ('{"answer": 3}', "neither a tool call nor a final answer"),
    ],
)
def test_parse_errors_are_model_errors(text: str, match: str) -> None:
    with pytest.raises(ModelError, match=match):
        parse_turn(text, request(ADD))


def test_a_turn_cut_off_at_max_tokens_is_not_quoted_back() -> None:
    """The runaway text (a repeating pattern) must not reach the retry notice, where the model copied it."""
    runaway = '{"tool": "add", "arguments": {"a": 3 * 1.5 * 1.25 * 1.125 * 1.0625'
    with pytest.raises(ModelError, match="not JSON"):
        response_from_text(runaway, request(ADD))
    with pytest.raises(ModelError, match="ran past max_tokens=") as cut:
        response_from_text(runaway, request(ADD), cut_off=True)
    assert "1.125" not in str(cut.value)
    assert response_from_text('{"final_answer": "4"}', request(ADD), cut_off=True).content == "4"


def test_tool_call_when_no_tools_offered_is_an_error() -> None:
    with pytest.raises(ModelError, match="unknown tool"):
        parse_turn('{"tool": "add", "arguments": {"a": 1, "b": 2}}', request())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"final_answer": "Paris"}', "Paris"),
        ('{"final_answer": 7}', "7"),
        ('{"final_answer": 2.5}', "2.5"),
        ('{"final_answer": {"x": 1}}', '{"x": 1}'),
        ('{"final_answer": "{\\"final_answer\\": 7}"}', "7"),  # a whole turn nested in the answer string
        ('{"final_answer": "{\\"final_answer\\": \\"Oslo\\"}"}', "Oslo"),
        ('{"final_answer": "{final_answer is broken"}', "{final_answer is broken"),  # not JSON: kept as is
        ('{"final_answer": "{\\"other\\": 1}"}', '{"other": 1}'),  # JSON, but no nested turn
    ],
)
def test_final_answer_without_output_schema_is_text(text: str, expected: str) -> None:
    assert parse_turn(text, request(ADD)) == (expected, None)


def test_final_answer_with_output_schema_is_json_text() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    content, call = parse_turn('{"final_answer": {"n": 3}}', request(output_schema=schema))
    assert call is None and content is not None and json.loads(content) == {"n": 3}
    content, _ = parse_turn('{"final_answer": "{\\"final_answer\\": {\\"n\\": 4}}"}', request(output_schema=schema))
    assert content is not None and json.loads(content) == {"n": 4}


def test_response_from_text_parses_constrained_turns() -> None:
    response = response_from_text('{"tool": "add", "arguments": {"a": 1, "b": 2}}', request(ADD))
    assert response.tool_call is not None and response.tool_call.name == "add"
    assert response.content is None and response.raw == '{"tool": "add", "arguments": {"a": 1, "b": 2}}'
    with pytest.raises(ModelError):
        response_from_text("oops", request(ADD))


# --- bound_schema -------------------------------------------------------------------------------------------


class Inner(BaseModel):
    name: str
    tags: list[str]


class Outer(BaseModel):
    inner: Inner
    others: list[Inner]
    mode: str = "fast"


def test_bound_schema_inlines_refs_and_drops_titles() -> None:
    original = Outer.model_json_schema()
    snapshot = copy.deepcopy(original)
    bounded = bound_schema(original)
    assert original == snapshot  # a copy: the input is not changed
    text = json.dumps(bounded)
    assert "$ref" not in text and "$defs" not in text and '"title"' not in text
    inner = bounded["properties"]["inner"]
    assert inner["properties"]["name"] == {"type": "string", "maxLength": MAX_STRING}
    assert inner["properties"]["tags"]["maxItems"] == MAX_ITEMS
    assert inner["properties"]["tags"]["items"]["maxLength"] == MAX_STRING
    assert bounded["properties"]["others"]["items"]["required"] == ["name", "tags"]
    assert bounded["properties"]["mode"]["default"] == "fast"


def test_bound_schema_caps_but_keeps_tighter_bounds() -> None:
    schema = {
        "type": "object",
        "properties": {
            "long": {"type": "string", "maxLength": 10_000},
            "short": {"type": "string", "maxLength": 12},
            "many": {"type": "array", "items": {"type": "integer"}, "maxItems": 500},
            "few": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
            "choice": {"type": "string", "enum": ["a", "b"]},
            "fixed": {"type": "string", "const": "k"},
        },
    }
    props = bound_schema(schema, max_string=100)["properties"]
    assert props["long"]["maxLength"] == 100
    assert props["short"]["maxLength"] == 12
    assert props["many"]["maxItems"] == MAX_ITEMS
    assert props["few"]["maxItems"] == 3
    assert "maxLength" not in props["choice"] and "maxLength" not in props["fixed"]


def test_recursive_ref_is_refused() -> None:
    schema = {
        "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}},
        "$ref": "#/$defs/Node",
    }
    with pytest.raises(ModelError, match="nests too deeply"):
        bound_schema(schema)


def test_property_named_title_is_kept() -> None:
    schema = {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "examples": {"type": "integer"},
            "body": {"type": "string"},
        },
        "required": ["title", "examples", "body"],
    }
    assert list(bound_schema(schema)["properties"]) == ["title", "examples", "body"]


def test_think_puts_a_bounded_thought_first_in_every_branch() -> None:
    from agentcore.messages import Message, ModelRequest, ToolSpec

    spec = ToolSpec("calc", "Evaluate.", {"type": "object", "properties": {"e": {"type": "string"}}, "required": ["e"]})
    request = ModelRequest(messages=(Message("user", "x"),), tools=(spec,), think=40)
    schema = turn_schema(request)
    assert schema is not None
    for branch in schema["oneOf"]:
        assert next(iter(branch["properties"])) == "thought"
        assert branch["properties"]["thought"]["maxLength"] == 40 and "thought" in branch["required"]
    content, call = parse_turn('{"thought": "add them", "tool": "calc", "arguments": {"e": "1+2"}}', request)
    assert content is None and call is not None and call.arguments == {"e": "1+2"}


def test_a_free_text_answer_closes_before_max_tokens() -> None:
    """A digit is one token: a runaway "1.5 * 1.25 * ..." answer must close its string before max_tokens ends."""
    assert final_string_limit(256) == 244 and final_string_limit(4096) == MAX_STRING and final_string_limit(8) == 16
    short = ModelRequest(messages=MESSAGES, tools=(), constrain=True, max_tokens=64)
    schema = turn_schema(short)
    assert schema is not None and schema["properties"][FINAL_KEY]["anyOf"][0]["maxLength"] == 52


def test_an_enum_of_single_values_on_an_array_is_the_items_enum() -> None:
    """No array is one of ["temperature", "humidity"]: the author meant each item's choices (BFCL live_multiple)."""
    metrics = {"type": "array", "items": {"type": "string"}, "enum": ["temperature", "humidity"], "default": []}
    bounded = bound_schema({"type": "object", "properties": {"metrics": metrics}})["properties"]["metrics"]
    assert "enum" not in bounded and bounded["items"]["enum"] == ["temperature", "humidity"]
    assert bound_schema({"type": "array", "enum": [[1], [2]]})["enum"] == [[1], [2]]  # whole arrays: as written
