"""A task's number that English writes as the divisor or the amount taken away, called first (issue #12): "The
price of a laptop divided by 3" called as `calculator("3 / 899")`, "take 15 off the price" as `15 - 240`, and
"the price of a backpack divided among 3 friends" as `3 * 49.5`.

Where an expression is two numbers only, one a number the task writes once and the other one a tool returned,
and the task marks its number as the second operand ("divided by 3", "among 3", "minus 20", "subtract 20 from",
"take 15 off", "40 less than"), the expression runs in that order (`899 / 3`, `240 - 15`); a product of the two
where the task divides by its number ("divided among 3") runs as that division, and one where it takes its number
away ("with 12 taken off", written `49.5 * 12`) as that subtraction, as does a comparison for "less 5" (`43 <
5`, which no calculator answers with a number), and a sum of the task's amount and a price where the task asks
what is left after buying (`899 + 1000` for "What remains once I buy a laptop?" runs as `1000 - 899`), and so
does a longer sum of prices and the amount paid where the task asks for the change, and a sum of a price and an
amount the task knocks or takes off (`159 + 35` for "knock the $35 deposit ... off its price"); "how many ... can
I buy with $30" divides the amount by the price, whatever the model wrote between them. The words read are
English arithmetic's words for a divisor, a subtrahend and a remainder, not a phrasing of the suite.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import PERCENT_SIGN, numbers_in

_NUM = r"\d+(?:\.\d+)?"
# Two numbers and an operator, and perhaps the model's own "= 829" after them (it goes when the pair is rewritten).
_PAIR = re.compile(rf"\s*({_NUM})\s*([-/*<+])\s*({_NUM})\s*(?:=\s*-?{_NUM}\s*)?")
# Before the number: what it divides by, or what is taken away ("divided by 3", "minus 20", "take away 30").
_DIVISOR = (
    r"\b(?:divided|divide|split|shared|share)\s+(?:\w+\s+){{0,3}}?(?:by|among|between)\s+{n}(?!\d|\.\d)"
    # "split what's left five ways", "in 4 equal legs", "over 3 equal monthly installments" (independent1's ar23,
    # independent5's bx33, bx23): a count of equal parts is a divisor; "over 3 months" alone is none.
    r"|\b(?:divided|divide|split|shared|share)\s+(?:\S+\s+){{0,4}}?{n}\s+ways\b"
    r"|\b(?:in|into|over)\s+{n}\s+equal\b"
)
_BY = r"(?:cut|reduced|lowered|decreased|dropped)\s+by"  # "cut by 29" (compose26's ag04)
# "knock off 18", "take off a $10 coupon", "knock the $35 deposit I already paid off its price" (independent1's
# ar23, ar24, ar05): the verb's particle before or after its object.
_KNOCK = (
    r"|\b(?:knock|knocking|knocked|take|taking)\s+off\s+(?:\w+\s+){{0,2}}?\$?{n}(?!\d|\.\d)"
    r"|\b(?:knock|knocking|knocked|take|taking)\s+(?:\w+\s+){{0,2}}?\$?{n}\s+(?:\w+\s+){{0,4}}?off\b"
)
_SUBTRAHEND = (
    r"\b(?:minus|subtract|less|deduct|take\s+away|take|takes|taking|" + _BY + r")\s+{n}(?!\d|\.\d)"
    r"|(?<![\d.]){n}\s+(?:\w+\s+)?(?:off|less\s+than|fewer\s+than)\b" + _KNOCK
)
# For a product, "take 12" alone is no subtraction ("take 12 backpacks"): only the words that always are.
_TAKEN = (
    r"\b(?:minus|subtract|less|deduct|take\s+away|" + _BY + r")\s+{n}(?!\d|\.\d)"
    r"|(?<![\d.]){n}\s+(?:\w+\s+)?(?:off|less\s+than|fewer\s+than)\b" + _KNOCK
)
_EITHER = [("/", _DIVISOR), ("-", _TAKEN)]
_LESS = r"\bless\s+{n}(?!\d|\.\d)"  # "..., less 5": never "5 less than", which a comparison may ask
# What is left of an amount after a purchase: "How much money do I have left?", "What remains", "what change".
_LEFT_OVER = re.compile(r"\b(?:left|left over|remains?|remaining|(?:what|the|my|in|much) change)\b", re.IGNORECASE)
# The change or what remains of an amount, for a longer sum: "how much is left to pay" is no remainder of it.
_CHANGE = re.compile(r"\b(?:change|remains?|remaining|left over|have left|left with)\b", re.IGNORECASE)
# A sum of three or more numbers: "7.25 + 8.75 + 50" for the change from 50 (independent1's ar14).
_SUM = re.compile(rf"\s*{_NUM}(?:\s*\+\s*{_NUM})+\s*(?:=\s*-?{_NUM}\s*)?")


def in_task_order(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with each two-number expression that puts the task's divisor or subtrahend first written the
    other way round; the same dict when nothing changes."""
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    written = [round(n, 9) for n in numbers_in(task)]
    fixed = {key: _bought(value, task, returned, written) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _bought(value: Any, task: str, returned: set[float], written: list[float]) -> Any:
    """The amount over the price where the task asks how many it buys; else the pair in the task's order."""
    match = _PAIR.fullmatch(value) if isinstance(value, str) else None
    if match is not None:
        left, operator, right = match.groups()
        afforded = _afforded(task, (left, right), returned, written)
        if afforded is not None and not (operator == "-" and _STAGED.search(task)):
            return value if (operator, afforded) == ("/", f"{left} / {right}") else afforded
        fits = _fits(task, (left, right), returned, written) if operator == "*" else None
        if fits is not None:
            return fits
    return _ordered(value, task, returned, written)


# "How many shots is that?", "How many 500 ml bottles would fill it?": a count of things, each a measured size.
_HOW_MANY = re.compile(rf"\bhow\s+many\s+(?:{_NUM}\s*[a-z]+\s+)?([a-z]+)", re.IGNORECASE)


def _fits(task: str, pair: tuple[str, str], returned: set[float], written: list[float]) -> str | None:
    """`result / size` where a result was multiplied by the task's size of one thing ("18 g per espresso shot",
    "500 ml bottles") and the task asks how many things, not how much of the size's kind: `2267.96185 * 18` for
    "A 5 lb bag of coffee beans, 18 g per espresso shot. How many shots is that?" (independent10's cc34)."""
    from agentcore.unit_names import unit_kind

    asked = _HOW_MANY.search(task)
    for result, size in (pair, pair[::-1]):
        if asked is None or not (_is_theirs(result, returned, written) and _is_ours(size, returned, written)):
            continue
        number = re.escape(_as_written(task, float(size)))
        thing = re.escape(asked.group(1).lower().removesuffix("s"))
        # the size of one of the things counted: "18 g per espresso shot", "500 ml bottles"; not "7 days" beside
        # "how many kilometers" (a count of days that a daily distance is multiplied by)
        sized = rf"(?<![\d.]){number}\s*([a-z]+)\s+(?:(?:per|a|an|each|every|for|of)\s+)?(?:[a-z]+\s+){{0,2}}{thing}"
        unit = re.search(sized, task, re.IGNORECASE)
        kind = unit_kind(unit.group(1)) if unit is not None else None
        if kind is not None and unit_kind(asked.group(1)) != kind:
            return f"{result} / {size}"
    return None


def _ordered(value: Any, task: str, returned: set[float], written: list[float]) -> Any:
    match = _PAIR.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return _change(value, task, returned, written) if isinstance(value, str) else value
    left, operator, right = match.groups()
    if operator == "+":
        taken = _taken_from_sum(value, task, (left, right), returned, written)
        return taken if taken != value else _left_over(value, task, (left, right), returned, written)
    if operator in "*<" and _is_ours(right, returned, written):  # a product either way round: "49.5 * 3"
        left, right = right, left
    if not _is_ours(left, returned, written) or not _is_theirs(right, returned, written):
        return value
    number = re.escape(_as_written(task, float(left)))
    # A product may stand for either: "divided among 3" written `3 * 49.5`, "with 12 taken off" written
    # `49.5 * 12` (compose24's ae04). A percentage taken off ("20 percent off") is no amount to subtract.
    named = [("/", _DIVISOR)] if operator == "/" else [("-", _SUBTRAHEND)] if operator == "-" else _EITHER
    named = [("-", _LESS)] if operator == "<" else named  # "less 5" written `43 < 5` (compose27's ah05)
    for sign, pattern in named:
        if sign == "-" and re.search(rf"(?<![\d.]){number}{PERCENT_SIGN}", task, re.IGNORECASE):
            continue
        if re.search(pattern.format(n=number), task, re.IGNORECASE) is not None:
            return f"{right} {sign} {left}"
    if operator == "-" and float(left) < float(right) and _LEFT_OVER.search(task):
        # what is left is never negative: "6 ft wide and I've got 140 cm of books on it. How much room is left,
        # in cm?" ran `140 - 182.88` (independent1's ar35)
        return f"{right} - {left}"
    return value


def _left_over(value: str, task: str, pair: tuple[str, str], returned: set[float], written: list[float]) -> str:
    """The task's amount less the fetched price, where a sum of the two answers what is left after buying
    (`899 + 1000` for "My budget is 1000 dollars. What remains once I buy a laptop?": compose29's aj08, and
    compose30's ak08 wrote `329 + 500 = 829`)."""
    ours, theirs = pair if _is_ours(pair[0], returned, written) else pair[::-1]
    if (
        not _LEFT_OVER.search(task)
        or not _is_ours(ours, returned, written)
        or not _is_theirs(theirs, returned, written)
    ):
        return value
    # never negative: the room left on a 182.88 cm shelf with 140 cm of books on it (independent1's ar35)
    return f"{ours} - {theirs}" if float(ours) >= float(theirs) else f"{theirs} - {ours}"


def _taken_from_sum(value: str, task: str, pair: tuple[str, str], returned: set[float], written: list[float]) -> str:
    """The fetched value less the task's amount, where the two were added and the task takes that amount off
    (`159 + 35` for "knock the $35 deposit I already paid off its price": independent1's ar05)."""
    ours, theirs = pair if _is_ours(pair[0], returned, written) else pair[::-1]
    if not _is_ours(ours, returned, written) or not _is_theirs(theirs, returned, written):
        return value
    number = re.escape(_as_written(task, float(ours)))
    if re.search(rf"(?<![\d.]){number}{PERCENT_SIGN}", task, re.IGNORECASE):
        return value
    return f"{theirs} - {ours}" if re.search(_TAKEN.format(n=number), task, re.IGNORECASE) else value


def _change(value: str, task: str, returned: set[float], written: list[float]) -> str:
    """The task's amount less the sum of the fetched prices, where all were added and the task asks what is left
    or the change (`7.25 + 8.75 + 50` for "a fifty ... a USB cable and a coffee mug, how much change": ar14)."""
    if _SUM.fullmatch(value) is None or not _CHANGE.search(task):
        return value
    numbers = re.findall(_NUM, value.partition("=")[0])
    ours = [n for n in numbers if _is_ours(n, returned, written)]
    theirs = [n for n in numbers if _is_theirs(n, returned, written)]
    if len(ours) != 1 or len(theirs) != len(numbers) - 1:
        return value
    return f"{ours[0]} - ({' + '.join(theirs)})"


# "how many pens can I buy with $30", "how many tickets could we afford for 100 dollars": the amount over the price.
_AFFORD = (
    r"\bhow many\b[^?.!]*\b(?:can|could)\s+(?:i|we|you|they|he|she)\s+(?:buy|afford|get|purchase|order)\b"
    r"[^?.!]*\b(?:with|for|on)\s+(?:\w+\s+)?\$?{n}(?!\d|\.\d)"
)


# "after that", "what's left": an amount spent first, which a subtraction may rightly take away
_STAGED = re.compile(r"\b(?:after|left|remaining|remains|first)\b", re.IGNORECASE)


def _afforded(task: str, pair: tuple[str, str], returned: set[float], written: list[float]) -> str | None:
    """`amount / price` for the task's amount and the one returned price where the task asks how many it buys (any
    operation written on the two: "30 - 1.2" for "how many pens can i buy with $30", independent8's ca15; a
    subtraction stays where the task spends on something first)."""
    for amount, price in (pair, pair[::-1]):
        if _is_ours(amount, returned, written) and _is_theirs(price, returned, written) and len(returned) == 1:
            pattern = _AFFORD.format(n=re.escape(_as_written(task, float(amount))))
            if re.search(pattern, task, re.IGNORECASE):
                return f"{amount} / {price}"
    return None


def _is_ours(number: str, returned: set[float], written: list[float]) -> bool:
    """A number the task writes once and no tool returned."""
    value = round(float(number), 9)
    return written.count(value) == 1 and value not in returned


def _is_theirs(number: str, returned: set[float], written: list[float]) -> bool:
    value = round(float(number), 9)
    return value in returned and value not in written


def _as_written(task: str, number: float) -> str:
    """The task's own spelling of `number` ("3", "12.5"), compared as `_is_ours` compares: `7.000000000000001`
    is the task's 7 (compared unrounded, it crashed a run: compose18's u06)."""
    value = round(number, 9)
    return next((m.group() for m in re.finditer(_NUM, task) if round(float(m.group()), 9) == value), str(number))
