"""Operations the task gives one after another, written as one flat expression that precedence reorders.

"Take 86,420, subtract 39,875, and multiply what's left by 13" was called as `86420 - 39875 * 13` by both
Qwen2.5-Coder-0.5B and -1.5B (forty-ninth stop, trap1 dev pa28): a small model writes the task's numbers left to
right and leaves the parentheses out. Where an expression `a ± b ×÷ c` takes three numbers of the task in the
task's own order, and the task refers back to the result between `b` and `c` ("what's left", "the result",
"that"), the task did the sum first: the call runs as `(a ± b) ×÷ c`. Without the reference ("subtract 3 times
4 from 20") the product is the task's, and the expression stays.
"""

from __future__ import annotations

import re
from typing import Any

_N = r"(\d+(?:\.\d+)?)"
_FLAT = re.compile(rf"^\s*{_N}\s*([+-])\s*{_N}\s*([*/])\s*{_N}\s*$")
_TASK_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])\d+(?:\.\d+)?(?!\d|,\d)")
# Words that take the result so far as the next operation's input.
_BACK = re.compile(
    r"\bwhat(?:'s| is) left\b|\bthe (?:result|remainder|rest|total|sum|difference|answer)\b|\b(?:that|it|this)\b",
    re.IGNORECASE,
)


def in_said_order(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each flat expression the task orders otherwise written with its parentheses; the same dict
    when none is. (`parameters` is unused: a form of `call_forms`, read off the task alone.)"""
    fixed = {key: _grouped(value, task) if isinstance(value, str) else value for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _grouped(expression: str, task: str) -> str:
    match = _FLAT.match(expression)
    if match is None:
        return expression
    a, sign, b, times, c = match.groups()
    spans = _number_spans(task)
    if not all(float(value) in spans for value in (a, b, c)):
        return expression
    first, second, third = (spans[float(value)] for value in (a, b, c))
    if not first < second < third:
        return expression
    return f"({a} {sign} {b}) {times} {c}" if _BACK.search(task[second[1] : third[0]]) else expression


def _number_spans(task: str) -> dict[float, tuple[int, int]]:
    """Each number the task writes (thousands separators read), with the span of its first occurrence."""
    spans: dict[float, tuple[int, int]] = {}
    for match in _TASK_NUMBER.finditer(task):
        spans.setdefault(float(match.group().replace(",", "")), match.span())
    return spans
