"""Enum values the model writes out in full ("miles" for the value "mi").

A grammar that admits only the enum's exact strings lets the model start the word it means and then close the
string at the first complete value on the way: "miles" became `"m"` (metres) and "gallons" `"g"` (grams), a
well-formed call with the wrong unit. So the grammar lets letters run on after a complete value
(`tail_rule`), and the call keeps the longest value that the written word starts with ("miles" -> "mi",
"gallons" -> "gal", "meters" -> "m"). A word that starts with no value cannot be written at all, as before.
Backends sent the JSON Schema instead of this GBNF (`OpenAICompatModel`'s "json_schema" format) build their own
exact-value grammar: there nothing runs on, and the cut back changes nothing.
"""

from __future__ import annotations

from typing import Any

TAIL_CHARS = 16  # "fahrenheit", "milliliters": a word's remaining letters, bounded so it cannot run on


def tail_rule() -> str:
    """GBNF for the letters allowed after a complete string enum value, before its closing quote."""
    return f"[a-zA-Z]{{0,{TAIL_CHARS}}}"


def resolve(value: Any, schema: Any) -> Any:
    """`value` with every string written past an enum value of `schema` cut back to the longest such value.

    Walks properties, items and anyOf/oneOf branches of a bound schema (local $refs already inlined); values that
    are exact, or that start with no enum value, come back unchanged for the tool's own validation to judge."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, str) and isinstance(schema.get("enum"), list):
        return _longest_prefix(value, schema["enum"])
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        return {key: resolve(item, props.get(key)) for key, item in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [resolve(item, schema["items"]) for item in value]
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key) or ():
            resolved = resolve(value, branch)
            if resolved != value:
                return resolved
    return value


def _longest_prefix(word: str, values: list[Any]) -> str:
    if word in values:
        return word
    starts = [v for v in values if isinstance(v, str) and v and word.startswith(v)]
    return max(starts, key=len) if starts else word
