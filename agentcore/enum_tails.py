"""Enum values the model writes out in full ("miles" for the value "mi").

A grammar that admits only the enum's exact strings lets the model start the word it means and then close the
string at the first complete value on the way: "miles" became `"m"` (metres) and "gallons" `"g"` (grams), a
well-formed call with the wrong unit. So the grammar lets letters run on after a complete value
(`tail_rule`), and the call keeps the longest value that the written word starts with ("miles" -> "mi",
"gallons" -> "gal", "meters" -> "m"). A word that starts with no value cannot be written at all, as before.
Backends sent the JSON Schema instead of this GBNF (`OpenAICompatModel`'s "json_schema" format) build their own
exact-value grammar: there nothing runs on, and the cut back changes nothing.

The model also closes the string itself at the short value: "5 miles" called with `from_unit="m"`. So a value
that the task never writes, but that starts the task's words, is read as the word the task wrote (`meant`): the
longest value that those words start with ("mi" for "miles"), when every such word (function words such as "many"
aside) agrees on one.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.schema_walk import walk

TAIL_CHARS = 16  # "fahrenheit", "milliliters": a word's remaining letters, bounded so it cannot run on


def tail_rule() -> str:
    """GBNF for the letters allowed after a complete string enum value, before its closing quote."""
    return f"[a-zA-Z]{{0,{TAIL_CHARS}}}"


def resolve(value: Any, schema: Any) -> Any:
    """`value` with every string written past an enum value of `schema` cut back to the longest such value.

    Walks properties, items and anyOf/oneOf branches of a bound schema (local $refs already inlined); values that
    are exact, or that start with no enum value, come back unchanged for the tool's own validation to judge."""
    return walk(value, schema, _cut_back)


def _cut_back(value: Any, schema: dict[str, Any]) -> Any:
    if isinstance(value, str) and isinstance(schema.get("enum"), list):
        return _longest_prefix(value, schema["enum"])
    return value


def _longest_prefix(word: str, values: list[Any]) -> str:
    if word in values:
        return word
    starts = [v for v in values if isinstance(v, str) and v and word.startswith(v)]
    return max(starts, key=len) if starts else word


def meant(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each top-level enum string that the task's words only start ("m" for "5 miles") replaced
    by the longest enum value those words start with ("mi"). Unchanged (the same dict) where the task writes the
    value itself, where no word starts with it, or where the words disagree ("5 meters, minus 2": "m" and "mi")."""
    properties = parameters.get("properties") or {}
    words = {word for word in re.findall(r"[^\W\d_]+", task.lower()) if word not in FUNCTION_WORDS}
    fixed = dict(arguments)
    for name, value in arguments.items():
        schema = properties.get(name)
        if isinstance(value, str) and isinstance(schema, dict) and isinstance(schema.get("enum"), list):
            fixed[name] = _from_words(value, [v for v in schema["enum"] if isinstance(v, str) and v], words)
    return fixed if fixed != arguments else arguments


def _from_words(value: str, values: list[str], words: set[str]) -> str:
    short = value.lower()
    if value not in values or short in words:
        return value
    longer = {_longest_start(word, values) for word in words if word.startswith(short)}
    if len(longer) != 1:
        return value
    best = longer.pop()
    return best if len(best) > len(value) else value


def _longest_start(word: str, values: list[str]) -> str:
    starts = [v for v in values if word.startswith(v.lower())]
    return max(starts, key=len) if starts else ""
