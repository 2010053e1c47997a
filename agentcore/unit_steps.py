"""A unit factor of the model's own, carried into arithmetic on the converter's result that replaced it.

"A plank is 3 feet long. How many centimeters are 7 planks?" opened with `3 * 7 * 1000`, a unit step of the
model's own (one number from nowhere is allowed: 60 minutes, 1000 grams). Sent to convert first, it ran
`unit_convert(3 ft -> cm)` = 91.44, then wrote `91.44 * 7 * 1000`: the conversion done twice (compose35's ap16,
held out). The factor is the model's own (in neither the task nor any result), it stood beside a number of the
task in an earlier calculation, the converter has since taken that number, and it is a unit factor: a power of ten
or the conversion's own ratio. The converted value stands for that number with its unit step done, so the factor
goes. Another constant of the model's own (pi in `3 * 3 * 3.14159` for a circle's area) stays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from agentcore.expression_edits import without_term
from agentcore.unfinished import BARE_NUMBER, argument_values, given_numbers, plain, values_in

Earlier = Sequence[tuple[str, Any, str]]  # (tool name, arguments, result) of the run's good calls, in order


def without_unit_step(arguments: dict[str, Any], tool: str, earlier: Earlier, task: str) -> dict[str, Any]:
    """`arguments` with each such carried factor left out of its expression; the same object when none is."""
    fixed = {key: _without(value, tool, earlier, task) if isinstance(value, str) else value
             for key, value in arguments.items()}  # fmt: skip
    return fixed if fixed != arguments else arguments


def _without(expression: str, tool: str, earlier: Earlier, task: str) -> str:
    mine = argument_values(expression)
    given = given_numbers(task)
    results = {v for _, _, result in earlier for v in values_in(result)}
    for factor in mine - given - results:
        if _carried(factor, mine, tool, earlier, given):
            return without_term(expression, plain(factor)) or expression
    return expression


def _carried(factor: float, mine: set[float], tool: str, earlier: Earlier, given: set[float]) -> bool:
    """Whether a converter's result in this expression took a number of the task that an earlier call of this
    tool had taken beside `factor`, before the converter ran."""
    for index, (name, inputs, result) in enumerate(earlier):
        taken = argument_values(inputs) & given
        if name == tool or not BARE_NUMBER.fullmatch(result.strip()) or not values_in(result) & mine or not taken:
            continue
        before = [argument_values(arguments) for other, arguments, _ in earlier[:index] if other == tool]
        ratios = {float(r) / t for r in values_in(result) for t in taken if t}
        if _unit_factor(factor, ratios) and any(factor in numbers and numbers & taken for numbers in before):
            return True
    return False


def _unit_factor(factor: float, ratios: set[float] | None = None) -> bool:
    """A power of ten (1000 grams, 100 centimeters), or within 1% of a conversion's ratio or its inverse."""
    if factor > 0 and abs(math.log10(factor) - round(math.log10(factor))) < 1e-9:
        return True
    return any(r and (abs(factor / r - 1) < 0.01 or abs(factor * r - 1) < 0.01) for r in ratios or set())
