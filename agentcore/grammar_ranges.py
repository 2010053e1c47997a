"""Numeric bounds as GBNF: `minimum`/`maximum` (and their exclusive forms) for the turn grammar.

Integers are exact: the digit strings of [lo, hi] as alternatives grouped by length and leading digit, the classic
range-to-pattern construction, so `{"minimum": 18, "maximum": 30}` admits 18..30 and nothing else (BFCL saw
250000000000000 sent where 18-30 was allowed). Numbers with a fraction are bounded by sign and integer part only,
with no exponent: the fraction of a value on the edge (1.5 when the maximum is 1) still passes, and the tool's own
validation answers that with a clear error the model can fix.
"""

from __future__ import annotations

import math
from typing import Any

from agentcore.errors import UserError

MAX_DIGITS = 15  # the grammar's integers: at most 15 digits, as in grammar.PRIMITIVES
LIMIT = 10**MAX_DIGITS - 1
FRACTION = '("." [0-9]{1,10})?'


def has_bounds(schema: dict[str, Any]) -> bool:
    return any(key in schema for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"))


def integer_rule(schema: dict[str, Any]) -> str:
    """The GBNF body of the integers in the schema's bounds. Raises UserError when none are."""
    lo, hi = integer_bounds(schema)
    parts = []
    if lo < 0:
        parts.append(f'"-" ( {" | ".join(_nonneg(max(1, -hi), -lo))} )')
    if hi >= 0:
        parts.extend(_nonneg(max(lo, 0), hi))
    return " | ".join(f"( {p} )" for p in parts)


def number_rule(schema: dict[str, Any]) -> str:
    """The GBNF body of decimal numbers whose sign and integer part lie in the schema's bounds."""
    low = _bound(schema, "minimum", "exclusiveMinimum", -math.inf)
    high = _bound(schema, "maximum", "exclusiveMaximum", math.inf)
    if low > high:
        raise UserError(f"minimum {low} is over maximum {high}: no number matches")
    lo = -LIMIT if low == -math.inf else max(-LIMIT, math.floor(low))
    hi = LIMIT if high == math.inf else min(LIMIT, math.floor(high))
    parts = []
    if lo < 0:  # -0.5 has integer part 0: the negative side runs from 0 to -lo
        parts.append(f'"-" ( {" | ".join(_nonneg(max(0, -hi - 1) if hi < 0 else 0, -lo))} ) {FRACTION}')
    if hi >= 0:
        parts.append(f"( {' | '.join(_nonneg(max(lo, 0), hi))} ) {FRACTION}")
    return " | ".join(f"( {p} )" for p in parts)


def integer_bounds(schema: dict[str, Any]) -> tuple[int, int]:
    low = _bound(schema, "minimum", "exclusiveMinimum", -math.inf)
    high = _bound(schema, "maximum", "exclusiveMaximum", math.inf)
    lo = -LIMIT if low == -math.inf else max(-LIMIT, _ceil(low, schema, "exclusiveMinimum"))
    hi = LIMIT if high == math.inf else min(LIMIT, _floor(high, schema, "exclusiveMaximum"))
    if lo > hi:
        raise UserError(f"the bounds {_shown(schema)} admit no integer of at most {MAX_DIGITS} digits")
    return lo, hi


def _bound(schema: dict[str, Any], key: str, exclusive: str, default: float) -> float:
    """The tighter of the inclusive and (draft 6+) exclusive bound; draft 4's boolean exclusive flag is honoured
    by _ceil/_floor."""
    values = [schema[k] for k in (key, exclusive) if k in schema and not isinstance(schema[k], bool)]
    for value in values:
        if not isinstance(value, int | float) or math.isnan(value):
            raise UserError(f"{key}/{exclusive} must be numbers, got {value!r:.80}")
        if value == -default:  # a lower bound of +inf (an upper one of -inf) admits nothing
            raise UserError(f"{key}={value} admits no number")
    finite = [float(v) for v in values if math.isfinite(v)]  # -inf as a minimum is no bound at all
    if not finite:
        return default
    return max(finite) if default < 0 else min(finite)


def _ceil(value: float, schema: dict[str, Any], key: str) -> int:
    strict = _strict(schema, key, "minimum", value)
    return math.floor(value) + 1 if strict and float(value).is_integer() else math.ceil(value)


def _floor(value: float, schema: dict[str, Any], key: str) -> int:
    strict = _strict(schema, key, "maximum", value)
    return math.ceil(value) - 1 if strict and float(value).is_integer() else math.floor(value)


def _strict(schema: dict[str, Any], key: str, inclusive: str, value: float) -> bool:
    flag = schema.get(key)
    if isinstance(flag, bool):  # draft 4: {"minimum": 0, "exclusiveMinimum": true}
        return flag and schema.get(inclusive) == value
    return key in schema and schema[key] == value


def _shown(schema: dict[str, Any]) -> str:
    keys = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    return ", ".join(f"{k}={schema[k]!r}" for k in keys if k in schema)


def _nonneg(a: int, b: int) -> list[str]:
    """Alternatives matching the decimal digits of every integer in [a, b] (0 <= a <= b), no leading zeros."""
    out = []
    for digits in range(len(str(a)), len(str(b)) + 1):
        lo = max(a, 10 ** (digits - 1) if digits > 1 else 0)
        hi = min(b, 10**digits - 1)
        if lo <= hi:
            out.append(_same_length(str(lo), str(hi)))
    return out


def _same_length(lo: str, hi: str) -> str:
    """A pattern for the digit strings of one length between lo and hi inclusive."""
    if lo == hi:
        return f'"{lo}"'
    rest = len(lo) - 1
    if rest == 0:
        return f"[{lo}-{hi}]"
    if lo[1:] == "0" * rest and hi[1:] == "9" * rest:
        return f"[{lo[0]}-{hi[0]}] [0-9]{{{rest}}}"
    if lo[0] == hi[0]:
        return f'"{lo[0]}" ( {_same_length(lo[1:], hi[1:])} )'
    parts = [f'"{lo[0]}" ( {_same_length(lo[1:], "9" * rest)} )']
    if int(hi[0]) - int(lo[0]) > 1:
        parts.append(f"[{int(lo[0]) + 1}-{int(hi[0]) - 1}] [0-9]{{{rest}}}")
    parts.append(f'"{hi[0]}" ( {_same_length("0" * rest, hi[1:])} )')
    return " | ".join(f"( {p} )" for p in parts)
