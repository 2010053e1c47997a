"""A comparison added up: "How much more does a laptop cost than a tablet?" called as `calculator("899 + 329")`;
a ratio subtracted: "How many times more ..." called as `calculator("899 - 329")`.

A question of how much more, less or cheaper one thing is than another asks for a difference, never a sum, yet
the 0.5B model, with both prices looked up, adds them (compose m15). Where the task asks such a question ("how
much" or "how many", then a comparative and "than", or "exceed"; the difference or gap between two things; "which",
a comparative, then "by how much") and an expression only adds two numbers that
tools returned, the expression runs as the larger minus the smaller ("899 - 329"): the amount by which one
exceeds the other. The smaller minus the larger ("1.2 - 8.75" for "How much less does a pen cost than a usb
cable?", compose16's l09) runs the same way: the amount asked is never negative. "How many times" more, as
much or larger than asks for a ratio: an expression of two returned numbers runs as the larger over the smaller.
A shortfall ("How many more words do I need?", "how far under the limit") is a difference too, between a number
a tool returned and one the task writes ("at least 40 words"), which the model adds just the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import numbers_in

# "how much more ... than", "how much cheaper is ... than", "by how much does ... cost more than": one sentence;
# or "by how much does ... exceed ...", the verb for the same question; or its noun, "the difference (gap) in
# price between ... and ..."; or "which costs more, ... or ..., and by how much".
_COMPARISON = re.compile(
    r"\bhow (?:much|many)\b[^?.!]*(?:\b(?:more|less|fewer|[a-z]{3,}er)\b[^?.!]*\bthan\b|\bexceed)"
    r"|\b(?:difference|gap)\b[^?.!]*\bbetween\b"
    # "Is a usb cable dearer than five pens? By how much, in dollars?" (independent5's bx18): the next sentence asks
    r"|\b(?:more|less|fewer|[a-z]{3,}er)\b[^?.!]*\bthan\b[^?.!]*[?.!]\s*by how (?:much|many)\b"
    r"|\bwhich\b[^?.!]*\b(?:more|less|fewer|[a-z]{3,}er)\b[^?.!]*\bby how (?:much|many)\b",
    re.I,
)
# What is still missing to reach an amount, or how far one is from a limit: "How many more words do I need to
# write?", "how many more liters do I need to add", "How many kilograms under the limit am I?" (independent8's
# ca16, ca33, ca35). The task writes one of the two amounts, a tool returns the other: their gap is asked.
_SHORTFALL = re.compile(
    r"\bhow (?:much|many)\s+(?:\w+\s+)?(?:more|further|extra)\b(?![^?.!]*\bthan\b)"
    r"|\bhow (?:much|many)\b[^?.!]*\b(?:(?:under|over|below|above)\s+(?:the\s+|my\s+|our\s+|your\s+)?"
    r"(?:limit|budget|target|goal|cap|max\w*|allowance|quota)|short of|shy of)\b",
    re.I,
)
# "How many times more does a laptop cost than a tablet?", "how many times as much": a ratio, not a difference.
_RATIO = re.compile(r"\bhow many times\b[^?.!]*\b(?:than|as)\b", re.I)
_NUM = r"\d+(?:\.\d+)?"
_PAIR = re.compile(rf"\s*({_NUM})\s*([-+])\s*({_NUM})\s*")
_ANY_PAIR = re.compile(rf"\s*({_NUM})\s*([-+*/])\s*({_NUM})\s*")
# Two terms, each a number or a count times a number: "5 * 1.2 + 8.75", five pens beside a cable.
_TERM = rf"{_NUM}(?:\s*\*\s*{_NUM})?"
_TERMS = re.compile(rf"\s*({_TERM})\s*([-+])\s*({_TERM})\s*")


def asks_difference(task: str) -> bool:
    """Whether the task asks how much one thing exceeds another (not how many times: `asks_ratio`; not a total
    whose parts are differences: "How many days did the two projects last in total (count each as the difference
    between its dates)?", independent8's ca20)."""
    total = _IN_TOTAL.search(task) is not None and re.search(r"\bthan\b|\bexceed", task, re.IGNORECASE) is None
    return _COMPARISON.search(task) is not None and not asks_ratio(task) and not total


_IN_TOTAL = re.compile(r"\b(?:in total|altogether)\b", re.IGNORECASE)  # not "the difference between the sum of"
_ADDING = re.compile(r"\b(?:added|plus)\b", re.IGNORECASE)  # not "to add", which a shortfall asks
# "in total", "altogether", "combined", "the sum of": one answer made of several results.
_TOTAL = re.compile(r"\b(?:in total|altogether|together|combined|sum of|total of|grand total)\b", re.IGNORECASE)


def asks_total(task: str) -> bool:
    """Whether the task asks for a total of several things."""
    return _TOTAL.search(task) is not None


def asks_shortfall(task: str) -> bool:
    """Whether the task asks what is missing to reach an amount or how far one is under (over) a limit; not
    where it also adds ("with 25 dollars of shipping added", "further ... in total")."""
    if asks_ratio(task) or asks_total(task) or _ADDING.search(task):
        return False
    return _SHORTFALL.search(task) is not None


def asks_ratio(task: str) -> bool:
    """Whether the task asks how many times one thing is another ("How many times more ... than ...")."""
    return _RATIO.search(task) is not None


def as_difference(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with an expression that only adds two different numbers tools returned, or takes the larger
    from the smaller, written as the larger minus the smaller, when the task asks a comparison; any one operation
    on two such numbers written as the larger over the smaller, when it asks how many times. The same dict when
    nothing changes."""
    ratio = asks_ratio(task)
    if not ratio and not asks_difference(task):
        return as_shortfall(arguments, task, results)
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    written = _ratio if ratio else _difference
    fixed = {key: written(value, returned) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def as_shortfall(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with an expression that adds a number a tool returned and one the task writes, or takes the
    larger from the smaller, written as the larger minus the smaller, when the task asks a shortfall
    (`22 + 40` for "at least 40 words ... How many more words do I need to write?" runs as `40 - 22`)."""
    if not results or not asks_shortfall(task):
        return arguments
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    known = returned | {round(n, 9) for n in numbers_in(task)}
    fixed = {key: _gap(value, returned, known) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _gap(value: Any, returned: set[float], known: set[float]) -> Any:
    pair = _returned_pair(value, known, _PAIR)
    if pair is None or not {round(float(pair[0]), 9), round(float(pair[2]), 9)} & returned:
        return value
    first, sign, second = pair
    if sign == "-" and float(first) > float(second):
        return value
    high, low = _ordered(first, second)
    return f"{high} - {low}"


def answered(task: str, arguments: Any, results: Sequence[str]) -> bool:
    """Whether a call with `arguments` took the larger of two numbers tools returned minus the smaller, for a
    task that asks a comparison: its result is the amount asked."""
    if not asks_difference(task) or not isinstance(arguments, dict):
        return False
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    for value in arguments.values():
        match = _PAIR.fullmatch(value) if isinstance(value, str) else None
        if match is not None and match.group(2) == "-" and float(match.group(1)) > float(match.group(3)):
            return {round(float(match.group(1)), 9), round(float(match.group(3)), 9)} <= returned
    return False


def _ratio(value: Any, returned: set[float]) -> Any:
    """Two different returned numbers combined in one operation, for "how many times ... than": the larger over
    the smaller (`899 - 329` for "How many times more does a laptop cost than a tablet?", compose34's ao09)."""
    pair = _returned_pair(value, returned, _ANY_PAIR)
    if pair is None:
        return value
    high, low = _ordered(pair[0], pair[2])
    return f"{high} / {low}"


def _difference(value: Any, returned: set[float]) -> Any:
    pair = _returned_pair(value, returned, _PAIR)
    if pair is None:
        return _counted_difference(value, returned)
    first, sign, second = pair
    if sign == "-" and float(first) > float(second):
        return value  # the difference as asked
    high, low = _ordered(first, second)
    return f"{high} - {low}"


def _counted_difference(value: Any, returned: set[float]) -> Any:
    """Two terms added, one of them a count times a returned number and the other a returned number or such a
    product: "5 * 1.2 + 8.75" for "Is a usb cable dearer than five pens?" runs as `8.75 - 5 * 1.2`."""
    match = _TERMS.fullmatch(value) if isinstance(value, str) else None
    if match is None or "*" not in value:
        return value
    first, sign, second = match.groups()
    terms = [[float(n) for n in term.split("*")] for term in (first, second)]
    if not all(any(round(n, 9) in returned for n in term) for term in terms):
        return value
    totals = [term[0] * (term[1] if len(term) > 1 else 1) for term in terms]
    if totals[0] == totals[1] or (sign == "-" and totals[0] > totals[1]):
        return value
    high, low = (first, second) if totals[0] > totals[1] else (second, first)
    return f"{high.strip()} - {low.strip()}"


def _returned_pair(value: Any, returned: set[float], pattern: re.Pattern[str]) -> tuple[str, str, str] | None:
    """(first, operator, second) of an expression that is one operation on two different returned numbers."""
    match = pattern.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    first, sign, second = match.groups()
    if float(first) == float(second) or not {round(float(first), 9), round(float(second), 9)} <= returned:
        return None
    return first, sign, second


def _ordered(first: str, second: str) -> tuple[str, str]:
    return (first, second) if float(first) > float(second) else (second, first)
