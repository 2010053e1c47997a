"""A failed call of a read-only tool, tried with the other values of its enum arguments.

A 0.5B model writes `lookup(table="capitals", key="laptop")` for a price (the first table listed), reads the
error, and calls the same again. A read-only tool (`ToolSpec.read_only`, MCP's readOnlyHint) changes nothing
when called, so the loop may try the call with each other value of an enum argument: tool time, not model
turns. When exactly one of them succeeds it runs in place of the failed call, and the conversation shows that
call. None or several (the task does not say which) change nothing: the model gets the error as before.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agentcore.context import RunContext
from agentcore.messages import ToolCall, ToolSpec
from agentcore.turns import bound_schema

MAX_PROBES = 12  # more alternatives than this: too many tool calls for a guess, none are tried
PROBE_SECONDS = 10.0  # all probes of one failed call together (an MCP tool is a network call); past it, none wins


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


async def working(toolset: Any, ctx: RunContext[Any], candidates: list[ToolCall]) -> list[ToolCall]:
    """The candidates whose call succeeds, tried at once (read-only: their order cannot matter); none when they
    do not all finish within PROBE_SECONDS, since one that did not answer might have been a second that works."""

    async def works(candidate: ToolCall) -> bool:
        try:
            await toolset.call_tool(candidate.name, candidate.arguments, ctx)
        except Exception:  # a failing alternative is simply not the one
            return False
        return True

    try:
        results = await asyncio.wait_for(asyncio.gather(*(works(c) for c in candidates)), PROBE_SECONDS)
    except TimeoutError:
        return []
    return [candidate for candidate, ok in zip(candidates, results, strict=True) if ok]
