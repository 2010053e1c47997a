"""Whole numbers written for `format: float` / `double` arguments, read back as floats.

The grammar once made such a number carry a fraction (so that `[1, 2]` for a list of floats parsed as floats, which
BFCL's checker asks for). But a model that means 120 and may not close the number after "120" writes the one
thing left, more digits: `120000000000000.0` at the grammar's fifteen-digit cap (BFCL exec_simple's density of a
120 kg object, exec_multiple_42's investment of 10000 on dev; the loop then holds the call back as a made-up value).
So the grammar lets the model write `120`, and this walk makes it `120.0` once the turn is parsed.
"""

from __future__ import annotations

from typing import Any

from agentcore.schema_walk import walk

FLOAT_FORMATS = ("float", "double")


def as_floats(value: Any, schema: Any) -> Any:
    """`value` with each int (not bool) under a `number` schema of format float or double made a float; walks
    properties, items and anyOf/oneOf branches of a bound schema (local $refs inlined)."""
    return walk(value, schema, _as_float)


def _as_float(value: Any, schema: dict[str, Any]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and schema.get("format") in FLOAT_FORMATS:
        return float(value) if _numeric(schema) else value
    return value


def _numeric(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "number" or (isinstance(kind, list) and "number" in kind)
