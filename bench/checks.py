"""Checks that score a system's final output against a task's expected answer.

Kinds (`{"kind": ..., "value": ...}` in a task line):
- number: the expected number. The output passes when its FIRST or its LAST number is within tolerance:
  "391" / "17 * 23 = 391" / "391 is the product" all pass, while a number buried mid-sentence does not count
  (a model restating its inputs should not pass by accident). Tolerance is relative, 1e-2 by default
  (small models round: 8.05 for 8.04672), with an absolute floor of the same size for expected values near
  zero; a check may set its own with "tol". Thousands separators are accepted (8,130,896), and so is a
  leading currency sign ($1,299.50).
- contains: the output contains the value, case-insensitively; a list of values must all be present.
- exact: the output equals the value after stripping whitespace and one pair of surrounding quotes; case counts.
- regex: `re.search(value, output)`; use `(?i)` in the pattern for case-insensitive matching.
"""

from __future__ import annotations

import math
import re
from typing import Any

KINDS = ("number", "contains", "exact", "regex")
DEFAULT_TOLERANCE = 1e-2

# A number not glued to a word or another number: "2024-03-01" gives 2024, 3, 1 (not -3), "$1,299.5" gives 1299.5.
_NUMBER = re.compile(r"(?<![\w.])(-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:[eE]([-+]?\d+))?(?!\d)")


def numbers_in(text: str) -> list[float]:
    """Every number in `text`, in order, with thousands separators removed."""
    found = []
    for sign, whole, fraction, exponent in _NUMBER.findall(text):
        literal = f"{sign}{whole.replace(',', '')}{fraction}" + (f"e{exponent}" if exponent else "")
        found.append(float(literal))
    return found


def close(actual: float, expected: float, tol: float = DEFAULT_TOLERANCE) -> bool:
    return math.isclose(actual, expected, rel_tol=tol, abs_tol=tol)


def validate(check: Any) -> str | None:
    """None when `check` is a well-formed check, else what is wrong with it."""
    if not isinstance(check, dict) or check.get("kind") not in KINDS or "value" not in check:
        return f"check must be {{'kind': one of {', '.join(KINDS)}, 'value': ...}}, got {check!r}"
    tol = check.get("tol", DEFAULT_TOLERANCE)
    if isinstance(tol, bool) or not isinstance(tol, int | float) or tol < 0:
        return f"tol must be a non-negative number, got {tol!r}"
    return _value_problem(check["kind"], check["value"])


def _value_problem(kind: str, value: Any) -> str | None:
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, int | float)):
        return f"a number check needs a numeric value, got {value!r}"
    if kind == "contains" and not (isinstance(value, str) or _all_strings(value)):
        return f"a contains check needs a string or a list of strings, got {value!r}"
    if kind in ("exact", "regex") and not isinstance(value, str):
        return f"an {kind} check needs a string value, got {value!r}"
    if kind == "regex":
        try:
            re.compile(value)
        except (re.error, OverflowError, RecursionError) as exc:  # a{4294967296}, 2000 nested groups
            return f"bad regex {value[:80]!r}: {type(exc).__name__}: {exc}"
    return None


def _all_strings(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


def passes(check: dict[str, Any], output: Any) -> bool:
    """Whether `output` (any value; None counts as no answer) satisfies `check`."""
    if output is None:
        return False
    text = output if isinstance(output, str) else str(output)
    kind, value = check["kind"], check["value"]
    if kind == "number":
        found = numbers_in(text)
        tol = float(check.get("tol", DEFAULT_TOLERANCE))
        return bool(found) and (close(found[0], float(value), tol) or close(found[-1], float(value), tol))
    if kind == "contains":
        wanted = [value] if isinstance(value, str) else value
        return all(item.lower() in text.lower() for item in wanted)
    if kind == "exact":
        return bool(_strip_quotes(text.strip()) == value)
    if kind == "regex":
        return re.search(value, text) is not None
    raise ValueError(f"unknown check kind {kind!r}; known: {', '.join(KINDS)}")


def _strip_quotes(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text
