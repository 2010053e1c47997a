"""Enum words written out in full: the grammar lets them run on, the parsed call keeps the longest value."""

from __future__ import annotations

from typing import Literal

import pytest
from test_fuzz_grammar import LLAMA, llama_parses
from test_grammar import Grammar

from agentcore.agent import Agent
from agentcore.enum_tails import meant, resolve
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import Message, ModelRequest, ToolCall, ToolSpec
from agentcore.models.native import native_gbnf, parse_native
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
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


# --- a value the model closed itself, read from the task's word (`meant`) -------------------------------------


@pytest.mark.parametrize(
    ("task", "written", "runs"),
    [
        ("A runner covers 5 miles each day. How many km is that?", "m", "mi"),  # "many" is a function word
        ("Convert 2 gallons to liters.", "g", "gal"),
        ("Convert 8 meters to km.", "m", "m"),  # the word names the value written
        ("Convert 8 meters to miles.", "m", "m"),  # "meters" and "miles" disagree
        ("Convert 5 m to miles.", "m", "m"),  # the task writes the value itself
        ("Convert 5 feet to cm.", "F", "F"),  # "feet" starts with no longer value
        ("Convert 2 kilograms to pounds.", "km", "km"),  # no word starts with it: the model's to answer for
    ],
)
def test_a_value_that_only_starts_the_tasks_word_runs_as_that_word(task: str, written: str, runs: str) -> None:
    arguments = {"value": 5, "from_unit": written, "to_unit": "km"}
    assert meant(arguments, CONVERT.parameters, task)["from_unit"] == runs


def test_meant_returns_the_same_dict_when_nothing_changes() -> None:
    arguments = {"value": 5, "from_unit": "mi", "to_unit": "km"}
    assert meant(arguments, CONVERT.parameters, "Convert 5 miles to km.") is arguments
    assert meant({"value": 5}, {"type": "object"}, "5 miles") == {"value": 5}


Unit = Literal["km", "m", "mi", "l", "gal", "g"]


@tool
def convert(value: float, from_unit: Unit, to_unit: Unit) -> str:
    """Convert a value between units.

    Args:
        value: The number.
        from_unit: Unit of the value.
        to_unit: Unit to convert to.
    """
    return "8.05" if from_unit == "mi" else "0.005"


async def test_the_loop_runs_the_call_with_the_value_the_task_names() -> None:
    model = ScriptedModel([call("convert", value=5, from_unit="m", to_unit="km"), "8.05"])
    result = await Agent(model, tools=[convert]).run("A runner covers 5 miles. How many km is that?")
    assert [step.call.arguments["from_unit"] for step in result.steps if step.call] == ["mi"]
    assert result.output == "8.05"
    assert len(model.requests) == 2  # no turn held back
