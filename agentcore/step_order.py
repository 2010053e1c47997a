"""Two steps of the task written as one flat expression, in an order its precedence breaks (issue #12): "Look up
the price of a webcam, add 20, and halve the total" called as `64 + 20 / 2` (74, where the task means 42), and
"..., add 10, and multiply the sum by 3" as `3 + 10 * 3`, and "..., add 4, and square the result" as `7 + 4**2`.

A small model writes the steps left to right and leaves precedence out. When the task's step plan
(`agentcore.steps`) says the call's step is "add 20" and a later step remains, an expression `R + a / b` on the
latest result R, whose `a` the current step writes and whose `b` it does not, runs as that step alone (`64 + 20`):
the plan then asks for the next step with the sum as its input. Where `a` or `b` is a result itself
(`159 + 159 * 0.10`, a portion of the same price) or the step writes both numbers ("add 20 divided by 4"), the
expression is what the task asks and stays.

Nor may a step be skipped: "..., convert it to Fahrenheit, add 10, halve the result and subtract 3" called as
`104 + 10 - 3` (independent1's ar21) did the last step before the halving. An expression `R o a o' b` whose `a`
the current step writes and whose `b` only a step after the next one writes runs as `R o a` too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentcore.unfinished import BARE_NUMBER, numbers_in

_N = f"({BARE_NUMBER.pattern})"
_FLAT = re.compile(rf"^\s*{_N}\s*([+-])\s*{_N}\s*(\*\*|[*/^])\s*{_N}\s*$")
# A step that names a power itself ("add 4 squared") writes its exponent in words.
_POWER_WORDS = re.compile(r"squar|cube|power", re.I)
_CHAIN = re.compile(rf"^\s*{_N}\s*([-+*/])\s*{_N}\s*([-+*/])\s*{_N}\s*$")


def current_step_only(expression: str, step: str, results: Sequence[str], later: Sequence[str]) -> str:
    """The part of `expression` that does `step` (the plan's current step), when the rest belongs to one of the
    `later` steps; `expression` itself otherwise."""
    skipped = _skipping(expression, step, results, later) if later and results else None
    if skipped is not None:
        return skipped
    match = _FLAT.match(expression)
    if match is None or not later or not results:
        return expression
    base, first, second = (float(match.group(i)) for i in (1, 3, 5))
    latest = numbers_in(results[-1])
    taken = {value for result in results for value in numbers_in(result)}
    if latest != [base] or first in taken or first not in numbers_in(step) or second in numbers_in(step):
        return expression
    if match.group(4) in ("**", "^") and _POWER_WORDS.search(step):
        return expression
    if second in taken and not any(second in numbers_in(text) for text in later):  # a portion of the result
        return expression
    return expression[: match.end(3)].strip()


def _skipping(expression: str, step: str, results: Sequence[str], later: Sequence[str]) -> str | None:
    """`R o a`, when `expression` is `R o a o' b` on the latest result R, the current step writes `a`, and `b` is
    written by a step after the next one, not by the next or the current; None otherwise."""
    match = _CHAIN.match(expression)
    if match is None or len(later) < 2:
        return None
    base, first, second = (float(match.group(i)) for i in (1, 3, 5))
    if numbers_in(results[-1]) != [base] or first not in numbers_in(step):
        return None
    if second in numbers_in(step) or second in numbers_in(later[0]):
        return None
    if not any(second in numbers_in(text) for text in later[1:]):
        return None
    return expression[: match.end(3)].strip()
