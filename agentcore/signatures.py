"""Tools as the small model reads them in the system prompt: one line per tool (`tool_signature`), its
parameters as `name: type` with bare enum words, and only the parameter docs that say something the signature does
not (a free string's format, a stated default). Part of the turn design (`agentcore.prompting`), kept apart
because it decides what of a schema reaches the model, not how a turn is worded.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolSpec

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def _enum(values: Sequence[Any]) -> str:
    """`km|mi|ft`: word-like strings go unquoted, which halves their tokens (Qwen: 34 instead of 54 for 18 units).
    The grammar still decodes them as JSON strings. Anything else, or a value that reads as a JSON literal,
    keeps its JSON form so that "1" and 1 stay apart."""
    bare = all(isinstance(v, str) and _BARE.fullmatch(v) and v not in ("true", "false", "null") for v in values)
    return "|".join(str(v) if bare else json.dumps(v) for v in values)


def _type_of(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return _enum(schema["enum"])
    if "anyOf" in schema:
        return "|".join(_type_of(s) for s in schema["anyOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list[{_type_of(schema.get('items', {}))}]"
    props = schema.get("properties")
    if kind == "object" and isinstance(props, dict) and props:
        # The keys of a nested object: without them the model meets them only in the grammar, one token at a time.
        required = set(schema.get("required", []))
        return "{" + ", ".join(f"{k}{'' if k in required else '?'}: {_type_of(v)}" for k, v in props.items()) + "}"
    return str(kind)


PARAM_DOC_CHARS = 160
# Parameter docs (free strings only, see `informative`) and `?` for optional arguments, off unless
# AGENTCORE_PARAM_DOCS=1. Measured: BFCL test 16/48 against 14/48 (README), the 48 bench tasks 79% either way, but
# the README's shop example flipped (the model quoted the first line of prices.txt): too small a gain to change
# every user's prompt. Docs on every parameter had cost the 48 tasks 4 points (chains c10, c12).
PARAM_DOCS = os.environ.get("AGENTCORE_PARAM_DOCS", "0") == "1"


def tool_signature(spec: ToolSpec) -> str:
    """`name(arg: type, opt?: type, dflt: type = 1): description. arg: its doc; ...` — a third of the tokens of
    the JSON Schema. `?` marks an optional argument without a default: leave it out unless the user gave it.
    Parameter docs carry what names cannot (formats such as "City, State", units, defaults); BFCL measured it."""
    props: dict[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    args, docs = [], []
    for name, schema in props.items():
        optional = name not in required
        mark = "?" if PARAM_DOCS and optional and "default" not in schema else ""
        arg = f"{name}{mark}: {_type_of(schema)}"
        if optional and "default" in schema:
            arg += f" = {json.dumps(schema['default'])}"
        args.append(arg)
        doc = " ".join(str(schema.get("description", "")).split())
        shown = (PARAM_DOCS or shows_format(doc)) and informative(doc, name, schema, spec)
        if shown or (optional and "default" not in schema and states_default(doc)):
            docs.append(f"{name}: {clip_keeping_default(doc).rstrip('.')}")
    description = " ".join(spec.description.split())
    line = f"- {spec.name}({', '.join(args)}): {description}"
    if docs:
        line += (" " if description.endswith(".") or not description else ". ") + "Args: " + "; ".join(docs) + "."
    return line


# A doc that spells out a value's format or gives an example ("in the format of 'City, State'", "e.g. San Diego,
# CA", "formatted as 'YYYY-MM-DD'") is shown even with PARAM_DOCS off: the model cannot guess the format, and the
# grammar cannot hold a free string to it. BFCL dev: live_simple 4/12 -> 9/12, the other categories unchanged,
# 19 more prompt tokens an entry. The 48 tasks' tools have no such doc. An example is copied as often as it is
# followed: read_file's 'for example "notes/todo.txt"' sent the model to notes/a.txt for a.txt (so our own docs
# give none), and made it answer the README example from prices.txt's first line (hence agentcore.rows).
_FORMAT_DOC = re.compile(r"\be\.g\.|\bfor example\b|\bexample:|\bsuch as\b|\bformat(?:ted)?\b", re.IGNORECASE)


def shows_format(doc: str) -> bool:
    return _FORMAT_DOC.search(doc) is not None


# An optional argument whose doc states its default ("Default 'Daily'", "defaults to 120") gets its doc, of any
# type: without it the model fills the argument with a guess (period="Monthly", month=12 for "Default 1"), and the
# tool's own default is what the user asked for. A default in the schema is shown as `= value` instead.
_DEFAULT_DOC = re.compile(r"\bdefault(?:s|ed)?\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def states_default(doc: str) -> bool:
    return _DEFAULT_DOC.search(doc) is not None


def clip_keeping_default(doc: str, limit: int = PARAM_DOC_CHARS) -> str:
    """The doc clipped to `limit`, with the sentence stating its default kept when the clip cut it off."""
    clipped = clip_words(doc, limit)
    if not states_default(doc) or states_default(clipped.removesuffix(" ...")):
        return clipped
    stated = next(s for s in _SENTENCE_END.split(doc) if states_default(s))
    head = clip_words(doc, max(limit - len(stated) - 5, 0)).removesuffix(" ...").strip()
    return f"{head} ... {clip_words(stated, limit)}" if head else clip_words(stated, limit)


# fmt: off
_FILLER = frozenset({
    "a", "an", "the", "of", "to", "in", "on", "for", "by", "with", "as", "or", "and", "is", "are", "be", "it", "its",
    "this", "that", "which", "from", "at",
})
# fmt: on
_WORD = re.compile(r"[a-z0-9]+")


def informative(doc: str, name: str, schema: dict[str, Any], spec: ToolSpec) -> bool:
    """Whether a parameter's doc tells the model something its signature does not. Only free strings qualify:
    the grammar already holds numbers, booleans and enums to their type, while a string's format ("City, State",
    YYYY-MM-DD) is in its doc alone. And "text: The text." only restates names. Measured on the 48 tasks: docs on
    every parameter moved the prompt of chains that need none of them, and two of those chains flipped."""
    if not doc or "enum" in schema or schema.get("type", "string") != "string":
        return False
    known = set(_WORD.findall(f"{name.replace('_', ' ')} {spec.name.replace('_', ' ')} {spec.description}".lower()))
    return any(w not in known and w not in _FILLER for w in _WORD.findall(doc.lower()))


def clip_words(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."
