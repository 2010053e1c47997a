"""Functions every team file may name without registering them (kind: function, function: <name>)."""

from __future__ import annotations

from typing import Any


def passthrough(**values: Any) -> Any:
    """Returns what the node reads: nothing, the one value, or all of them as a dict (a node with one write
    copies its one read; an entry node that only fans out reads nothing)."""
    if not values:
        return None
    if len(values) == 1:
        return next(iter(values.values()))
    return values


BUILTIN_FUNCTIONS = {"passthrough": passthrough}
