"""A portion of a value added to it as the bare fraction: "the price plus half of it" called as
`calculator("85 + 0.5")`.

The 0.5B model turns "half of it", "a tenth of that price" or "15% of it" into the fraction alone and adds it to
the value, a well-formed call with the wrong sum. Where the task names such a portion, and an expression adds or
subtracts exactly that fraction to a number a tool returned, the expression runs with the portion of that number
("85 + 85 * 0.5"). A fraction the task writes in digits itself ("minus 0.5 kilograms") is left as written.

`portion_left` is the answer-side twin (compose10-12, "reuse" class): "Take the price of a monitor and add half of
that price to it" ran as `215 / 2` and was answered 107.5; "a tablet's price less one tenth of itself" stopped at
`329 / 10`. The last call scaled one value by a factor the task writes ("half", "one tenth", "15%", "4"), and the
task names an addition or subtraction that no call did. The words read are the few that name those two operations
in English arithmetic, not a phrasing of the suite; a task that names neither ("What is half the price of a
monitor?") is answered with the part, as asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import BARE_NUMBER, DATE_IN_DIGITS, PERCENT, leaves, numbers_in, shares, values_in

_NAMED = {"half": 1 / 2, "third": 1 / 3, "quarter": 1 / 4, "fourth": 1 / 4, "fifth": 1 / 5, "sixth": 1 / 6,
          "eighth": 1 / 8, "tenth": 1 / 10, "hundredth": 1 / 100}  # fmt: skip
# "half of it", "a tenth of that price", "15% of the total": a portion, then "of".
_PORTION = re.compile(
    r"\b(?:(half)|an?\s+(third|quarter|fourth|fifth|sixth|eighth|tenth|hundredth)|(\d+(?:\.\d+)?)\s*(?:%|percent))"
    r"\s+of\b",
    re.IGNORECASE,
)
_NUM = r"\d+(?:\.\d+)?|\.\d+"
# "85 + 0.5", and the fraction written as a division: "159 + (1/3)", "159 + 1/3".
_SUM = re.compile(
    rf"\s*({_NUM})\s*([-+])\s*(\(\s*(?:{_NUM})\s*(?:/\s*(?:{_NUM})\s*)?\)|(?:{_NUM})(?:\s*/\s*(?:{_NUM}))?)\s*"
)
_CLOSE = 0.01  # "0.33" for a third


def named_portions(task: str) -> list[float]:
    """The fractions that the task names as portions of something ("half of it" -> 0.5, "15% of" -> 0.15,
    "three quarters of it" -> 0.75)."""
    found = []
    for match in _PORTION.finditer(task):
        half, named, percent = match.groups()
        found.append(float(percent) / 100 if percent else _NAMED[(half or named).lower()])
    found += [count / part for count, part in shares(task, then=r"\s+of\b")]  # "three quarters of it"
    return found


def of_results(arguments: dict[str, Any], task: str, results: Sequence[str]) -> dict[str, Any]:
    """`arguments` with each expression "R + f" (or "R - f") whose f is a portion the task names, and whose R a
    tool returned, written as "R + R * f". The same dict when nothing changes."""
    portions = named_portions(task)
    if not portions:
        return arguments
    returned = {round(n, 9) for result in results for n in numbers_in(result)}
    written = {round(n, 9) for n in numbers_in(task)}
    fixed = {key: _with_portion(value, portions, returned, written) for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _with_portion(value: Any, portions: list[float], returned: set[float], written: set[float]) -> Any:
    if isinstance(value, str):
        value = _OVER.sub(lambda m: _times_portion(m, portions, returned, written), value)
        value = _OVER.sub(lambda m: _over_part(m, portions, returned), value)
    match = _SUM.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return _denominator_added(value, portions, returned, written)
    whole, sign, part = match.groups()
    fraction = _fraction(part)
    if round(float(whole), 9) not in returned or round(fraction, 9) in written or not 0 < fraction < 1:
        return _denominator_added(value, portions, returned, written)
    if not any(abs(fraction - p) <= _CLOSE * max(p, 0.01) for p in portions):
        return value
    return f"{whole} {sign} {whole} * {part}"


# Two numbers added or taken one from the other, either perhaps in brackets: "5 + (129.99)".
_PAIR = re.compile(rf"\s*\(?\s*({_NUM})\s*\)?\s*([-+])\s*\(?\s*({_NUM})\s*\)?\s*")


def _denominator_added(value: Any, portions: list[float], returned: set[float], written: set[float]) -> Any:
    """ "5 + 129.99" as "129.99 + 129.99 / 5" where 129.99 is a returned value and one fifth a portion the task
    names, its 5 written nowhere in the task ("Headphones price plus a fifth of that again", independent5's
    bx25): the portion's denominator added in its place; and "0.5 + 20" as "20 + 20 * 0.5", the fraction first
    ("what's that plus half of itself?", independent1's ar28). "R - 5" the same; "5 - R" is left (no portion
    is)."""
    match = _PAIR.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return value
    first, sign, second = match.groups()
    whole, part = (second, first) if sign == "+" and round(float(second), 9) in returned else (first, second)
    number = float(part)
    if round(float(whole), 9) not in returned or round(number, 9) in written | returned or number <= 0:
        return value
    fraction, operator = (number, "*") if number < 1 else (1 / number, "/")
    if not any(abs(fraction - p) <= _CLOSE * max(p, 0.01) for p in portions):
        return value
    return f"{whole} {sign} {whole} {operator} {part}"


# "215 / 0.5": a returned value over a bare fraction, inside any expression.
_OVER = re.compile(rf"(?<![\d.])({_NUM})\s*/\s*({_NUM})(?![\d.]|\s*[*/(])")


def _times_portion(match: re.Match[str], portions: list[float], returned: set[float], written: set[float]) -> str:
    """ "215 / 0.5" as "215 * 0.5" where 215 is a returned value and 0.5 a portion the task names ("half of
    itself", compose16's l15: dividing by the portion doubles the value); the text as written otherwise."""
    whole, part = match.groups()
    fraction = float(part)
    if round(float(whole), 9) not in returned or round(fraction, 9) in written or not 0 < fraction < 1:
        return match.group()
    if not any(abs(fraction - p) <= _CLOSE * max(p, 0.01) for p in portions):
        return match.group()
    return f"{whole} * {part}"


def _over_part(match: re.Match[str], portions: list[float], returned: set[float]) -> str:
    """ "5 / 19.95" as "19.95 / 5" where 19.95 is a returned value, 5 no returned value, and one fifth a portion
    the task names ("the price of a mouse plus a fifth of it", compose23's ad13): a fifth of a value is never five
    over it."""
    part, whole = match.groups()
    denominator = float(part)
    if round(float(whole), 9) not in returned or round(denominator, 9) in returned or denominator <= 1:
        return match.group()
    if not any(abs(1 / denominator - p) <= _CLOSE * max(p, 0.01) for p in portions):
        return match.group()
    return f"{whole} / {part}"


def _fraction(part: str) -> float:
    """ "0.5" -> 0.5, "(1/3)" and "1 / 3" -> 0.333..."""
    top, _, bottom = part.strip("() ").partition("/")
    return float(top) / float(bottom) if bottom and float(bottom) else float(top) if not bottom else 0.0


_MULTIPLES = {"twice": 2, "double": 2, "triple": 3}
_N = rf"\(?\s*({BARE_NUMBER.pattern})\s*\)?"
_SCALED = re.compile(rf"^\s*{_N}\s*([*/])\s*{_N}\s*$")  # one value times or over one factor: "215 / 2"
_SIGNED = re.compile(r"\+|[\d)]\s*-")  # an addition, or a subtraction after an operand
_ARITHMETIC = re.compile(r"[\d\s.+\-*/()%^]+")
# English arithmetic's words for adding or subtracting; not "difference", which a date tool counts by itself.
_ADDITIVE = re.compile(
    r"\b(?:add|adds|added|adding|plus|sum|minus|less|subtract|subtracts|subtracted|subtracting"
    r"|deduct|deducts|deducted|deducting|(?:take|takes|taking|took|taken)\s+(?:\S+\s+)?off)\b"
)
_SUBTRACTING = re.compile(r"minus|less|subtract|deduct|(?:take|takes|taking|took|taken)\b|\b(?:discount|rebate|off)\b")
# A sum of the things named; "the total with shipping", "the total including tax": the whole with its part
# (independent8's ca27 answered the 10% shipping alone).
_TOGETHER = re.compile(r"\b(?:together|altogether|combined|in total|total\s+(?:with|including|after))\b")


# A price "with tax", "including 5% VAT", "after a 20% discount": the whole with its part added or taken off
# (independent10's cc11 answered the 8% tax on a chair, 6.8, for the chair with tax). Surcharges and discounts
# are a small closed class of nouns.
_SURCHARGE = re.compile(
    r"\b(?:with|including|plus|after)\s+(?:(?:a|an|the|its|\d+(?:\.\d+)?\s*%|[a-z]+)\s+){0,2}"
    r"(?:tax|taxes|vat|tip|gratuity|shipping|delivery|fees?|surcharge|mark-?up|discount|rebate|off)\b"
)


def factors(task: str) -> set[float]:
    """The factors the task writes: its numbers, its fraction words as both fraction and denominator ("a
    quarter": 0.25 and 4), "twice" and the like, and its percentages as fractions ("15%": 0.15)."""
    lowered = task.lower()
    found = set(values_in(lowered))
    for word in re.findall(r"[a-z]+", lowered):
        if word in _NAMED:
            found |= {round(_NAMED[word], 12), round(1 / _NAMED[word], 12)}
        elif word in _MULTIPLES:
            found.add(float(_MULTIPLES[word]))
    return found | {round(float(p) / 100, 12) for p in PERCENT.findall(lowered)}


def portion_left(task: str, arguments: Any, earlier: Sequence[Any]) -> tuple[str, str, str] | None:
    """(the expression, the whole it took a part of, the task's operation word) when `arguments` (of the call the
    answer repeats) scale one value by a factor of the task, the task names an addition or subtraction, and
    neither that call nor any `earlier` call's arguments added or subtracted anything; None otherwise. A part
    smaller than the whole also counts where the task asks for things "together" or "in total" (a case at a
    quarter of the tablet's price: compose m29); a multiple does not ("3 monitors together" is `3 * 215`)."""
    lowered = task.lower()
    scaled = [m for m in (_SCALED.match(v) for v in leaves(arguments) if isinstance(v, str)) if m is not None]
    if len(scaled) != 1 or any(adds(value) for value in (arguments, *earlier)):
        return None
    match, given = scaled[0], factors(task)
    pairs = ((match.group(1), match.group(3)), (match.group(3), match.group(1)))
    wholes = [n for n, other in pairs if _value(other) in given and _value(n) not in given]
    if len(wholes) != 1:
        return None
    whole = wholes[0]
    part = match.group(3) if whole == match.group(1) else match.group(1)
    over = match.group(2) == "/"
    smaller = (float(part) > 1 and whole == match.group(1)) if over else 0 < float(part) < 1
    word = _ADDITIVE.search(lowered) or ((_TOGETHER.search(lowered) or _SURCHARGE.search(lowered)) if smaller else None)
    return (match.group().strip(), whole, word.group()) if word is not None else None


def subtracts(word: str) -> bool:
    """Whether the operation word `portion_left` found takes away ("less", "taking off") rather than adds."""
    return _SUBTRACTING.match(word) is not None or _SUBTRACTING.search(word.rsplit(maxsplit=1)[-1]) is not None


def adds_or_scales(arguments: Any) -> bool:
    """Whether an arithmetic argument does any operation ("2697 + 90", "4 * 1.2"; not a date's hyphens: a date
    tool's "2023-02-14" computes nothing)."""
    texts = [v for v in leaves(arguments) if isinstance(v, str) and _ARITHMETIC.fullmatch(v)]
    texts = [v for v in texts if not DATE_IN_DIGITS.fullmatch(v.strip())]
    return any(_SIGNED.search(text) or re.search(r"[\d)]\s*[*/]", text) for text in texts)


def adds(arguments: Any) -> bool:
    """Whether an arithmetic argument adds or subtracts ("2697 + 90"; not a date's hyphens)."""
    texts = (v for v in leaves(arguments) if isinstance(v, str) and _ARITHMETIC.fullmatch(v))
    return any(_SIGNED.search(text) for text in texts)


def _value(number: str) -> float:
    return round(abs(float(number)), 12)
