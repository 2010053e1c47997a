"""The value-along-schema walk shared by the turn's cut-backs (agentcore.schema_walk)."""

from __future__ import annotations

from typing import Any

from agentcore.schema_walk import same, walk


def _upper(value: Any, schema: dict[str, Any]) -> Any:
    return value.upper() if isinstance(value, str) and schema.get("x-upper") else value


def test_walk_goes_down_properties_items_and_the_first_branch_that_changes() -> None:
    loud = {"type": "string", "x-upper": True}
    schema = {
        "type": "object",
        "properties": {"a": loud, "b": {"type": "array", "items": loud}, "c": {"anyOf": [{"type": "string"}, loud]}},
    }
    value = {"a": "x", "b": ["y", "z"], "c": "w", "d": "left"}
    assert walk(value, schema, _upper) == {"a": "X", "b": ["Y", "Z"], "c": "W", "d": "left"}
    assert walk("q", None, _upper) == "q"


def test_same_tells_types_apart_all_the_way_down() -> None:
    assert same({"a": [1, 2.5]}, {"a": [1, 2.5]})
    assert not same(4, 4.0) and not same({"a": [4]}, {"a": [4.0]})
    assert not same([1], [1, 2]) and not same({"a": 1}, {"b": 1}) and not same(True, 1)
