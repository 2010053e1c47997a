"""Real MCP-style schemas through the $ref pre-pass and the grammar: pydantic's $defs, older definitions,
zod's JSON-Pointer refs, allOf, recursion; and the list of keywords the grammar does not enforce."""

from __future__ import annotations

import pytest

from agentcore.errors import UserError
from agentcore.grammar import schema_to_gbnf
from agentcore.schema_refs import resolve_refs, unenforced
from tests.unit.test_grammar import Grammar, llama_parses

POINT = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}


def accepts(schema: dict[str, object], text: str) -> bool:
    gbnf = schema_to_gbnf(schema)
    assert llama_parses(gbnf)
    return Grammar(gbnf).accepts(text)


def test_defs_and_definitions_refs_are_inlined_and_enforced() -> None:
    for table in ("$defs", "definitions"):
        schema = {
            "type": "object",
            table: {"Point": POINT},
            "properties": {"p": {"$ref": f"#/{table}/Point"}},
            "required": ["p"],
        }
        resolved = resolve_refs(schema)
        assert resolved["properties"]["p"] == POINT and table not in resolved
        assert accepts(schema, '{"p":{"x":3}}')
        assert not accepts(schema, '{"p":{"x":"3"}}')  # before the pre-pass, $ref meant "any value"


def test_json_pointer_refs_into_properties_as_zod_writes_them() -> None:
    schema = {
        "type": "object",
        "properties": {
            "home": POINT,
            "work": {"$ref": "#/properties/home"},
        },
        "required": ["home", "work"],
    }
    assert accepts(schema, '{"home":{"x":1},"work":{"x":2}}')
    assert not accepts(schema, '{"home":{"x":1},"work":"office"}')


def test_ref_with_sibling_keywords_becomes_all_of_and_the_grammar_merges_it() -> None:
    schema = {
        "type": "object",
        "$defs": {"Base": POINT},
        "properties": {"p": {"$ref": "#/$defs/Base", "properties": {"y": {"type": "boolean"}}, "required": ["y"]}},
        "required": ["p"],
    }
    assert resolve_refs(schema)["properties"]["p"]["allOf"][0] == POINT
    assert accepts(schema, '{"p":{"x":1,"y":true}}')
    assert not accepts(schema, '{"p":{"x":1}}')


def test_a_recursive_schema_is_cut_to_any_value_not_an_endless_grammar() -> None:
    tree = {
        "type": "object",
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["name"],
            }
        },
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
    }
    assert accepts(tree, '{"root":{"name":"a","children":[{"name":"b"}]}}')
    assert not accepts(tree, '{"root":{"children":[]}}')  # the first levels are still typed


def test_refs_that_point_nowhere_or_outside_are_user_errors() -> None:
    with pytest.raises(UserError, match="unresolved"):
        resolve_refs({"properties": {"a": {"$ref": "#/$defs/Missing"}}})
    with pytest.raises(UserError, match="outside"):
        resolve_refs({"properties": {"a": {"$ref": "https://example.com/s.json"}}})


def test_data_named_ref_in_enum_or_default_is_left_alone() -> None:
    schema = {"type": "object", "properties": {"a": {"enum": [{"$ref": "x"}], "default": {"$ref": "y"}}}}
    assert resolve_refs(schema) == schema


def test_unenforced_lists_what_the_grammar_cannot_check() -> None:
    schema = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "n": {"type": "integer", "minimum": 0, "maximum": 9},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "additionalProperties": False,  # enforced: the grammar writes only declared properties
    }
    assert unenforced(schema) == [
        "/code: pattern",
        "/tags: additionalProperties",  # numeric bounds are enforced: not listed
    ]
    assert unenforced(POINT) == []
