"""Tools that compute on numbers they are handed are offered after the tools that produce numbers.

A 0.5B model leans on the first tool it is shown. The bench's task files had always listed their tools in the order
a solution uses them (lookup before calculator), which no user does. Two task sets written at the thirty-fifth stop
list them alphabetically, the calculator first, and the model opened most dev tasks (independent10) with a
calculation on numbers it made up: 11/36 right, against 20/36 on the same tasks with the tools in the solution's
order. The checks that take such a call back (agentcore.fetch_first, agentcore.unfetched) cost turns and leave the
model anchored on its guess. With the calculator moved last, the alphabetical file scores 20/36 as well, task for
task the same as the solution's order.

The order used is the order data flows in: a calculator's input is what the other tools return, so it goes last.
Other tools keep the order they were given in. Where the task writes two or more numbers and names nothing the
other tools' names or docs name ("A gizmo costs 7.25 dollars. What do 24 gizmos cost?" beside file tools), every
operand is in the task and the given order stays: with the calculator last, the demo's model read a file that
does not exist.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.messages import ToolSpec
from agentcore.unfinished import DATE_IN_DIGITS

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


def in_flow_order(specs: Sequence[ToolSpec], task: str = "") -> tuple[ToolSpec, ...]:
    """`specs` with the tools that compute after the others; a stable partition, so each side keeps its order. Not
    where the task writes two or more numbers and names nothing another tool's name or docs name: every operand
    is there, and a formula tool listed last lost "A gizmo costs 7.25 dollars. What do 24 gizmos cost?" to a
    `read_file("gizmos.txt")` (the demo, with the workspace's file tools)."""
    if task and len(_NUMBER.findall(task)) >= 2 and not _names_another(specs, task):
        return tuple(specs)
    return (*(s for s in specs if not computes(s)), *(s for s in specs if computes(s)))


_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")
_WORD = re.compile(r"[a-z]{4,}")


def _stems(text: str) -> set[str]:
    return {w.removesuffix("s") for w in _WORD.findall(text.lower().replace("_", " ")) if w not in FUNCTION_WORDS}


def _names_another(specs: Sequence[ToolSpec], task: str) -> bool:
    """Whether a word of the task (four letters or more, no function word) is one a non-formula tool's name or
    description uses: "convert" for unit_convert, "price" for a lookup of prices, "days" for a date tool."""
    words = _stems(task)
    others = [spec for spec in specs if not computes(spec)]
    return any(words & _stems(f"{spec.name} {spec.description}") or _measures(spec, task) for spec in others)


def _measures(spec: ToolSpec, task: str) -> bool:
    """A converter whose units the task names ("20 US gallons"), or a tool of dates where the task writes one."""
    from agentcore.unit_names import converter, named_units

    shape = converter(spec.parameters)
    if shape is not None and named_units(task, shape):
        return True
    properties = spec.parameters.get("properties") or {}
    dated = any("date" in name.lower() or name in ("start", "end") for name in properties)
    return dated and DATE_IN_DIGITS.search(task) is not None
