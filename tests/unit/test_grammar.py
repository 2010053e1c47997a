"""JSON Schema -> GBNF: each grammar parses in llama.cpp and accepts exactly the right turns.

`LlamaGrammar.from_string` (llama-cpp-python 0.3) only stores the text, so validity is checked with the C
parser of llama.cpp through `llama_sampler_init_grammar` with no vocabulary: it parses without one, and no
model is loaded. Acceptance is checked with a small GBNF matcher below, for the subset the converter writes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from agentcore.errors import UserError
from agentcore.grammar import literal, schema_to_gbnf
from agentcore.messages import ModelRequest
from agentcore.tools.function import tool
from agentcore.turns import turn_schema

# --- a small GBNF matcher -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Cls:
    negated: bool
    ranges: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Rep:
    node: Node
    low: int
    high: int | None


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


Node = Lit | Cls | Ref | Rep | Seq | Alt


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def peek(self) -> str:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def char(self) -> str:
        ch = self.text[self.pos]
        self.pos += 1
        if ch != "\\":
            return ch
        esc = self.text[self.pos]
        self.pos += 1
        if esc == "x":
            self.pos += 2
            return chr(int(self.text[self.pos - 2 : self.pos], 16))
        return {"n": "\n", "r": "\r", "t": "\t"}.get(esc, esc)

    def alt(self) -> Node:
        options = [self.seq()]
        while self.peek() == "|":
            self.pos += 1
            options.append(self.seq())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def seq(self) -> Node:
        items: list[Node] = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.postfix())
        return Seq(tuple(items))

    def postfix(self) -> Node:
        node = self.atom()
        while (ch := self.peek()) in ("?", "*", "+", "{"):
            if ch == "{":
                match = re.compile(r"\{(\d+)(,(\d*))?\}").match(self.text, self.pos)
                assert match, self.text[self.pos :]
                self.pos = match.end()
                low, comma, high = int(match.group(1)), match.group(2), match.group(3)
                node = Rep(node, low, low if comma is None else int(high) if high else None)
            else:
                self.pos += 1
                node = Rep(node, *{"?": (0, 1), "*": (0, None), "+": (1, None)}[ch])
        return node

    def atom(self) -> Node:
        ch = self.peek()
        if ch == '"':
            self.pos += 1
            out = []
            while self.text[self.pos] != '"':
                out.append(self.char())
            self.pos += 1
            return Lit("".join(out))
        if ch == "[":
            return self.char_class()
        if ch == "(":
            self.pos += 1
            inner = self.alt()
            assert self.peek() == ")"
            self.pos += 1
            return inner
        match = re.compile(r"[A-Za-z0-9_-]+").match(self.text, self.pos)
        assert match, f"unexpected GBNF at {self.text[self.pos :]!r}"
        self.pos = match.end()
        return Ref(match.group())

    def char_class(self) -> Node:
        self.pos += 1
        negated = self.text[self.pos] == "^"
        self.pos += negated
        ranges: list[tuple[str, str]] = []
        while self.text[self.pos] != "]":
            low = self.char()
            high = low
            if self.text[self.pos] == "-" and self.text[self.pos + 1] != "]":
                self.pos += 1
                high = self.char()
            ranges.append((low, high))
        self.pos += 1
        return Cls(negated, tuple(ranges))


class Grammar:
    def __init__(self, gbnf: str) -> None:
        self.rules: dict[str, Node] = {}
        for line in gbnf.splitlines():
            if line.strip():
                name, _, body = line.partition(" ::= ")
                self.rules[name.strip()] = _Parser(body).alt()

    def accepts(self, text: str) -> bool:
        self._text, self._memo = text, {}
        return len(text) in self._ends(self.rules["root"], 0)

    def _ends(self, node: Node, pos: int) -> frozenset[int]:
        key = (id(node), pos)
        if key not in self._memo:
            self._memo[key] = frozenset()
            self._memo[key] = self._compute(node, pos)
        return self._memo[key]

    def _compute(self, node: Node, pos: int) -> frozenset[int]:
        if isinstance(node, Lit | Cls):
            return self._terminal(node, pos)
        if isinstance(node, Ref):
            return self._ends(self.rules[node.name], pos)
        if isinstance(node, Alt):
            return frozenset().union(*(self._ends(option, pos) for option in node.options))
        if isinstance(node, Seq):
            current = frozenset({pos})
            for item in node.items:
                current = frozenset().union(*(self._ends(item, p) for p in current))
            return current
        return self._repeat(node, pos)

    def _terminal(self, node: Lit | Cls, pos: int) -> frozenset[int]:
        text = self._text
        if isinstance(node, Lit):
            return frozenset({pos + len(node.text)}) if text.startswith(node.text, pos) else frozenset()
        if pos >= len(text):
            return frozenset()
        inside = any(low <= text[pos] <= high for low, high in node.ranges)
        return frozenset({pos + 1}) if inside != node.negated else frozenset()

    def _repeat(self, node: Rep, pos: int) -> frozenset[int]:
        high = node.high if node.high is not None else len(self._text) + 1
        current, found = frozenset({pos}), set()
        if node.low == 0:
            found.add(pos)
        for count in range(1, high + 1):
            current = frozenset().union(*(self._ends(node.node, p) for p in current))
            if not current:
                break
            if count >= node.low:
                found |= current
        return frozenset(found)


def llama_parses(gbnf: str) -> bool:
    """llama.cpp's own GBNF parser (the one sampling uses) accepts the grammar."""
    import llama_cpp

    assert llama_cpp.LlamaGrammar.from_string(gbnf, verbose=False) is not None
    sampler = llama_cpp.llama_sampler_init_grammar(None, gbnf.encode(), b"root")
    if not sampler:
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True


def test_the_checks_themselves_can_fail() -> None:
    assert not llama_parses('root ::= "a" missing\n')
    assert not llama_parses('root ::= "unterminated\n')
    grammar = Grammar('root ::= "a" [0-9]{1,2} ( "," x )?\nx ::= [^"\\\\]\n')
    assert grammar.accepts("a1") and grammar.accepts("a12,q")
    assert not grammar.accepts("a") and not grammar.accepts("a123") and not grammar.accepts('a1,"')


# --- the turn grammar ---------------------------------------------------------------------------------------


class Address(BaseModel):
    city: str
    zip_code: int


@tool
def search(query: str, limit: int = 5, tags: list[str] | None = None) -> str:
    """Search the notes."""
    return query


@tool
def convert(value: float, unit: Literal["c", "f"]) -> str:
    """Convert a temperature."""
    return f"{value}{unit}"


@tool
def ship(to: Address, express: bool = False) -> str:
    """Ship a parcel."""
    return to.city


@pytest.fixture(scope="module")
def turn_gbnf() -> str:
    request = ModelRequest(messages=(), tools=(search.spec(), convert.spec(), ship.spec()))
    schema = turn_schema(request)
    assert schema is not None
    return schema_to_gbnf(schema)


def test_turn_grammar_parses_in_llama_cpp(turn_gbnf: str) -> None:
    assert turn_gbnf.startswith("root ::= ")
    assert llama_parses(turn_gbnf)


@pytest.mark.parametrize(
    "text",
    [
        '{"tool": "search", "arguments": {"query": "cats"}}',
        '{"tool":"search","arguments":{"query":"cats","limit":-3,"tags":["a", "b"]}}',
        '{"tool": "search", "arguments": {"query": "say \\"hi\\"\\n", "tags": null}}',
        '{"tool": "convert", "arguments": {"value": -2.5e3, "unit": "f"}}',
        '{"tool": "ship", "arguments": {"to": {"city": "Oslo", "zip_code": 150}, "express": true}}',
        '{"final_answer": "done"}',
        '{"final_answer": 42.5}',
    ],
)
def test_turn_grammar_accepts_valid_turns(turn_gbnf: str, text: str) -> None:
    json.loads(text)  # the examples are JSON themselves
    assert Grammar(turn_gbnf).accepts(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"arguments": {"query": "cats"}, "tool": "search"}',  # property order is fixed: tool first
        '{"tool": "delete", "arguments": {"query": "cats"}}',  # not an offered tool
        '{"tool": "convert", "arguments": {"value": 1, "unit": "k"}}',  # not in the enum
        '{"tool": "search", "arguments": {"query": "cats", "limit": "3"}}',  # integer as string
        '{"tool": "ship", "arguments": {"to": {"city": "Oslo", "zip_code": 1.5}}}',  # not an integer
        '{"tool": "ship", "arguments": {"express": true}}',  # required argument missing
        '{"tool": "search", "arguments": {"query": "cats", "extra": 1}}',  # unknown argument
        '{"tool": "search", "arguments": {"query": "two\nlines"}}',  # raw control character
        '{"final_answer": "' + "x" * 301 + '"}',  # longer than the string bound
        '{"final_answer": "done"} trailing',
    ],
)
def test_turn_grammar_rejects_invalid_turns(turn_gbnf: str, text: str) -> None:
    assert not Grammar(turn_gbnf).accepts(text)


def test_turn_grammar_keeps_tool_key_before_arguments(turn_gbnf: str) -> None:
    branch = next(line for line in turn_gbnf.splitlines() if '\\"search\\"' in line)
    obj = next(line for line in turn_gbnf.splitlines() if branch.split(" ::= ")[0] in line.split(" ::= ")[1])
    assert obj.index('"\\"tool\\""') < obj.index('"\\"arguments\\""')


# --- bounds, order, escaping --------------------------------------------------------------------------------


def test_strings_and_arrays_use_bounded_repetition() -> None:
    gbnf = schema_to_gbnf(
        {
            "type": "object",
            "properties": {
                "short": {"type": "string", "minLength": 2, "maxLength": 10},
                "long": {"type": "string", "maxLength": 5000},
                "items": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
            },
            "required": ["short", "long", "items"],
        }
    )
    assert "char{2,10}" in gbnf
    assert "char{0,300}" in gbnf and "5000" not in gbnf  # capped at MAX_STRING
    assert "){0,2}" in gbnf  # three items: one, then up to two more
    assert "*" not in gbnf and "+" not in gbnf.replace("[-+]", "")  # no unbounded repetition anywhere
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    assert grammar.accepts('{"short": "ab", "long": "", "items": [1, 2, 3]}')
    assert not grammar.accepts('{"short": "a", "long": "", "items": []}')
    assert not grammar.accepts('{"short": "ab", "long": "", "items": [1, 2, 3, 4]}')


def test_property_order_of_the_schema_is_kept() -> None:
    schema = {
        "type": "object",
        "properties": {"zeta": {"type": "integer"}, "alpha": {"type": "integer"}, "mid": {"type": "boolean"}},
        "required": ["zeta", "alpha"],
    }
    grammar = Grammar(schema_to_gbnf(schema))
    assert grammar.accepts('{"zeta": 1, "alpha": 2}')
    assert grammar.accepts('{"zeta": 1, "alpha": 2, "mid": false}')
    assert not grammar.accepts('{"alpha": 2, "zeta": 1}')


def test_object_with_only_optional_properties_accepts_both() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}
    grammar = Grammar(schema_to_gbnf(schema))
    assert grammar.accepts('{"a": 1, "b": 2}')
    assert not grammar.accepts('{"a": 1"b": 2}')


def test_optional_properties_come_in_any_order_each_at_most_once() -> None:
    # BFCL live_multiple_1-0-1: the user names sweetness before temperature; schema order forced another key.
    props = {k: {"type": "string", "enum": ["x", "y"]} for k in ("size", "temperature", "sweetness", "milk")}
    for required in ([], ["size"]):
        gbnf = schema_to_gbnf({"type": "object", "properties": props, "required": required})
        assert llama_parses(gbnf)
        grammar = Grammar(gbnf)
        head = '"size": "x", ' if required else ""
        assert grammar.accepts("{" + head + '"sweetness": "x", "temperature": "y"}')
        assert grammar.accepts("{" + head + '"milk": "x", "temperature": "y", "sweetness": "x"}')
        assert not grammar.accepts("{" + head + '"milk": "x", "milk": "y"}')
        assert grammar.accepts('{"temperature": "y", "size": "x"}') == (not required)  # required ones come first
    assert Grammar(schema_to_gbnf({"type": "object", "properties": props})).accepts("{}")


def test_many_optional_properties_keep_schema_order() -> None:
    props = {f"p{i}": {"type": "integer"} for i in range(8)}  # over the cap of 2**n rules
    grammar = Grammar(schema_to_gbnf({"type": "object", "properties": props}))
    assert grammar.accepts('{"p1": 1, "p5": 2}')
    assert not grammar.accepts('{"p5": 2, "p1": 1}')


def test_free_form_values_close_after_a_newline() -> None:
    # A pretty-printing model (native tool format) writes "\n}" to close a dict; without whitespace before the
    # bracket the grammar pushed it on to invent keys (BFCL multiple_9).
    gbnf = schema_to_gbnf({"type": "object", "properties": {"d": {"type": "object"}, "l": {"type": "array"}}})
    grammar = Grammar(gbnf.replace('ws ::= " "?', "ws ::= [ \\n]{0,4}"))
    assert grammar.accepts('{"d": {"math": 90,\n "art": 75\n}, "l": [1,\n 2\n]}')


def test_numbers_admitted_by_the_grammar_are_json() -> None:
    grammar = Grammar(schema_to_gbnf({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}))
    assert grammar.accepts('{"n": 0}') and grammar.accepts('{"n": -10}')
    assert not grammar.accepts('{"n": 007}')  # json.loads('{"n": 007}') raises


def test_a_float_format_number_may_close_without_a_fraction() -> None:
    """OpenAPI's `format: float` (BFCL's floats): a grammar that forbids `120` pushes a model that means 120 into
    `120000000000000.0`; the whole number is let through and read back as a float (agentcore.float_args)."""
    items = {"type": "array", "items": {"type": "number", "format": "float"}}
    gbnf = schema_to_gbnf({"type": "object", "properties": {"xs": items, "n": {"type": "number"}}})
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    assert grammar.accepts('{"xs": [1.0, -2.5, 3.25e2]}') and grammar.accepts('{"n": 1}')
    assert grammar.accepts('{"xs": [120, 30]}')


def test_literal_escapes_quotes_backslashes_and_newlines() -> None:
    assert literal('say "hi"') == '"say \\"hi\\""'
    assert literal("a\\b\nc\rd") == '"a\\\\b\\nc\\rd"'
    values: list[Any] = ['a"b', "c\\d", "café", 3, None]
    gbnf = schema_to_gbnf({"enum": values})
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    for value in values:
        assert grammar.accepts(json.dumps(value, ensure_ascii=False))
    assert not grammar.accepts('"ab"') and not grammar.accepts('"a\\\\"b"')


def test_const_and_boolean_and_any_value() -> None:
    gbnf = schema_to_gbnf(
        {
            "type": "object",
            "properties": {"kind": {"const": "x"}, "flag": {"type": "boolean"}, "extra": {}},
            "required": ["kind", "flag", "extra"],
        }
    )
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    assert grammar.accepts('{"kind": "x", "flag": true, "extra": {"k": 1}}')
    assert grammar.accepts('{"kind": "x", "flag": false, "extra": [1, "a", null]}')
    assert not grammar.accepts('{"kind": "y", "flag": true, "extra": 1}')


def test_unsupported_schema_node_is_a_user_error() -> None:
    with pytest.raises(UserError, match="unsupported JSON Schema node"):
        schema_to_gbnf({"type": "object", "properties": {"a": 5}, "required": ["a"]})


def test_tool_without_parameters_accepts_only_an_empty_object() -> None:
    grammar = Grammar(schema_to_gbnf({"type": "object", "properties": {}}))
    assert grammar.accepts("{}")
    assert not grammar.accepts('{"x": 1}')


# --- numeric bounds and free-form values ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "inside", "outside"),
    [
        ({"minimum": 18, "maximum": 30}, [18, 19, 25, 29, 30], [17, 31, 0, 250000000000000, -18, 180]),
        ({"minimum": 0, "maximum": 100}, [0, 7, 10, 99, 100], [-1, 101, 1000]),
        ({"minimum": -5, "maximum": 5}, [-5, -1, 0, 3, 5], [-6, 6, -10]),
        ({"minimum": -120, "maximum": -7}, [-120, -99, -10, -7], [-6, -121, 0, 7]),
        ({"exclusiveMinimum": 0, "exclusiveMaximum": 10}, [1, 9], [0, 10]),
        ({"minimum": 0, "exclusiveMinimum": True, "maximum": 3}, [1, 3], [0, 4]),  # draft 4's boolean form
        ({"minimum": 1.5, "maximum": 3.5}, [2, 3], [1, 4]),
        ({"minimum": 1}, [1, 2, 999999999999999], [0, -1]),
        ({"maximum": 123}, [-999, 0, 123], [124, 1000]),
    ],
)
def test_integer_bounds_are_exact(bounds: dict[str, Any], inside: list[int], outside: list[int]) -> None:
    gbnf = schema_to_gbnf({"type": "integer", **bounds})
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    assert [n for n in inside if not grammar.accepts(str(n))] == []
    assert [n for n in outside if grammar.accepts(str(n))] == []


def test_integer_bounds_match_every_value_of_a_random_range() -> None:
    import random

    rng = random.Random(7)
    for _ in range(25):
        lo = rng.randint(-5000, 5000)
        hi = lo + rng.randint(0, 3000)
        grammar = Grammar(schema_to_gbnf({"type": "integer", "minimum": lo, "maximum": hi}))
        for n in range(lo - 30, hi + 31, max(1, (hi - lo) // 50)):
            assert grammar.accepts(str(n)) == (lo <= n <= hi), (lo, hi, n)


def test_number_bounds_keep_sign_and_integer_part() -> None:
    grammar = Grammar(schema_to_gbnf({"type": "number", "minimum": 0, "maximum": 1}))
    assert all(grammar.accepts(t) for t in ["0", "0.25", "1", "1.0"])
    assert not any(grammar.accepts(t) for t in ["-0.5", "2", "10", "1e5"])
    negative = Grammar(schema_to_gbnf({"type": "number", "minimum": -2.5, "maximum": 0}))
    assert negative.accepts("-2.5") and negative.accepts("-0.1") and negative.accepts("0")
    assert not negative.accepts("-40") and not negative.accepts("3")


def test_bounds_that_admit_nothing_are_a_user_error() -> None:
    with pytest.raises(UserError, match="admit no integer"):
        schema_to_gbnf({"type": "integer", "minimum": 5, "maximum": 4})
    with pytest.raises(UserError, match="must be numbers"):
        schema_to_gbnf({"type": "integer", "minimum": "five"})
    with pytest.raises(UserError, match="admits no number"):
        schema_to_gbnf({"type": "number", "minimum": float("inf")})
    assert Grammar(schema_to_gbnf({"type": "integer", "minimum": float("-inf"), "maximum": 3})).accepts("-7")


def test_free_form_objects_keep_one_level_of_nesting() -> None:
    gbnf = schema_to_gbnf({"type": "object", "properties": {"meta": {"type": "object"}}, "required": ["meta"]})
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    assert grammar.accepts('{"meta": {"a": 1, "tags": ["x", "y"], "size": {"w": 2, "h": 3}}}')
    assert grammar.accepts('{"meta": {}}')
    assert not grammar.accepts('{"meta": {"a": {"b": {"c": 1}}}}')  # two levels inside, no deeper


def test_a_place_documented_as_city_and_state_takes_two_to_four_parts() -> None:
    docs = "The city and state, e.g. San Francisco, CA"
    gbnf = schema_to_gbnf({"type": "object", "properties": {"city": {"type": "string", "description": docs}}})
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    inside = ["San Francisco, CA", "London, UK", "123 Main St, Springfield, IL", "Tokyo, Japan"]
    outside = ["San Francisco", "Chicago,IL", ", CA", "Chicago, ", "A, B, C, D, E"]
    assert [t for t in inside if not grammar.accepts(json.dumps({"city": t}))] == []
    assert [t for t in outside if grammar.accepts(json.dumps({"city": t}))] == []
    bounded = {"type": "string", "description": docs, "maxLength": 300}  # as turns.bound_schema writes every string
    assert not Grammar(schema_to_gbnf(bounded)).accepts('"San Francisco"')
    short = {"type": "string", "description": docs, "maxLength": 12}  # no room for the rule: the bounds hold
    assert Grammar(schema_to_gbnf(short)).accepts('"Paris"')
    plain = Grammar(schema_to_gbnf({"type": "string", "description": "The name of the city"}))
    assert plain.accepts('"San Francisco"')
