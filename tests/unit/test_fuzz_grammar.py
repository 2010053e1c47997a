"""Fuzz: any JSON-Schema-like dict given to the grammar builder gives a GBNF grammar that llama.cpp parses, or a
UserError (ModelError for a schema nesting too deeply in `bound_schema`), never a raw exception or a hang."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fuzz_settings import awkward_text, count, fuzz, json_values, report_cases
from hypothesis import example, given
from hypothesis import strategies as st

from agentcore.errors import ModelError, UserError
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import ModelRequest, ToolSpec
from agentcore.turns import bound_schema, turn_schema


@pytest.fixture(scope="module", autouse=True)
def _cases(request: pytest.FixtureRequest) -> Iterator[None]:
    yield from report_cases(request)


# --- schemas ------------------------------------------------------------------------------------------------

TYPES = ["string", "integer", "number", "boolean", "null", "array", "object", "thing", 3, None]
DEF_NAMES = ["A", "B", "a/b", "~"]
REFS = [
    "#/$defs/A",
    "#/$defs/B",
    "#/$defs/a~1b",
    "#/$defs/~0",
    "#/definitions/A",
    "#/definitions/B",
    "#/$defs/missing",
    "#/definitions/",
    "#",
    "https://example.org/schema.json",
    5,
]
counts = st.one_of(
    st.integers(min_value=0, max_value=30),
    st.sampled_from([-1, 299, 300, 301, 10**9, 2.0, 2.5, True, None, "3", [], float("inf"), float("nan")]),
)
numbers = st.one_of(st.integers(), st.floats(), st.text(max_size=3))
prop_names = awkward_text


def typed(child: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas as tools write them: a type with the keywords that go with it."""
    string = st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "minLength": counts,
            "maxLength": counts,
            "pattern": st.text(max_size=8),
            "format": st.sampled_from(["date", "email", "uri"]),
        },
    )
    number = st.fixed_dictionaries(
        {"type": st.sampled_from(["integer", "number"])},
        optional={"minimum": numbers, "maximum": numbers, "exclusiveMaximum": numbers, "multipleOf": numbers},
    )
    array = st.fixed_dictionaries(
        {"type": st.just("array")},
        optional={"items": child, "minItems": counts, "maxItems": counts, "prefixItems": st.lists(child, max_size=2)},
    )
    obj = st.fixed_dictionaries(
        {"type": st.just("object")},
        optional={
            "properties": st.dictionaries(prop_names, child, max_size=4),
            "required": st.lists(prop_names, max_size=3),
            "additionalProperties": st.booleans() | child,
        },
    )
    choice = st.fixed_dictionaries({st.sampled_from(["anyOf", "oneOf", "allOf"]): st.lists(child, max_size=3)})
    fixed = st.fixed_dictionaries({"enum": st.lists(json_values, max_size=4)}) | st.fixed_dictionaries(
        {"const": json_values}
    )
    ref = st.fixed_dictionaries({"$ref": st.sampled_from(REFS)}, optional={"description": st.text(max_size=5)})
    return st.one_of(string, number, array, obj, choice, fixed, ref)


def wild(child: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Any keywords with any values: wrong types, empty lists, keywords that contradict each other."""
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), max_size=3),
            "minLength": counts,
            "maxLength": counts,
            "minItems": counts,
            "maxItems": counts,
            "enum": st.lists(json_values, max_size=3) | json_values,
            "const": json_values,
            "items": child | st.lists(child, max_size=2) | json_values,
            "properties": st.dictionaries(prop_names, child, max_size=3) | json_values,
            "required": st.lists(prop_names, max_size=3) | json_values,
            "anyOf": st.lists(child, max_size=2) | json_values,
            "oneOf": st.lists(child, max_size=2),
            "allOf": st.lists(child, max_size=2) | json_values,
            "$ref": st.sampled_from(REFS),
            "title": json_values,
            "examples": json_values,
            "default": json_values,
        },
    )


def nodes() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.just({}),
        st.just(True),
        st.just(False),
        st.sampled_from(TYPES).map(lambda kind: {"type": kind}),
        st.sampled_from(REFS).map(lambda ref: {"$ref": ref}),
    )
    return st.recursive(leaves, lambda child: typed(child) | wild(child), max_leaves=12)


def root_schemas() -> st.SearchStrategy[Any]:
    """A node, sometimes with $defs / definitions that the refs above name (and that may name themselves)."""
    defs = st.dictionaries(st.sampled_from(DEF_NAMES), nodes(), max_size=3)
    with_defs = st.tuples(nodes(), st.fixed_dictionaries({}, optional={"$defs": defs, "definitions": defs})).map(
        lambda pair: {**pair[0], **pair[1]} if isinstance(pair[0], dict) else pair[0]
    )
    return st.one_of(with_defs, nodes(), st.sampled_from([None, [], "string", 0]))


def deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "array", "items": node}
    return node


RECURSIVE = {"$defs": {"A": {"type": "object", "properties": {"next": {"$ref": "#/$defs/A"}}}}, "$ref": "#/$defs/A"}


# --- the checks -------------------------------------------------------------------------------------------------


def _llama_cpp() -> Any:
    try:
        import llama_cpp
    except Exception:  # not built on this machine: the grammar checks run without llama.cpp's own parser
        return None
    return llama_cpp


LLAMA = _llama_cpp()


def llama_parses(gbnf: str) -> bool:
    """llama.cpp's own GBNF parser (the one sampling uses) accepts the grammar; `LlamaGrammar.from_string` only
    stores the text, so the parse goes through `llama_sampler_init_grammar` with no vocabulary (no model)."""
    assert LLAMA is not None
    assert LLAMA.LlamaGrammar.from_string(gbnf, verbose=False) is not None
    sampler = LLAMA.llama_sampler_init_grammar(None, gbnf.encode(), b"root")
    if not sampler:
        return False
    LLAMA.llama_sampler_free(sampler)
    return True


def check_grammar(schema: Any) -> str | None:
    """The grammar of `schema`, or None when the builder refused it with a UserError. Any grammar is one text
    llama.cpp can read: `root` first, UTF-8 encodable, and (where llama_cpp is installed) parsed by llama.cpp."""
    try:
        gbnf = schema_to_gbnf(schema)
    except UserError:
        return None
    assert isinstance(gbnf, str) and gbnf.startswith("root ::= ") and gbnf.endswith("\n")
    gbnf.encode("utf-8")
    if LLAMA is not None:
        assert llama_parses(gbnf), gbnf
    return gbnf


@fuzz(250)
@given(root_schemas())
@example(deep(200))
@example({"type": "string", "minLength": 10, "maxLength": 3})
@example({"type": "array", "minItems": 5, "maxItems": 2})
@example({"type": "string", "minLength": 10**9})
@example({"enum": []})
@example({"anyOf": []})
@example({"type": []})
@example({"const": "\ud800"})
@example({"type": "object", "properties": {"\ud800": {}, '"': {}, "\n": {}}, "required": ['"']})
@example({"type": "object", "properties": [{"a": 1}]})
@example({"type": "object", "properties": {"a": {}}, "required": [["a"]]})
@example(RECURSIVE)
def test_schema_to_gbnf_gives_a_grammar_or_a_user_error(schema: Any) -> None:
    count("grammar.schema_to_gbnf")
    check_grammar(schema)


@fuzz(200)
@given(root_schemas(), st.integers(min_value=1, max_value=400))
@example(RECURSIVE, 300)
@example({"$defs": [], "type": "string"}, 300)
@example({"$ref": "#/$defs/A", "$defs": {"A": True}}, 1)
@example({"$ref": "#/$defs/A", "$defs": {"A": [1]}}, 1)
@example({"$ref": "#/definitions/A", "definitions": {"A": {"type": "string", "maxLength": 1000}}}, 300)
@example({"type": ["string", "null"], "minLength": 400}, 300)
@example({"type": "string", "maxLength": "long"}, 300)
def test_bound_schema_gives_a_schema_or_a_typed_error(schema: Any, max_string: int) -> None:
    count("turns.bound_schema")
    try:
        bounded = bound_schema(schema, max_string)
    except (UserError, ModelError):
        return
    assert isinstance(bounded, dict)
    assert not {"$defs", "definitions"} & set(bounded)
    gbnf = check_grammar(bounded)
    if gbnf is not None and bounded.get("type") == "string" and "enum" not in bounded and "const" not in bounded:
        assert bounded["maxLength"] <= max(max_string, bounded.get("minLength", 0))


tool_specs = st.builds(ToolSpec, name=awkward_text, description=st.text(max_size=20), parameters=root_schemas())


@fuzz(120)
@given(
    st.lists(tool_specs, max_size=3),
    st.none() | root_schemas(),
    st.booleans(),
    st.integers(min_value=-1, max_value=400),
)
def test_turn_schema_of_fuzzed_tools_gives_a_grammar_or_a_typed_error(
    tools: list[ToolSpec], output_schema: Any, allow_final: bool, think: int
) -> None:
    count("turns.turn_schema")
    request = ModelRequest(
        messages=(), tools=tuple(tools), output_schema=output_schema, allow_final=allow_final, think=think
    )
    try:
        schema = turn_schema(request)
    except (UserError, ModelError):
        return
    assert isinstance(schema, dict)
    check_grammar(schema)


def test_all_of_parts_are_merged_and_bad_nodes_are_named() -> None:
    direct = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    merged = {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}}], "required": ["a"]}
    assert schema_to_gbnf(merged) == schema_to_gbnf(direct)
    with pytest.raises(UserError, match="minLength=10 is over maxLength=3"):
        schema_to_gbnf({"type": "string", "minLength": 10, "maxLength": 3})
    with pytest.raises(UserError, match="unresolved \\$ref '#/\\$defs/B'"):
        bound_schema({"$defs": {"A": {}}, "$ref": "#/$defs/B"})
