"""A pre-pass for real-world JSON Schemas (MCP servers, OpenAPI): local `$ref`s inlined, `allOf` kept for the
grammar to merge, recursion cut, and a list of what a grammar cannot enforce.

Why a pre-pass: tool schemas from other SDKs point into themselves in every way JSON Pointer allows -
pydantic's `#/$defs/X`, older `#/definitions/X`, zod-to-json-schema's `#/properties/a/items`, the root `#` of a
recursive tree. The grammar and the turn schema embed each tool's parameters inside a bigger schema, where those
pointers would resolve against the wrong root; so they are resolved here, once, against the tool's own root.
"""

from __future__ import annotations

from typing import Any

from agentcore.errors import UserError

MAX_REF_DEPTH = 6  # how many times one $ref chain may expand before it is cut to "any value" (recursive schemas)
_DEF_KEYS = ("$defs", "definitions")

# Keywords that constrain values but that agentcore's grammar does not enforce: the tool's own validation does.
# Numeric bounds are enforced (grammar_ranges), so they are not listed.
UNENFORCED = (
    "pattern",
    "format",
    "multipleOf",
    "uniqueItems",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "prefixItems",
    "contains",
)


def resolve_refs(schema: Any) -> Any:
    """A copy of `schema` with every local `$ref` replaced by its target (sibling keywords kept, as 2019-09+
    allows), the `$defs`/`definitions` tables dropped, and a chain that recurses more than MAX_REF_DEPTH times
    replaced by `{}`. Raises UserError for a `$ref` that points nowhere or outside the document."""
    if not isinstance(schema, dict):
        return schema
    resolved = _Resolver(schema).node(schema, (), 0)
    return {k: v for k, v in resolved.items() if k not in _DEF_KEYS} if isinstance(resolved, dict) else resolved


class _Resolver:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    def node(self, value: Any, chain: tuple[str, ...], depth: int) -> Any:
        if depth > 200:
            raise UserError("JSON Schema nests deeper than 200 levels")
        if isinstance(value, list):
            return [self.node(item, chain, depth + 1) for item in value]
        if not isinstance(value, dict):
            return value
        ref = value.get("$ref")
        if isinstance(ref, str):
            return self._expand(ref, value, chain, depth)
        return {key: self._child(key, item, chain, depth) for key, item in value.items() if key not in _DEF_KEYS}

    def _child(self, key: str, item: Any, chain: tuple[str, ...], depth: int) -> Any:
        if key in ("const", "enum", "default", "examples"):  # values, not schemas: a "$ref" key there is data
            return item
        if key == "properties" and isinstance(item, dict):
            return {name: self.node(sub, chain, depth + 1) for name, sub in item.items()}
        return self.node(item, chain, depth + 1)

    def _expand(self, ref: str, value: dict[str, Any], chain: tuple[str, ...], depth: int) -> Any:
        if chain.count(ref) >= MAX_REF_DEPTH:
            return {}  # a recursive schema: deeper levels accept any value (the tool validates them)
        target = self.node(pointer(self.root, ref), (*chain, ref), depth + 1)
        siblings = {k: v for k, v in value.items() if k != "$ref"}
        if not siblings:
            return target
        rest = self.node(siblings, chain, depth + 1)
        if target in (True, {}):
            return rest
        if target is False:
            return False
        return {"allOf": [target, rest]}


def pointer(root: dict[str, Any], ref: str) -> Any:
    """The node a local JSON Pointer reference (`#`, `#/a/b~1c/0`) names in `root`."""
    if not ref.startswith("#"):
        raise UserError(f"$ref {ref!r} points outside the schema; only local references (#/...) are supported")
    node: Any = root
    path = ref[1:].lstrip("/")
    for raw in path.split("/") if path else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise UserError(f"unresolved $ref {ref!r}: the schema has no {part!r} there")
    return node


def unenforced(schema: Any, path: str = "") -> list[str]:
    """Where `schema` uses keywords that the grammar does not enforce, as 'path: keyword' lines (sorted).
    A tool server validates its own arguments, so these only mean a call may be refused and retried."""
    found: list[str] = []
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            found += unenforced(item, f"{path}/{index}")
        return found
    if not isinstance(schema, dict):
        return found
    for key, value in schema.items():
        if key in ("const", "enum", "default", "examples", "description", "title"):
            continue
        if key in UNENFORCED and not (key == "additionalProperties" and value in (False, True, {})):
            found.append(f"{path or '/'}: {key}")
        if key == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                found += unenforced(sub, f"{path}/{name}")
        elif isinstance(value, (dict, list)):
            found += unenforced(value, f"{path}/{key}")
    return sorted(found)
