"""The shape of one constrained agent turn, as JSON Schema, and its parsing.

A turn is exactly one of:
- a tool call: {"tool": "<name>", "arguments": {...}} with one branch per tool (name fixed, arguments typed);
- a final answer: {"final_answer": <output schema, or a bounded string>}.
Backends turn the schema into a grammar (llama.cpp) or a response_format (HTTP), so an unparseable tool call
cannot be produced. Strings and arrays get upper bounds, so a small model cannot fill them until max_tokens.
"""

from __future__ import annotations

import json
import math
from typing import Any

from agentcore import enum_tails
from agentcore.errors import ModelError, UserError
from agentcore.float_args import as_floats
from agentcore.messages import ModelRequest, ModelResponse, ToolCall, ToolSpec

MAX_STRING = 300
MAX_ITEMS = 20
FINAL_KEY = "final_answer"


def bound_schema(schema: dict[str, Any], max_string: int = MAX_STRING) -> dict[str, Any]:
    """A copy of `schema` without titles, with local $refs inlined and upper bounds on strings and arrays.

    Raises UserError for a malformed schema (an unresolved $ref, a bound that is not a count) and ModelError for
    one nesting too deeply (a recursive $ref)."""
    if not isinstance(schema, dict):
        raise UserError(f"a JSON Schema must be an object, got {schema!r:.80}")
    defs: dict[str, Any] = {}
    for key in _DEF_KEYS:
        table = schema.get(key, {})
        if not isinstance(table, dict):
            raise UserError(f"{key} must map names to schemas, got {table!r:.80}")
        defs.update({f"#/{key}/{name}": value for name, value in table.items()})
    bounded = _bound(schema, defs, max_string, depth=0)
    if bounded is True:  # a root $ref to the schema `true`: any value
        return {}
    if not isinstance(bounded, dict):
        raise UserError(f"the schema's root $ref names {bounded!r:.80}, not a JSON Schema object")
    return bounded


_DEF_KEYS = ("$defs", "definitions")
_DROPPED = ("title", "examples", "properties", *_DEF_KEYS)


def _bound(node: Any, defs: dict[str, Any], max_string: int, depth: int) -> Any:
    if depth > 20:
        raise ModelError("schema nests too deeply (recursive $ref?)")
    if isinstance(node, list):
        return [_bound(item, defs, max_string, depth + 1) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(tuple(f"#/{key}/" for key in _DEF_KEYS)):
        target = ref.replace("~1", "/").replace("~0", "~")  # JSON Pointer escapes in the name
        if target not in defs:
            raise UserError(f"unresolved $ref {ref!r}: no such entry in the schema's $defs or definitions")
        return _bound(defs[target], defs, max_string, depth + 1)
    out = {key: _bound(value, defs, max_string, depth + 1) for key, value in node.items() if key not in _DROPPED}
    if isinstance(node.get("properties"), dict):  # property names are data, not keywords: keep them all
        out["properties"] = {k: _bound(v, defs, max_string, depth + 1) for k, v in node["properties"].items()}
    types = _types(out)
    if "string" in types and "enum" not in out and "const" not in out:
        cap = max(max_string, _count(out, "minLength", 0))  # a required minimum beats the cap
        out["maxLength"] = min(_count(out, "maxLength", cap), cap)
    if types == {"array"} and _scalars(out.get("enum")):
        # An enum of single values on an array no array can satisfy: its author meant the items' choices
        # (BFCL's `metrics: array, enum: [temperature, humidity, ...]`), and the grammar would send one bare string.
        items = out.get("items")
        out["items"] = {**(items if isinstance(items, dict) else {}), "enum": out.pop("enum")}
    if "array" in types:
        cap = max(MAX_ITEMS, _count(out, "minItems", 0))
        out["maxItems"] = min(_count(out, "maxItems", cap), cap)
    return out


def _scalars(values: Any) -> bool:
    return isinstance(values, list) and bool(values) and not any(isinstance(v, list | dict) for v in values)


def _types(node: dict[str, Any]) -> set[str]:
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {k for k in kinds if isinstance(k, str)}


def _count(node: dict[str, Any], key: str, default: int) -> int:
    value = node.get(key, default)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UserError(f"{key} must be a non-negative integer, got {value!r:.80}")
    return value


def tool_branch(spec: ToolSpec) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"tool": {"const": spec.name}, "arguments": bound_schema(spec.parameters)},
        "required": ["tool", "arguments"],
        "additionalProperties": False,
    }


def final_branch(output_schema: dict[str, Any] | None, max_string: int = MAX_STRING) -> dict[str, Any]:
    # Numbers are allowed bare: a small model asked for a string after a calculation writes nested JSON instead.
    text = {"type": "string", "maxLength": max_string}
    answer = bound_schema(output_schema, max_string) if output_schema else {"anyOf": [text, {"type": "number"}]}
    return {
        "type": "object",
        "properties": {FINAL_KEY: answer},
        "required": [FINAL_KEY],
        "additionalProperties": False,
    }


def final_string_limit(max_tokens: int) -> int:
    """A free-text answer closes before max_tokens runs out: a digit is one token, so a runaway "1.5 * 1.25 * ..."
    answer would otherwise be cut mid-string, unparseable, on every retry. 12 tokens cover the JSON around it."""
    return max(16, min(MAX_STRING, max_tokens - 12))


def with_thought(branch: dict[str, Any], chars: int) -> dict[str, Any]:
    """The branch with a bounded "thought" string first: the model names the next step before choosing it."""
    thought = {"thought": {"type": "string", "maxLength": chars}}
    return {**branch, "properties": {**thought, **branch["properties"]}, "required": ["thought", *branch["required"]]}


def turn_schema(request: ModelRequest) -> dict[str, Any] | None:
    """The JSON Schema one turn must match, or None when the request is free text."""
    if not request.constrain:
        return None
    branches = [tool_branch(spec) for spec in request.tools]
    if request.allow_final or not branches:
        branches.append(final_branch(request.output_schema, final_string_limit(request.max_tokens)))
    if request.think > 0:
        branches = [with_thought(branch, request.think) for branch in branches]
    return branches[0] if len(branches) == 1 else {"oneOf": branches}


def parse_turn(text: str, request: ModelRequest) -> tuple[str | None, ToolCall | None]:
    """(content, tool_call) from the JSON text of a constrained turn. Raises ModelError on broken output."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"model output is not JSON: {text[:200]!r}") from exc
    except (ValueError, RecursionError) as exc:  # an integer over 4300 digits, or nesting past the recursion limit
        raise ModelError(f"model output is JSON that Python cannot read ({exc}): {text[:200]!r}") from exc
    if not isinstance(data, dict):
        raise ModelError(f"model output is not a JSON object: {text[:200]!r}")
    if "tool" in data:
        names = {spec.name for spec in request.tools}
        name, arguments = data.get("tool"), data.get("arguments", {})
        if not isinstance(name, str) or name not in names or not isinstance(arguments, dict):
            raise ModelError(f"model called an unknown tool or gave bad arguments: {text[:200]!r}")
        return None, ToolCall(name=name, arguments=spelled_arguments(request, name, arguments))
    if FINAL_KEY in data:
        answer = _unwrap(data[FINAL_KEY])
        if request.output_schema is not None:
            answer = enum_tails.resolve(answer, bound_schema(request.output_schema))
        if request.output_schema is None and isinstance(answer, str):
            return answer, None
        try:
            return json.dumps(answer), None
        except RecursionError as exc:
            raise ModelError(f"model output nests too deeply: {text[:200]!r}") from exc
    raise ModelError(f"model output is neither a tool call nor a final answer: {text[:200]!r}")


def spelled_arguments(request: ModelRequest, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments with enum words written out in full cut back to the enum's values (agentcore.enum_tails),
    and whole numbers for float-format parameters made floats (agentcore.float_args)."""
    spec = next(spec for spec in request.tools if spec.name == name)
    schema = bound_schema(spec.parameters)
    resolved: dict[str, Any] = as_floats(enum_tails.resolve(arguments, schema), schema)
    return resolved


def _unwrap(answer: Any) -> Any:
    """Small models sometimes nest a whole turn inside the answer string:
    {"final_answer": "{\\"final_answer\\": 7}"}."""
    if isinstance(answer, str) and answer.startswith("{") and FINAL_KEY in answer:
        try:
            inner = json.loads(answer)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            return answer
        if isinstance(inner, dict) and FINAL_KEY in inner:
            return inner[FINAL_KEY]
    return answer


def response_from_text(text: str, request: ModelRequest, *, cut_off: bool = False, **extra: Any) -> ModelResponse:
    """A ModelResponse from raw model text: parsed as a turn when the request was constrained. `cut_off`: the
    backend stopped at max_tokens; broken output then raises `cut_off_error`."""
    if not request.constrain:
        return ModelResponse(content=text, raw=text, **extra)
    try:
        content, call = parse_turn(text, request)
    except ModelError as exc:
        if cut_off:
            raise cut_off_error(request) from exc
        raise
    return ModelResponse(content=content, tool_call=call, raw=text, **extra)


def cut_off_error(request: ModelRequest) -> ModelError:
    """A turn that ran past max_tokens before its JSON closed. Its text is not quoted: it is nearly always a
    pattern repeating itself (`3 * 1.5 * 1.25 * 1.125 * ...`), and quoted in the retry notice it was copied into
    every later turn (compose m09: the final answer became that pattern)."""
    return ModelError(
        f"the reply ran past max_tokens={request.max_tokens} without closing (it repeated itself); write a short one"
    )
