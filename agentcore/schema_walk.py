"""One walk of a value along its JSON Schema, for the cut-backs applied to a parsed turn (enum tails, floats)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Leaf = Callable[[Any, dict[str, Any]], Any]


def walk(value: Any, schema: Any, leaf: Leaf) -> Any:
    """`value` with `leaf(node, node_schema)` applied at every node: down properties and items, and in the first
    anyOf/oneOf branch that changes it (a bound schema: local $refs inlined). A node `leaf` changes is not walked
    further."""
    if not isinstance(schema, dict):
        return value
    changed = leaf(value, schema)
    if changed is not value:
        return changed
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        return {key: walk(item, props.get(key), leaf) for key, item in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [walk(item, schema["items"], leaf) for item in value]
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key) or ():
            walked = walk(value, branch, leaf)
            if not same(walked, value):
                return walked
    return value


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (`4.0` is not the same as `4`)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
