"""A number of the task written twice where a fetched value belongs: "The shop said they'd knock off 12 bucks from
the backpack price" called as `calculator("12 - 12")` after the backpack's 49.5 was looked up (independent8's ca11,
answered 0).

The 0.5B model wrote the call before the price was fetched (it was held: the items come first), and wrote it
again once the price was in. Where an expression writes a number of the task more often than the task does, and
exactly one bare-number result of an earlier call is in no later call and not in the expression, the first extra
copy runs as that result (`49.5 - 12`): the slot the model filled with the number it had was the value it lacked.
A number written twice as the task writes it twice ("12 + 12" for "12 on Monday and 12 on Tuesday"), or with no
unused result, stays, and so does a product of the number with itself ("12 * 12" for a square 12 ft a side) and
any argument with a date in it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import ARITHMETIC, BARE_NUMBER, DATE_IN_DIGITS, argument_values, numbers_in, values_in

_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
# The number twice beside a sign: "12 - 12"; not "12 * 12", which squares the side of "a 12 ft square".
_SIGNED_PAIR = r"(?<![\w.]){n}\s*[-+]\s*{n}(?![\w.])"


def with_unused_result(
    arguments: dict[str, Any], task: str, earlier: Sequence[tuple[str, dict[str, Any], str]], tool: str
) -> dict[str, Any]:
    """`arguments` of a call of `tool` with the extra copy of a task number in an expression written as the one
    unused result another tool fetched; the same dict when nothing changes."""
    unused = _unused_results(earlier, tool)
    if len(unused) != 1:
        return arguments
    written = Counter(round(n, 9) for n in numbers_in(task))
    returned = {round(v, 9) for _, _, result in earlier for v in values_in(result)}
    fixed = {key: _in_place(value, unused[0], written, returned) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _unused_results(earlier: Sequence[tuple[str, dict[str, Any], str]], tool: str) -> list[str]:
    """The bare-number results of other tools than `tool` that no later call took."""
    unused = []
    for index, (name, _, result) in enumerate(earlier):
        later = set().union(*(argument_values(arguments) for _, arguments, _ in earlier[index + 1 :]))
        if name != tool and BARE_NUMBER.fullmatch(result.strip()) and not values_in(result) & later:
            unused.append(result.strip())
    return unused


def _in_place(value: Any, result: str, written: Counter[float], returned: set[float]) -> Any:
    if not isinstance(value, str) or not ARITHMETIC.fullmatch(value) or DATE_IN_DIGITS.search(value):
        return value
    if values_in(result) & values_in(value):
        return value
    copies = Counter(round(float(m.group(0)), 9) for m in _NUMBER.finditer(value))
    extra = [n for n, k in copies.items() if written[n] and k > written[n] and n not in returned]
    if len(extra) != 1:
        return value
    first = next(m for m in _NUMBER.finditer(value) if round(float(m.group(0)), 9) == extra[0])
    if not re.search(_SIGNED_PAIR.format(n=re.escape(first.group(0))), value):
        return value
    return value[: first.start()] + result + value[first.end() :]
