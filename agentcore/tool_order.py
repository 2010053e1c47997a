"""Tools that compute on numbers they are handed are offered after the tools that produce numbers.

A 0.5B model leans on the first tool it is shown. The bench's task files had always listed their tools in the order
a solution uses them (lookup before calculator), which no user does. Two task sets written at the thirty-fifth stop
list them alphabetically, the calculator first, and the model opened most dev tasks (independent10) with a
calculation on numbers it made up: 11/36 right, against 20/36 on the same tasks with the tools in the solution's
order. The checks that take such a call back (agentcore.fetch_first, agentcore.unfetched) cost turns and leave the
model anchored on its guess. With the calculator moved last, the alphabetical file scores 20/36 as well, task for
task the same as the solution's order.

The order used is the order data flows in: a calculator's input is what the other tools return, so it goes last.
It depends on the tools alone, never on the task, so runs over one tool set keep one system prompt and the KV
cache serves it from one task to the next. Other tools keep the order they were given in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolSpec

# A parameter with one of these names takes a formula the model writes from numbers it has (MCP calculators,
# smolagents' and LangChain's math tools all call it `expression`).
_FORMULA_NAMES = ("expression", "expr", "formula", "equation")


def computes(spec: ToolSpec) -> bool:
    """Whether the tool evaluates a formula: its one required argument is a string named like one."""
    properties: dict[str, Any] = spec.parameters.get("properties") or {}
    required = spec.parameters.get("required") or list(properties)
    if len(required) != 1:
        return False
    name = str(required[0])
    schema = properties.get(name) or {}
    return schema.get("type") == "string" and any(word in name.lower() for word in _FORMULA_NAMES)


def in_flow_order(specs: Sequence[ToolSpec]) -> tuple[ToolSpec, ...]:
    """`specs` with the tools that compute after the others; a stable partition, so each side keeps its order."""
    return (*(s for s in specs if not computes(s)), *(s for s in specs if computes(s)))
