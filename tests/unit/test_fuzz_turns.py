"""Fuzz: any model output (any text, any JSON, wrong types, unknown tools, oversize or deeply nested values) parses
into a turn of the request's tools or raises ModelError, never a raw exception."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fuzz_settings import awkward_text, count, fuzz, json_values, report_cases
from hypothesis import example, given
from hypothesis import strategies as st

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolSpec
from agentcore.turns import FINAL_KEY, parse_turn, response_from_text


@pytest.fixture(scope="module", autouse=True)
def _cases(request: pytest.FixtureRequest) -> Iterator[None]:
    yield from report_cases(request)


NUMBER = {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}
TOOLS = (
    ToolSpec("calculator", "Evaluate an expression.", {"type": "object", "properties": {"expression": {}}}),
    ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {"path": {"type": "string"}}}),
    ToolSpec("ping", "No arguments.", {"type": "object", "properties": {}}),
)
NAMES = [spec.name for spec in TOOLS]

requests = st.builds(
    ModelRequest,
    messages=st.just((Message("user", "Task: fuzz"),)),
    tools=st.sampled_from([(), TOOLS[:1], TOOLS]),
    output_schema=st.sampled_from([None, NUMBER, {"type": "string"}]),
    allow_final=st.booleans(),
    constrain=st.booleans(),
    think=st.sampled_from([0, 40]),
)

tool_names = st.one_of(st.sampled_from(NAMES), awkward_text, json_values)
turn_dicts = st.one_of(
    st.fixed_dictionaries({"tool": tool_names}, optional={"arguments": json_values, "thought": json_values}),
    st.fixed_dictionaries({FINAL_KEY: json_values}, optional={"thought": json_values}),
    # the nested form a small model writes after a calculation, and broken variants of it
    json_values.map(lambda inner: {FINAL_KEY: json.dumps({FINAL_KEY: inner})}),
    st.text(max_size=20).map(lambda inner: {FINAL_KEY: "{" + FINAL_KEY + inner}),
    st.dictionaries(awkward_text, json_values, max_size=4),
)


def _dumps(value: Any, indent: int | None) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=indent is None)


model_texts = st.one_of(
    st.text(),
    st.builds(_dumps, json_values, st.sampled_from([None, 2])),
    st.builds(_dumps, turn_dicts, st.sampled_from([None, 2])),
    turn_dicts.map(lambda turn: json.dumps(turn)[: len(json.dumps(turn)) // 2]),  # cut off at max_tokens
    st.sampled_from(["NaN", "-Infinity", '{"final_answer": NaN}', '{"tool": "calculator", "arguments": {"a": 1e999}}']),
)

DEEP = "[" * 100_000 + "]" * 100_000
OVERSIZE = '{"final_answer": "' + "x" * 1_000_000 + '"}'


def check_turn(text: str, request: ModelRequest) -> None:
    """A turn names an offered tool with a dict of arguments, or is a final answer as text; else ModelError."""
    try:
        response = response_from_text(text, request)
    except ModelError:
        assert request.constrain
        return
    assert isinstance(response, ModelResponse) and response.raw == text
    if not request.constrain:
        assert response.content == text and response.tool_call is None
        return
    call = response.tool_call
    if call is not None:
        assert call.name in NAMES and call.name in {spec.name for spec in request.tools}
        assert isinstance(call.arguments, dict) and response.content is None
        call.signature()
    else:
        assert isinstance(response.content, str)
        if request.output_schema is not None:
            json.loads(response.content)


@fuzz(400)
@given(model_texts, requests)
@example(DEEP, ModelRequest(messages=(), tools=TOOLS))
@example('{"final_answer": ' + DEEP + "}", ModelRequest(messages=(), tools=TOOLS))
@example('{"final_answer": "{\\"final_answer\\": ' + "[" * 5000 + '"}', ModelRequest(messages=(), tools=TOOLS))
@example('{"tool": ["calculator"], "arguments": {}}', ModelRequest(messages=(), tools=TOOLS))
@example('{"tool": {"a": 1}, "arguments": {}}', ModelRequest(messages=(), tools=TOOLS))
@example('{"tool": "calculator", "arguments": []}', ModelRequest(messages=(), tools=TOOLS))
@example(OVERSIZE, ModelRequest(messages=(), tools=TOOLS, output_schema=NUMBER))
@example("\ud800", ModelRequest(messages=(), tools=TOOLS))
def test_model_output_gives_a_turn_or_a_model_error(text: str, request: ModelRequest) -> None:
    count("turns.response_from_text")
    check_turn(text, request)


@fuzz(150)
@given(json_values, requests)
def test_parse_turn_of_any_json_value(value: Any, request: ModelRequest) -> None:
    count("turns.parse_turn")
    try:
        content, call = parse_turn(json.dumps(value), request)
    except ModelError:
        return
    assert (content is None) != (call is None)
