"""A failed call of a read-only tool, tried with the other values of its enum arguments.

A 0.5B model writes `lookup(table="capitals", key="laptop")` for a price (the first table listed), reads the
error, and calls the same again. A read-only tool (`ToolSpec.read_only`, MCP's readOnlyHint) changes nothing
when called, so the loop may try the call with each other value of an enum argument: tool time, not model
turns. When exactly one of them succeeds it runs in place of the failed call, and the conversation shows that
call. None or several (the task does not say which) change nothing: the model gets the error as before.
"""

from __future__ import annotations

from typing import Any

from agentcore.messages import ToolCall, ToolSpec
from agentcore.turns import bound_schema

MAX_PROBES = 12  # more alternatives than this: too many tool calls for a guess, none are tried


def alternatives(call: ToolCall, spec: ToolSpec) -> list[ToolCall]:
    """The call with one enum argument changed to each of its other values; empty when the tool may have side
    effects, has no enum argument, or has more than MAX_PROBES alternatives."""
    if not spec.read_only:
        return []
    properties: Any = bound_schema(spec.parameters).get("properties", {})
    found: list[ToolCall] = []
    for key, value in call.arguments.items():
        node = properties.get(key) if isinstance(properties, dict) else None
        values = node.get("enum") if isinstance(node, dict) else None
        if isinstance(values, list) and value in values:
            found += [ToolCall(call.name, {**call.arguments, key: other}) for other in values if other != value]
    return found if len(found) <= MAX_PROBES else []
