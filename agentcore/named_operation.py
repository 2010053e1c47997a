"""Two values combined with the operation the task does not name: "count the days of each month, and multiply the
two counts together" called as `calculator("29 + 28")` (independent10's cc21, which answered 1653 after `29 * 57`),
and "convert 68 F to Celsius and add 10 to whatever you get" as `10 * 20` (cc05).

Where an expression is exactly two numbers tools returned (none the task writes), joined by `+` or `*`, and the
task names the other one of those two operations and not the one written, the expression runs with the one the
task names. The words read are English arithmetic's words for a sum and a product; "together" names neither
("multiply them together", "add them together"), and a task that names both is left as written. Where it is a
returned number and a number of the task, and the task writes that number right after "add" ("add 10 to"), "plus"
or "multiply ... by", "times", the operation is the one those words name; a number followed by a word is left
("add 2 chairs" may well be `2 * 85` first).

A question for how far a result lies above or below a number of the task ("How many degrees Celsius above 37 is
that?" after 103.1 F came back as 39.5, run as `39.5 + 37`: independent12's cd34) is their difference, the larger
first: `39.5 - 37` above, `N - result` below.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import numbers_in

_NUM = r"\d+(?:\.\d+)?"
_PAIR = re.compile(rf"\s*\(?\s*({_NUM})\s*([+*])\s*({_NUM})\s*\)?\s*")
_PRODUCT = re.compile(r"\b(?:multipl(?:y|ied|ying)|product|times)\b", re.IGNORECASE)
_SUM = re.compile(r"\b(?:add|added|adding|sum|total|plus|combined|altogether|in all)\b", re.IGNORECASE)


def named(task: str) -> str | None:
    """The one combining operation the task names, "+" or "*"; None for neither or both."""
    product, total = _PRODUCT.search(task) is not None, _SUM.search(task) is not None
    return "*" if product and not total else "+" if total and not product else None


def as_named_operation(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with an expression of two returned numbers, added where the task only multiplies (or multiplied
    where it only adds), written with the task's operation; the same dict when nothing changes."""
    operation = named(task) if len(results) >= 2 else None
    if operation is None:
        return arguments
    returned, written = _values(results), _values([task])
    fixed = {key: _with(value, operation, returned, written) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def as_task_operation(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with an expression of a returned number and a number the task writes after an operation word
    ("add 10 to", "multiplied by 3"), joined by the other one of `+` and `*`, written with the task's operation;
    the same dict when nothing changes."""
    if not results:
        return arguments
    fixed = {key: _with_task_number(value, task, _values(results)) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _values(texts: Sequence[str]) -> set[float]:
    return {round(n, 9) for text in texts for n in numbers_in(text)}


# The number right after an operation word, not a percentage, and not before a word of its own ("add 2 chairs").
_NUMBER = r"(\d+(?:\.\d+)?)(?![\d.%])"
_ALONE = r"(?!\s*(?:percent|[a-z]))"
_ADD = re.compile(rf"\b(?:add|adding)\s+\$?{_NUMBER}\s+(?:to|onto)\b|\bplus\s+\$?{_NUMBER}{_ALONE}", re.I)
_TIMES = re.compile(
    rf"\bmultipl(?:y|ied|ying)\s+(?:[\w']+\s+){{0,5}}?by\s+{_NUMBER}{_ALONE}|\btimes\s+{_NUMBER}{_ALONE}", re.I
)


def _task_operation(task: str, number: float) -> str | None:
    """The operation the task writes `number` after: "+" for "add 10 to", "*" for "multiplied by 3"; None."""
    found = {
        sign
        for sign, pattern in (("+", _ADD), ("*", _TIMES))
        for match in pattern.finditer(task)
        if any(group is not None and float(group) == number for group in match.groups())
    }
    return found.pop() if len(found) == 1 else None


def _with_task_number(value: Any, task: str, returned: set[float]) -> Any:
    match = _PAIR.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return value
    first, sign, second = match.groups()
    mine = [n for n in (first, second) if round(float(n), 9) not in returned]
    if len(mine) != 1 or round(float(first), 9) == round(float(second), 9):
        return value
    task_number = mine[0]
    result = second if task_number == first else first
    operation = _task_operation(task, float(task_number))
    if operation is None or operation == sign:
        return value
    return f"{result} {operation} {task_number}"


def _with(value: Any, operation: str, returned: set[float], written: set[float]) -> Any:
    match = _PAIR.fullmatch(value) if isinstance(value, str) else None
    if match is None or match.group(2) == operation:
        return value
    first, _, second = match.groups()
    numbers = {round(float(first), 9), round(float(second), 9)}
    if len(numbers) != 2 or not numbers <= returned or numbers & written:
        return value
    return f"{first} {operation} {second}"


# "How many degrees above 37 is that?", "how much under 50 was it": how far a result lies from a number of the task.
_ABOVE = r"(?P<above>above|over|more\s+than|higher\s+than|greater\s+than)"
_BELOW = r"(?P<below>below|under|less\s+than|lower\s+than|short\s+of)"
_FROM = rf"(?:{_ABOVE}|{_BELOW})"
_THEN_WORD = r"(?!\s*(?:percent|%)|[\d.])(?!\s+(?!(?:is|was|are|were|will|would|that|it|this|degrees?)\b)[a-z])"
_HOW_FAR = re.compile(rf"\bhow\s+(?:many|much|far)\b[^.?!]{{0,60}}?\b{_FROM}\s+\$?{_NUMBER}{_THEN_WORD}", re.I)
_TWO = re.compile(rf"\s*\(?\s*({_NUM})\s*([-+*])\s*({_NUM})\s*\)?\s*")


def as_distance(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with an expression of a returned number and the number the task asks it to be measured above
    (or below), joined any other way, written as their difference; the same dict when nothing changes."""
    asked = _HOW_FAR.search(task) if results else None
    if asked is None:
        return arguments
    returned, number = _values(results), asked.group(asked.lastindex or 0)
    above = asked.group("above") is not None
    fixed = {key: _distance(value, returned, number, above) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _distance(value: Any, returned: set[float], number: str, above: bool) -> Any:
    match = _TWO.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return value
    first, _, second = match.groups()
    pair = {round(float(first), 9), round(float(second), 9)}
    if round(float(number), 9) not in pair or len(pair) != 2 or not (pair - {round(float(number), 9)}) <= returned:
        return value
    result = second if round(float(first), 9) == round(float(number), 9) else first
    wanted = f"{result} - {number}" if above else f"{number} - {result}"
    return value if _TWO.fullmatch(wanted) and _same(value, wanted) else wanted


def _same(value: str, wanted: str) -> bool:
    return re.sub(r"[\s()]", "", value) == re.sub(r"\s", "", wanted)


# "How many grams short am I?", "how much is left": a gap between two amounts, never their sum.
_GAP = re.compile(r"\bhow\s+(?:many|much)\b[^.?!]{0,40}?\b(?:short|left|remaining|remain)\b", re.IGNORECASE)
_SUM_OF_TWO = re.compile(rf"\s*\(?\s*({_NUM})\s*\+\s*({_NUM})\s*\)?\s*")


def as_gap(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with a sum of a returned number and a number of the task written as their difference, the
    larger first, where the task asks how much is short or left: "The bread recipe wants 2.5 lb of flour but I
    only have a 500 g bag. How many grams short am I?" ran `1133.980925 + 500` (independent14's cg18). The same
    dict when nothing changes."""
    if not results or _GAP.search(task) is None:
        return arguments
    returned, written = _values(results), _values([task])
    fixed = {key: _gap(value, returned, written) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _gap(value: Any, returned: set[float], written: set[float]) -> Any:
    match = _SUM_OF_TWO.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return value
    first, second = match.groups()
    kinds = [(round(float(n), 9) in returned, round(float(n), 9) in written) for n in (first, second)]
    if sorted(kinds) != [(False, True), (True, False)]:
        return value  # not one result and one number of the task
    larger, smaller = (first, second) if float(first) >= float(second) else (second, first)
    return f"{larger} - {smaller}"
