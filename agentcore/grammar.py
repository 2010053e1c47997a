"""JSON Schema -> GBNF for llama.cpp, for the subset of JSON Schema that tool arguments and outputs use.

Why not llama-cpp-python's own converter: it expands `maxLength: 300` into 300 nested optional groups, which makes
grammar sampling crawl (40 s for one turn here), and its string rule admits raw newlines, so a small model can fill
a string with them until max_tokens. GBNF has bounded repetition (`x{0,300}`), and strings here admit no raw
control characters. Objects keep property order (required first), with no free-form whitespace.
"""

from __future__ import annotations

import json
from typing import Any

from agentcore.errors import UserError

MAX_STRING = 300
MAX_ITEMS = 20

PRIMITIVES = {
    "ws": '" "?',
    "char": r'[^"\\\x00-\x1f] | "\\" ["\\/nt]',
    "integer": '"-"? ("0" | [1-9] [0-9]{0,14})',
    "number": '"-"? ("0" | [1-9] [0-9]{0,14}) ("." [0-9]{1,10})? ([eE] [-+]? [0-9]{1,3})?',
    "boolean": '"true" | "false"',
    "null": '"null"',
    "anystring": '"\\"" char{0,' + str(MAX_STRING) + '} "\\""',
    "scalar": "anystring | number | boolean | null",
    "anyobject": '"{" ws ( anystring ws ":" ws scalar ( "," ws anystring ws ":" ws scalar ){0,15} )? "}"',
    "anyvalue": 'scalar | anyobject | "[" ws ( scalar ( "," ws scalar ){0,19} )? "]"',
}


def literal(text: str) -> str:
    """A GBNF string literal matching `text` exactly."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


class _Builder:
    def __init__(self) -> None:
        self.rules: dict[str, str] = dict(PRIMITIVES)
        self._by_body: dict[str, str] = {body: name for name, body in PRIMITIVES.items()}

    def rule(self, body: str, hint: str = "r") -> str:
        """The name of a rule with this body, adding it if new (identical bodies share one rule)."""
        if body in self._by_body:
            return self._by_body[body]
        name = f"{hint}{len(self.rules)}"
        self.rules[name] = body
        self._by_body[body] = name
        return name

    def visit(self, schema: Any) -> str:
        if schema is True or schema == {}:
            return "anyvalue"
        if not isinstance(schema, dict):
            raise UserError(f"unsupported JSON Schema node: {schema!r}")
        if "const" in schema:
            return self.rule(literal(json.dumps(schema["const"], ensure_ascii=False)), "const")
        if "enum" in schema:
            options = " | ".join(literal(json.dumps(v, ensure_ascii=False)) for v in schema["enum"])
            return self.rule(options, "enum")
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self.rule(" | ".join(self.visit(s) for s in schema[key]), "alt")
        kind = schema.get("type")
        if isinstance(kind, list):
            return self.rule(" | ".join(self.visit({**schema, "type": k}) for k in kind), "alt")
        return self._typed(kind, schema)

    def _typed(self, kind: Any, schema: dict[str, Any]) -> str:
        if kind == "string":
            low = int(schema.get("minLength", 0))
            high = min(int(schema.get("maxLength", MAX_STRING)), MAX_STRING)
            return self.rule(f'"\\"" char{{{low},{max(low, high)}}} "\\""', "str")
        if kind in ("integer", "number", "boolean", "null"):
            return str(kind)
        if kind == "array":
            return self._array(schema)
        if kind == "object" or "properties" in schema:
            return self._object(schema)
        return "anyvalue"

    def _array(self, schema: dict[str, Any]) -> str:
        item = self.visit(schema.get("items", True))
        high = min(int(schema.get("maxItems", MAX_ITEMS)), MAX_ITEMS)
        low = int(schema.get("minItems", 0))
        if high == 0:
            return self.rule('"[" ws "]"', "arr")
        rest = f'( "," ws {item} ){{{max(low - 1, 0)},{high - 1}}}'
        body = f'"[" ws {item} {rest} "]"' if low > 0 else f'"[" ws ( {item} {rest} )? "]"'
        return self.rule(body, "arr")

    def _object(self, schema: dict[str, Any]) -> str:
        props: dict[str, Any] = schema.get("properties", {})
        if not props:  # "properties": {} declares no arguments; no "properties" at all means a free-form object
            return self.rule('"{" ws "}"', "empty") if "properties" in schema else "anyobject"
        required = [k for k in props if k in set(schema.get("required", []))]
        optional = [k for k in props if k not in required]

        def pair(key: str) -> str:
            return f'{literal(json.dumps(key))} ws ":" ws {self.visit(props[key])}'

        parts = [pair(k) for k in required]
        if parts:
            body = '"{" ws ' + ' "," ws '.join(parts) + "".join(f' ( "," ws {pair(k)} )?' for k in optional)
        else:
            body = '"{" ws ' + self._optional_only([pair(k) for k in optional])
        return self.rule(body + ' ws "}"', "obj")

    def _optional_only(self, pairs: list[str]) -> str:
        """Any ordered subset of optional pairs, commas only between present ones."""
        lead = '""'
        for index in range(len(pairs) - 1, -1, -1):
            tail = "".join(f' ( "," ws {p} )?' for p in pairs[index + 1 :])
            lead = self.rule(f"{pairs[index]}{tail} | {lead}", "opt")
        return lead


def schema_to_gbnf(schema: dict[str, Any]) -> str:
    """A GBNF grammar (root rule `root`) accepting exactly the JSON texts that match `schema`."""
    builder = _Builder()
    root = builder.visit(schema)
    lines = [f"root ::= {root}"]
    lines += [f"{name} ::= {body}" for name, body in builder.rules.items()]
    return "\n".join(lines) + "\n"
