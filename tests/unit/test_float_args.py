"""Whole numbers for float-format parameters read back as floats (agentcore.float_args), and through a turn."""

from __future__ import annotations

from typing import Any

from agentcore.float_args import as_floats
from agentcore.messages import ModelRequest, ToolSpec
from agentcore.turns import parse_turn

FLOAT = {"type": "number", "format": "float"}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "mass": FLOAT,
        "count": {"type": "integer"},
        "plain": {"type": "number"},
        "prices": {"type": "array", "items": FLOAT},
        "point": {"type": "object", "properties": {"x": {"type": "number", "format": "double"}}},
        "either": {"anyOf": [{"type": "string"}, FLOAT]},
        "flag": {"type": "boolean"},
    },
}


def test_ints_become_floats_only_where_the_schema_says_float_or_double() -> None:
    value = {"mass": 120, "count": 3, "plain": 7, "prices": [0.1, 10], "point": {"x": 2}, "either": 4, "flag": True}
    out = as_floats(value, SCHEMA)
    assert out == {"mass": 120.0, "count": 3, "plain": 7, "prices": [0.1, 10.0], "point": {"x": 2.0}, "either": 4.0,
                   "flag": True}  # fmt: skip
    assert [type(out[k]) for k in ("mass", "count", "plain", "either")] == [float, int, int, float]
    assert type(out["prices"][1]) is float and type(out["point"]["x"]) is float


def test_booleans_strings_and_unknown_keys_are_left_alone() -> None:
    value = {"mass": True, "either": "4", "other": 5}
    assert as_floats(value, SCHEMA) == value
    assert as_floats(value, SCHEMA)["mass"] is True
    assert as_floats(5, None) == 5


def test_a_parsed_turn_gives_the_float_a_whole_number_was_written_for() -> None:
    spec = ToolSpec(name="density", description="Density of an object.", parameters=SCHEMA)
    request = ModelRequest(messages=[], tools=[spec], constrain=True)
    _, call = parse_turn('{"tool": "density", "arguments": {"mass": 120, "count": 2, "prices": [1, 2.5]}}', request)
    assert call is not None
    assert call.arguments == {"mass": 120.0, "count": 2, "prices": [1.0, 2.5]}
    assert type(call.arguments["mass"]) is float and type(call.arguments["count"]) is int
