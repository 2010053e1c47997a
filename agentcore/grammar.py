"""JSON Schema -> GBNF for llama.cpp, for the subset of JSON Schema that tool arguments and outputs use.

Why not llama-cpp-python's own converter: it expands `maxLength: 300` into 300 nested optional groups, which makes
grammar sampling crawl (40 s for one turn here), and its string rule admits raw newlines, so a small model can fill
a string with them until max_tokens. GBNF has bounded repetition (`x{0,300}`), and strings here admit no raw
control characters. Required properties keep schema order and come first; optional ones follow in any order, each
at most once. Closing brackets may follow whitespace (a model that pretty-prints must be able to close a
free-form object instead of being pushed on to another key).

Any schema gives a grammar that llama.cpp parses, or a UserError naming the bad node. Local `$ref`s are resolved
first (schema_refs), `allOf` parts are merged, numeric bounds are enforced (grammar_ranges: integers exactly,
decimals by sign and integer part); a whole number of `format: float` or `double` may be written without a fraction
(agentcore.float_args reads it back as a float: a grammar that forbids closing after "120" gets 120000000000000.0);
`pattern`, other formats and schema-valued `additionalProperties` are not (`schema_refs.unenforced` lists them).
"""

from __future__ import annotations

import json
import math
from typing import Any

from agentcore.doc_choices import documented_choices
from agentcore.enum_tails import tail_rule
from agentcore.errors import UserError
from agentcore.formats import two_part_form
from agentcore.grammar_ranges import has_bounds, integer_rule, number_rule
from agentcore.schema_refs import resolve_refs

MAX_STRING = 300
MAX_ITEMS = 20
ANY_ORDER_MAX = 6  # optional properties written in any order up to this many (2**n grammar rules), else in order
MAX_DEPTH = 64  # nested schema nodes; deeper is a generated or recursive schema, not a tool's arguments

PRIMITIVES = {
    "ws": '" "?',
    "char": r'[^"\\\x00-\x1f] | "\\" ["\\/nt]',
    "integer": '"-"? ("0" | [1-9] [0-9]{0,14})',
    "number": '"-"? ("0" | [1-9] [0-9]{0,14}) ("." [0-9]{1,10})? ([eE] [-+]? [0-9]{1,3})?',
    "boolean": '"true" | "false"',
    "null": '"null"',
    "anystring": '"\\"" char{0,' + str(MAX_STRING) + '} "\\""',
    "scalar": "anystring | number | boolean | null",
    # Free-form values nest two levels (an object of lists, a list of objects), not more: a dict without listed
    # properties keeps its structure instead of being flattened, and recursion cannot run on to max_tokens.
    "flatobject": '"{" ws ( anystring ws ":" ws scalar ( "," ws anystring ws ":" ws scalar ){0,15} )? ws "}"',
    "flatarray": '"[" ws ( scalar ( "," ws scalar ){0,19} )? ws "]"',
    "innervalue": "scalar | flatobject | flatarray",
    "anyobject": '"{" ws ( anystring ws ":" ws innervalue ( "," ws anystring ws ":" ws innervalue ){0,15} )? ws "}"',
    "anyvalue": 'scalar | anyobject | "[" ws ( innervalue ( "," ws innervalue ){0,19} )? ws "]"',
}

# A place whose docs ask for the city and its state or country ("City, State (abbr)", "e.g. Chicago, IL"): two to
# four comma-joined parts. The model writes the city alone whatever the docs say (agentcore.formats); BFCL's dev
# ground truth writes two parts in 209 of 214 such values.
_PART = r'[^", \\\x00-\x1f] [^",\\\x00-\x1f]{0,99}'
TWO_PART_STRING = rf'"\"" {_PART} ("," " " {_PART}){{1,3}} "\""'


def _fits_two_parts(schema: dict[str, Any]) -> bool:
    """The string bounds leave room for the two-part rule: no minimum over 4, no maximum under turns' cap."""
    return _count(schema, "minLength", 0) <= 4 and _count(schema, "maxLength", MAX_STRING) >= MAX_STRING


def literal(text: str) -> str:
    """A GBNF string literal matching `text` exactly."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def _json_literal(value: Any, where: str) -> str:
    """The GBNF literal of `value`'s JSON text."""
    return literal(_json_text(value, where))


def _json_text(value: Any, where: str) -> str:
    """`value` as JSON, UTF-8 kept raw where it can be encoded (fewer tokens)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate cannot be: write it as a JSON escape instead
    except UnicodeEncodeError:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise UserError(f"{where} holds a value that is not JSON: {value!r:.80}") from exc
    return text


def _enum_literal(value: Any) -> str:
    """An enum value; a word may run on past it ("miles" for "mi"): agentcore.enum_tails cuts it back."""
    if not (isinstance(value, str) and value[-1:].isalpha()):
        return _json_literal(value, "enum")
    opened = _json_text(value, "enum")[:-1]  # the JSON string without its closing quote
    return f"{literal(opened)} {tail_rule()} {literal(chr(34))}"


def _count(schema: dict[str, Any], key: str, default: int, limit: int | None = None) -> int:
    """A non-negative integer keyword (`maxLength`, `minItems`...), checked."""
    value = schema.get(key, default)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UserError(f"{key} must be a non-negative integer, got {value!r:.80}")
    if limit is not None and value > limit:
        raise UserError(f"{key}={value} is over this grammar's limit of {limit}")
    return value


def _schemas(schema: dict[str, Any], key: str) -> list[Any]:
    parts = schema[key]
    if not isinstance(parts, list) or not parts:
        raise UserError(f"{key} must be a non-empty list, got {parts!r:.80}")
    return parts


def _merge_all_of(schema: dict[str, Any]) -> dict[str, Any]:
    """`allOf` as one schema: the parts' keywords merged into the node's own (properties and required joined).
    Looser than JSON Schema's intersection where parts disagree, which tool schemas do not."""
    merged = {key: value for key, value in schema.items() if key != "allOf"}
    for part in _schemas(schema, "allOf"):
        if part is True or part == {}:
            continue
        if not isinstance(part, dict):
            raise UserError(f"unsupported JSON Schema node in allOf: {part!r:.80}")
        for key, value in part.items():
            if key == "properties" and isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            elif key == "required" and isinstance(value, list) and isinstance(merged.get(key), list):
                merged[key] = [*merged[key], *value]
            else:
                merged[key] = value
    return merged


class _Builder:
    def __init__(self) -> None:
        self.rules: dict[str, str] = dict(PRIMITIVES)
        self._by_body: dict[str, str] = {body: name for name, body in PRIMITIVES.items()}
        self._depth = 0
        self._open_sets: dict[tuple[tuple[str, ...], bool], str] = {}  # _any_order's rule per set of open pairs

    def rule(self, body: str, hint: str = "r") -> str:
        """The name of a rule with this body, adding it if new (identical bodies share one rule)."""
        if body in self._by_body:
            return self._by_body[body]
        name = f"{hint}{len(self.rules)}"
        self.rules[name] = body
        self._by_body[body] = name
        return name

    def visit(self, schema: Any) -> str:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise UserError(f"JSON Schema nests deeper than {MAX_DEPTH} levels")
            return self._node(schema)
        finally:
            self._depth -= 1

    def _node(self, schema: Any) -> str:
        if schema is True or schema == {}:
            return "anyvalue"
        if not isinstance(schema, dict):
            raise UserError(f"unsupported JSON Schema node: {schema!r:.80}")
        combined = self._combined(schema)
        if combined is not None:
            return combined
        kind = schema.get("type")
        if isinstance(kind, list):
            if not kind or not all(isinstance(k, str) for k in kind):
                raise UserError(f"type must be a type name or a non-empty list of them, got {kind!r:.80}")
            return self.rule(" | ".join(self.visit({**schema, "type": k}) for k in dict.fromkeys(kind)), "alt")
        return self._typed(kind, schema)

    def _combined(self, schema: dict[str, Any]) -> str | None:
        """The rule of a `const`, `enum`, `allOf`, `anyOf` or `oneOf` node; None for a node with none of them."""
        if "const" in schema:
            return self.rule(_json_literal(schema["const"], "const"), "const")
        if "enum" in schema:
            return self.rule(" | ".join(_enum_literal(v) for v in _schemas(schema, "enum")), "enum")
        if "allOf" in schema:
            return self.visit(_merge_all_of(schema))
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self.rule(" | ".join(self.visit(s) for s in _schemas(schema, key)), "alt")
        return None

    def _typed(self, kind: Any, schema: dict[str, Any]) -> str:
        if kind == "string":
            return self._string(schema)
        if kind in ("integer", "number") and has_bounds(schema):
            return self.rule(integer_rule(schema) if kind == "integer" else number_rule(schema), kind[:3])
        if kind in ("integer", "number", "boolean", "null"):
            return str(kind)
        if kind == "array":
            return self._array(schema)
        if kind == "object" or "properties" in schema:
            return self._object(schema)
        return "anyvalue"

    def _string(self, schema: dict[str, Any]) -> str:
        if two_part_form(schema) and _fits_two_parts(schema):
            return self.rule(TWO_PART_STRING, "place")
        choices = documented_choices(schema)  # "Can be 'summary' or 'detailed'": the enum the docs describe
        if choices:
            return self.rule(" | ".join(_json_literal(c, "enum") for c in choices), "enum")
        low = _count(schema, "minLength", 0, limit=MAX_STRING)
        given = _count(schema, "maxLength", MAX_STRING)
        if low > given:
            raise UserError(f"minLength={low} is over maxLength={given}: no string matches")
        high = max(low, min(given, MAX_STRING))
        return self.rule(f'"\\"" char{{{low},{high}}} "\\""', "str")

    def _array(self, schema: dict[str, Any]) -> str:
        item = self.visit(schema.get("items", True))
        low = _count(schema, "minItems", 0, limit=MAX_ITEMS)
        given = _count(schema, "maxItems", MAX_ITEMS)
        if low > given:
            raise UserError(f"minItems={low} is over maxItems={given}: no array matches")
        high = max(low, min(given, MAX_ITEMS))
        if high == 0:
            return self.rule('"[" ws "]"', "arr")
        rest = f'( "," ws {item} ){{{max(low - 1, 0)},{high - 1}}}'
        body = f'"[" ws {item} {rest} ws "]"' if low > 0 else f'"[" ws ( {item} {rest} )? ws "]"'
        return self.rule(body, "arr")

    def _object(self, schema: dict[str, Any]) -> str:
        props = schema.get("properties", {})
        if not isinstance(props, dict) or not all(isinstance(key, str) for key in props):
            raise UserError(f"properties must map names to schemas, got {props!r:.80}")
        if not props:  # "properties": {} declares no arguments; no "properties" at all means a free-form object
            return self.rule('"{" ws "}"', "empty") if "properties" in schema else "anyobject"
        wanted = schema.get("required", [])
        if not isinstance(wanted, list) or not all(isinstance(key, str) for key in wanted):
            raise UserError(f"required must be a list of property names, got {wanted!r:.80}")
        required = [k for k in props if k in set(wanted)]
        optional = [k for k in props if k not in required]

        def pair(key: str) -> str:
            return f'{literal(json.dumps(key))} ws ":" ws {self.visit(props[key])}'

        pairs = [pair(k) for k in required]
        if not optional:
            rest = first = ""
        elif len(optional) > ANY_ORDER_MAX:  # 2**n rules below: past the cap, optional ones keep schema order
            rest = "".join(f' ( "," ws {pair(k)} )?' for k in optional)
            first = self._optional_only([pair(k) for k in optional])
        else:
            named = [self.rule(pair(k), "kv") for k in optional]
            rest, first = " " + self._any_order(named, lead=False), self._any_order(named, lead=True)
        body = '"{" ws ' + (' "," ws '.join(pairs) + rest if pairs else first)
        return self.rule(body + ' ws "}"', "obj")

    def _any_order(self, pairs: list[str], *, lead: bool) -> str:
        """Each optional pair at most once, in any order: a model that writes the user's order instead of the
        schema's (sweetness, then temperature) is not forced onto a property it did not mean. One rule per set
        of pairs still open; `lead` is the first pair of an object (no comma before it)."""
        if not pairs:
            return '""'
        key = (tuple(pairs), lead)
        if key not in self._open_sets:  # each set once: 2**n rules, not n! walks
            comma = "" if lead else '"," ws '
            rests = [self._any_order(pairs[:i] + pairs[i + 1 :], lead=False) for i in range(len(pairs))]
            options = [f"{comma}{p} {rest}" for p, rest in zip(pairs, rests, strict=True)]
            self._open_sets[key] = self.rule(" | ".join([*options, '""']), "any")
        return self._open_sets[key]

    def _optional_only(self, pairs: list[str]) -> str:
        """Any ordered subset of optional pairs, commas only between present ones."""
        lead = '""'
        for index in range(len(pairs) - 1, -1, -1):
            tail = "".join(f' ( "," ws {p} )?' for p in pairs[index + 1 :])
            lead = self.rule(f"{pairs[index]}{tail} | {lead}", "opt")
        return lead


def schema_to_gbnf(schema: dict[str, Any]) -> str:
    """A GBNF grammar (root rule `root`) accepting exactly the JSON texts that match `schema` (within the subset).
    Raises UserError for a schema outside the supported subset, saying which node."""
    builder = _Builder()
    root = builder.visit(resolve_refs(schema))  # $ref -> its target, against this schema's own root
    lines = [f"root ::= {root}"]
    lines += [f"{name} ::= {body}" for name, body in builder.rules.items()]
    return "\n".join(lines) + "\n"
