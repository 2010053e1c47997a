"""Enum words written out in full: the grammar lets them run on, the parsed call keeps the longest value."""

from __future__ import annotations

import pytest
from test_fuzz_grammar import LLAMA, llama_parses
from test_grammar import Grammar

from agentcore.enum_tails import resolve
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import Message, ModelRequest, ToolCall, ToolSpec
from agentcore.models.native import native_gbnf, parse_native
from agentcore.turns import parse_turn, turn_schema

UNITS = ["km", "m", "cm", "mm", "mi", "ft", "in", "l", "ml", "gal", "g", "kg", "C", "F", "K"]
CONVERT = ToolSpec(
    "convert",
    "Convert a value between units.",
    {
        "type": "object",
        "properties": {
            "value": {"type": "number"},
            "from_unit": {"type": "string", "enum": UNITS},
            "to_unit": {"type": "string", "enum": UNITS},
        },
        "required": ["value", "from_unit", "to_unit"],
    },
)
REQUEST = ModelRequest(messages=(Message("user", "Convert 8 km to miles."),), tools=(CONVERT,))


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ("miles", "mi"),  # not "m", the first complete value on the way
        ("gallons", "gal"),  # not "g"
        ("meters", "m"),
        ("inches", "in"),
        ("Celsius", "C"),
        ("km", "km"),  # exact values stay
        ("yards", "yards"),  # starts with no value: left for the tool to reject
    ],
)
def test_the_longest_value_the_word_starts_with_is_kept(written: str, kept: str) -> None:
    assert resolve(written, {"type": "string", "enum": UNITS}) == kept


def test_resolve_walks_properties_items_and_branches() -> None:
    schema = {
        "type": "object",
        "properties": {
            "legs": {"type": "array", "items": {"enum": UNITS}},
            "unit": {"anyOf": [{"type": "null"}, {"type": "string", "enum": UNITS}]},
            "note": {"type": "string"},
        },
    }
    value = {"legs": ["miles", "km"], "unit": "gallons", "note": "miles", "extra": "miles"}
    assert resolve(value, schema) == {"legs": ["mi", "km"], "unit": "gal", "note": "miles", "extra": "miles"}


def test_the_turn_grammar_lets_a_word_run_on_past_a_value() -> None:
    schema = turn_schema(REQUEST)
    assert schema is not None
    grammar = Grammar(schema_to_gbnf(schema))
    call = '{"tool": "convert", "arguments": {"value": 8, "from_unit": "km", "to_unit": "%s"}}'
    assert grammar.accepts(call % "miles") and grammar.accepts(call % "mi") and grammar.accepts(call % "m")
    assert not grammar.accepts(call % "yards")  # no value to start from
    assert not grammar.accepts(call % "mi1")  # letters only after a value
    assert not grammar.accepts(call % ("mi" + "x" * 17))  # bounded


def test_enum_values_that_end_in_no_letter_take_no_tail() -> None:
    grammar = Grammar(schema_to_gbnf({"enum": ["v1", "a b", 3]}))
    assert grammar.accepts('"v1"') and grammar.accepts('"a bs"') and grammar.accepts("3")
    assert not grammar.accepts('"v1x"')


def test_both_tool_formats_keep_the_enum_value() -> None:
    turn = '{"tool": "convert", "arguments": {"value": 8, "from_unit": "km", "to_unit": "miles"}}'
    expected = ToolCall("convert", {"value": 8, "from_unit": "km", "to_unit": "mi"})
    assert parse_turn(turn, REQUEST) == (None, expected)
    body = '{"name": "convert", "arguments": {"value": 8, "from_unit": "km", "to_unit": "miles"}}'
    native = f"<tool_call>\n{body}\n</tool_call>"
    assert parse_native(native, REQUEST) == (None, expected)
    assert Grammar(native_gbnf(REQUEST)).accepts(native)


def test_a_typed_final_answer_keeps_the_enum_value() -> None:
    request = ModelRequest(messages=REQUEST.messages, output_schema={"type": "string", "enum": UNITS})
    assert parse_turn('{"final_answer": "gallons"}', request) == ('"gal"', None)


@pytest.mark.skipif(LLAMA is None, reason="llama_cpp is not built on this machine")
def test_the_grammars_parse_in_llama_cpp() -> None:
    schema = turn_schema(REQUEST)
    assert schema is not None
    assert llama_parses(schema_to_gbnf(schema)) and llama_parses(native_gbnf(REQUEST))
