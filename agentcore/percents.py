"""A percentage of the task multiplied as a whole number: "Shipping costs 10% of the chair's price" called as
`calculator("10 * 85")` (independent8's ca27: 850 for 8.5), or multiplied by its own fraction beside the value it
is a share of: "the price plus 7% tax" called as `215 + 7 * 0.07` (ca25).

The 0.5B model writes a percentage's number where its fraction belongs. Where the task writes a number only as a
percentage ("10%", "10 percent"), and an arithmetic expression multiplies that number by another one with no
division by 100 anywhere in it, the number runs as its fraction (`0.1 * 85`): N% of anything is never N times it.
Multiplied by its own fraction, beside a tool's result that the product is added to or taken from, the number
stands for that result (`215 + 215 * 0.07`). A number the task also writes as a plain quantity ("10% off 10
chairs"), or that a tool returned, is left as written, and so is every expression where the task asks its answer
in percent ("by what percent").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from agentcore.unfinished import PERCENT, PERCENT_SIGN, numbers_in

_NUM = r"\d+(?:\.\d+)?"
_NUMBER = re.compile(rf"(?<![\w.]){_NUM}(?![\w.])")
_ARITHMETIC = re.compile(r"[\d\s.+\-*/()]*\*[\d\s.+\-*/()]*")
_PER_HUNDRED = re.compile(r"/\s*100(?![\d.])|(?<![\d.])0\.01(?![\d])")
_PERCENT_AFTER = re.compile(PERCENT_SIGN, re.IGNORECASE)
_ASKS_PERCENT = re.compile(r"\b(?:what|which|how many)\s+(?:percent|percentage|per cent)", re.IGNORECASE)
_SHARE_ADDED = re.compile(rf"\s*({_NUM})\s*([-+])\s*({_NUM})\s*\*\s*({_NUM})\s*")


def only_percents(task: str) -> set[float]:
    """The numbers the task writes, every time, as a percentage ("7%" in "plus 7% tax" -> 7.0)."""
    percents = {float(match.group(1)) for match in PERCENT.finditer(task)}
    plain = {float(match.group(0)) for match in _NUMBER.finditer(task) if not _PERCENT_AFTER.match(task, match.end())}
    return percents - plain


def as_percent_fractions(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with each percentage written as a whole factor in an expression written as its fraction; the
    same dict when nothing changes."""
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    percents = {p for p in only_percents(task) if round(p, 9) not in returned}
    if _ASKS_PERCENT.search(task):  # "by what percent does it grow over 6 months": `4 * 6` is in percent
        return arguments
    if not percents:
        return arguments
    fixed = {key: _fractions(value, percents, returned) for key, value in arguments.items()}
    if len(percents) == 1 and not _PERCENT_OF.search(task):
        percent = next(iter(percents))
        fixed = {key: _on_the_sum(value, percent, returned) for key, value in fixed.items()}
    return fixed if fixed != arguments else arguments


# "5% of the tablet's price", "a 12% markup on the laptop": the percentage belongs to one value, not to a total
_PERCENT_OF = re.compile(rf"{_NUM}\s*(?:%|percent)\s+(?:[a-z]+\s+){{0,2}}?(?:of|on)\b", re.IGNORECASE)
_TERM = re.compile(rf"\s*([-+]?)\s*({_NUM})(?:\s*\*\s*({_NUM}))?")


def _on_the_sum(value: Any, percent: float, returned: set[float]) -> Any:
    """A sum of results whose one term alone carries the percentage's fraction, where the task names no value
    the percentage is of, as the whole sum times the whole plus that percent: "the total for a tablet plus a pair
    of headphones once 8% sales tax is added" ran `329 + 129.99 * 0.08` (independent14's cg22), which runs as
    `(329 + 129.99) * 1.08`; `3 * 8.75 + 0.05 * 7.25` for 5% tax on 3 cables and a mug (independent10's cc23)
    the same way. A sum that adds the share of a value it also holds (`329 + 329 * 0.05`) is left."""
    if not isinstance(value, str) or not re.fullmatch(rf"(?:{_TERM.pattern})+\s*", value):
        return value
    terms = [(sign, a, b) for sign, a, b in _TERM.findall(value)]
    fraction = round(percent / 100, 9)
    shares = [i for i, (_, a, b) in enumerate(terms) if b and fraction in (round(float(a), 9), round(float(b), 9))]
    if len(shares) != 1 or len(terms) < 2 or any(sign == "-" for sign, _, _ in terms):
        return value
    _, a, b = terms[shares[0]]
    item = b if round(float(a), 9) == fraction else a
    rest = [f"{a} * {b}" if b else a for i, (_, a, b) in enumerate(terms) if i != shares[0]]
    shared = round(float(item), 9)
    others = {round(float(n), 9) for i, (_, a, b) in enumerate(terms) if i != shares[0] for n in (a, b) if n}
    if shared not in returned or shared in others or not others & returned:
        return value  # the share of a value the sum also holds, or of one result alone: the other checks read it
    return f"({' + '.join([*rest, item])}) * {_as_written(round(1 + fraction, 9))}"


def _fractions(value: Any, percents: set[float], returned: set[float]) -> Any:
    if isinstance(value, str) and len(percents) == 1 and _SIGNED_TERMS.match(value):
        return _percent_added(value, next(iter(percents)), returned)
    if not isinstance(value, str) or not _ARITHMETIC.fullmatch(value) or _PER_HUNDRED.search(value):
        return value
    for percent in sorted(percents):
        fraction = round(percent / 100, 9)
        value = _applied_twice(value, percent, returned)
        if fraction in {round(n, 9) for n in numbers_in(value)}:
            value = _of_result(value, percent, fraction, returned)
        else:
            value = _as_fractions(value, percent)
    return value


def _applied_twice(expression: str, percent: float, returned: set[float]) -> str:
    """The expression less a bare `- P` (or `+ P`) where it also multiplies by the whole less (or plus) P percent:
    "knock 20% off that price" as `0.8 * (129.99 - 20)` (independent12's cd05) runs as `0.8 * (129.99)`. Only
    beside a result: the percentage is taken off something a tool returned."""
    numbers = {round(n, 9) for n in numbers_in(expression)}
    if not numbers & returned:
        return expression
    for sign, factor in (("-", 1 - percent / 100), ("+", 1 + percent / 100)):
        bare = rf"\s*{re.escape(sign)}\s*{re.escape(_as_written(percent))}(?![\d.])(?!\s*[*/])"
        if round(factor, 9) in numbers and len(re.findall(bare, expression)) == 1:
            return re.sub(bare, "", expression)
        # `329 + 0.08 * 329 * 1.08`: the tax added as its share and multiplied in as well (independent12's cd29)
        whole = re.escape(_as_written(round(factor, 9)))
        by_factor = rf"\s*\*\s*{whole}(?![\d.])|(?<![\d.]){whole}\s*\*\s*"
        if round(percent / 100, 9) in numbers and len(re.findall(by_factor, expression)) == 1:
            return re.sub(by_factor, "", expression)
    return expression


_SIGNED_TERMS = re.compile(rf"^\s*{_NUM}(?:\s*[-+]\s*{_NUM})+\s*$")


def _percent_added(expression: str, percent: float, returned: set[float]) -> str:
    """A plain sum of results with the percentage added (or taken) as a number of its own, as the sum times the
    whole plus (or less) that percent: "Total for a printer, a monitor and a webcam with 8% sales tax added on top"
    ran `159 + 215 + 64 + 8` (independent12's cd22), which runs as `(159 + 215 + 64) * 1.08`."""
    if _SIGNED_TERMS.match(expression) is None:
        return expression
    terms = re.findall(rf"([-+]?)\s*({_NUM})", expression)
    bare = [i for i, (_, number) in enumerate(terms) if float(number) == percent]
    rest = [term for i, term in enumerate(terms) if i not in bare]
    if len(bare) != 1 or bare[0] == 0 or not rest or any(round(float(n), 9) not in returned for _, n in rest):
        return expression
    sign = terms[bare[0]][0]
    summed = " ".join(f"{s} {n}" if i else n for i, (s, n) in enumerate(rest))
    factor = _as_written(round(1 + percent / 100 if sign == "+" else 1 - percent / 100, 9))
    return f"({summed}) * {factor}" if len(rest) > 1 else f"{summed} * {factor}"


def _as_written(number: float) -> str:
    return str(int(number)) if number.is_integer() else str(number)


def _as_fractions(expression: str, percent: float) -> str:
    """The expression with the percentage, where it is a factor of a product, as its fraction."""

    def fraction(match: re.Match[str]) -> str:
        if float(match.group(0)) != percent:
            return match.group(0)
        before, after = expression[: match.start()].rstrip(), expression[match.end() :].lstrip()
        if not before.endswith("*") and not after.startswith("*"):
            return match.group(0)
        return format(Decimal(match.group(0)) / 100, "f")

    return _NUMBER.sub(fraction, expression)


def _of_result(expression: str, percent: float, fraction: float, returned: set[float]) -> str:
    """`R + P * F` (or `R - F * P`), R a result, P the percentage and F its fraction, as `R + R * F`; and `P * R
    + R * F` the same way (independent10's cc26: `12 * 899 + 899 * 0.12` for the laptop plus a 12% markup)."""
    match = _SHARE_ADDED.fullmatch(expression)
    if match is None:
        return _percent_times_result(expression, percent, fraction, returned)
    if round(float(match.group(1)), 9) not in returned:
        return expression
    whole, sign, first, second = match.groups()
    if {round(float(first), 9), round(float(second), 9)} != {round(percent, 9), fraction}:
        return expression
    share = first if round(float(first), 9) == fraction else second
    return f"{whole} {sign} {whole} * {share}"


_TWO_PRODUCTS = re.compile(rf"\s*({_NUM})\s*\*\s*({_NUM})\s*([-+])\s*({_NUM})\s*\*\s*({_NUM})\s*")


def _percent_times_result(expression: str, percent: float, fraction: float, returned: set[float]) -> str:
    """`P * R + R * F` (either factor order in either product), R a result, as `R + R * F`."""
    match = _TWO_PRODUCTS.fullmatch(expression)
    if match is None:
        return expression
    a, b, sign, c, d = match.groups()
    first, second = {round(float(a), 9), round(float(b), 9)}, {round(float(c), 9), round(float(d), 9)}
    whole = first & second
    if len(whole) != 1 or next(iter(whole)) not in returned:
        return expression
    if first - whole != {round(percent, 9)} or second - whole != {fraction}:
        return expression
    value = a if round(float(a), 9) in whole else b
    share = d if round(float(c), 9) in whole else c
    return f"{value} {sign} {value} * {share}"
