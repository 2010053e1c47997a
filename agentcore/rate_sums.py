"""A rate the task gives, added to a count where it is to be multiplied by it.

"Booked a hotel room: check-in 2024-08-12, check-out 2024-08-19, $95 a night. What will the room come to?" ran
`date_diff` (7 nights) and then `95 + 7` (independent1's ar15, written by an author who saw no code). A number the
task writes as so much "a", "an", "per", "each" or "every" something is a rate: it scales a count, and a sum of
the rate and a tool result is never what the task asks. Such a sum runs as their product, with any other terms
still added ("84 + 120 + 500" for $120 per day over 84 days and a $500 fee). A sum of the rate and a number of
the task ("95 + 20" for a fee) is the model's own business and stays, but for the rate converted beside the count
of what it is per: "750 g of flour per loaf. I'm baking 3 loaves - how many pounds" ran `1.653467 + 3`
(independent8's ca32), which runs as `1.653467 * 3`.

A difference of the rate and a result is no more what the task asks: "Hotel is $120 a night, check-in 2024-03-03,
check-out 2024-03-19. What's my bill?" ran `120 - 16` (independent12's cd16), which runs as `120 * 16`. And a rate
that stands alone in a sum, while exactly one numeric result went into no call at all, is that rate times the
result: "Trip runs 2024-07-04 to 2024-07-18. Car rental is $45 per day and I also need 2 backpacks" ran `45 + 2 *
49.5` with the 14 days unused (cd24), which runs as `45 * 14 + 2 * 49.5`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.lemmas import same_word
from agentcore.unfinished import BARE_NUMBER, argument_values, leaves, plain, values_in

# "$95 a night", "8 cents a word", "5 km every morning", "3 per person": a number, an optional unit word, and
# the thing it is counted per. "a total", "a few" and "a lot" name no unit.
# "750 g of flour per loaf": a unit word may name what it measures before the thing it is per.
_RATE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:(?P<unit>[a-z]+)\s+(?:of\s+[a-z]+\s+)?)?(?:a|an|per|each|every)\s+"
    r"(?!(?:total|few|lot|bit|half)\b)(?P<per>[a-z]+)",
    re.IGNORECASE,
)
_COUNTED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s+([a-z]+)", re.IGNORECASE)  # "3 loaves"
_TERMS = re.compile(rf"^\s*{BARE_NUMBER.pattern}(?:\s*\+\s*{BARE_NUMBER.pattern})+\s*$")  # a plain sum


def rates(task: str) -> set[float]:
    """The numbers the task writes as rates."""
    return {float(match.group(1)) for match in _rate_matches(task)}


def _rate_matches(task: str) -> list[re.Match[str]]:
    # "add 50 for a warranty" is no rate
    return [m for m in _RATE.finditer(task) if (m.group("unit") or "").lower() not in FUNCTION_WORDS]


def per_counts(task: str) -> set[float]:
    """The numbers the task writes as a count of what one of its rates is per: the 3 of "3 loaves" beside "750 g of
    flour per loaf" (independent8's ca32)."""
    pers = [match.group("per") for match in _rate_matches(task)]
    return {
        float(match.group(1))
        for match in _COUNTED.finditer(task)
        if any(same_word(match.group(2), per) for per in pers)
    }


def converted_rates(task: str, earlier: Sequence[tuple[str, dict[str, Any], str]]) -> set[float]:
    """The results of calls that took one of the task's rates as a value (750 g per loaf in lb: 1.653467): the
    rate in another unit."""
    given = rates(task)
    return {
        value
        for _, arguments, result in earlier
        if BARE_NUMBER.fullmatch(result.strip())
        and any(isinstance(v, int | float) and not isinstance(v, bool) and float(v) in given for v in leaves(arguments))
        for value in values_in(result)
    }


def as_products(
    arguments: dict[str, Any], task: str, results: list[str], earlier: Sequence[tuple[str, dict[str, Any], str]] = ()
) -> dict[str, Any]:
    """`arguments` with each sum of one of the task's rates and a tool result written as their product, and a
    product of a rate in cents and a result over 100 where the task asks for dollars; the same object when there
    is none. A rate a tool converted counts as a rate, and the task's count of what it is per as a count."""
    given = rates(task)
    if not given:
        return arguments
    counts = {v for result in results if BARE_NUMBER.fullmatch(result.strip()) for v in values_in(result)}
    taken = {v for _, given_arguments, _ in earlier for v in argument_values(given_arguments)}
    unused = {v for v in counts if round(v, 12) not in taken}
    converted, per = converted_rates(task, earlier), per_counts(task)
    cents = cent_rates(task) if _DOLLARS_ASKED.search(task) else set()
    fixed = {
        key: _in_dollars(_rated(_alone(value, given, unused), (given, counts), (converted, per)), cents, counts)
        if isinstance(value, str)
        else value
        for key, value in arguments.items()
    }
    return fixed if fixed != arguments else arguments


# "How many dollars do I earn", "in dollars", "what's that in pounds": the answer's currency unit.
_DOLLARS_ASKED = re.compile(r"\b(?:how many|in|into)\s+(?:dollars|pounds|euros|bucks)\b", re.IGNORECASE)
_CENTS = frozenset({"cent", "cents", "pence", "penny", "p", "c"})
_PRODUCT = re.compile(rf"^\s*({BARE_NUMBER.pattern})\s*\*\s*({BARE_NUMBER.pattern})\s*$")


def cent_rates(task: str) -> set[float]:
    """The rates the task writes in cents or pence ("8 cents a word", "15p per page")."""
    return {
        float(match.group(1))
        for match in _RATE.finditer(task)
        if (match.group("unit") or "").lower() in _CENTS or task[match.end(1) : match.end(1) + 1].lower() == "p"
    }


def _in_dollars(expression: str, cents: set[float], counts: set[float]) -> str:
    """A product of a rate in cents and a count, over 100: "8 cents a word. How many dollars ...?" ran `13 * 8` and
    was answered 104 (independent1's ar18)."""
    match = _PRODUCT.match(expression) if cents else None
    if match is None:
        return expression
    left, right = float(match.group(1)), float(match.group(2))
    if (left in cents and right in counts) or (right in cents and left in counts):
        return f"{expression.strip()} / 100"
    return expression


def _rated(expression: str, written: tuple[set[float], set[float]], converted: tuple[set[float], set[float]]) -> str:
    """The sum as a product of a rate the task writes and a result; else of a rate a tool converted and the task's
    count of what it is per ("5 km every morning, 7 days a week": 7 is the rate of `3.106856 + 7`, independent1's
    ar17, before the 3.106856 that 5 km became)."""
    fixed = _product(expression, *written)
    return fixed if fixed != expression or not converted[0] else _product(expression, *converted)


_DIFFERENCE = re.compile(rf"^\s*({BARE_NUMBER.pattern})\s*-\s*({BARE_NUMBER.pattern})\s*$")


def _alone(expression: str, given: set[float], unused: set[float]) -> str:
    """The sum with its one rate, standing alone as a term, times the one result that neither an earlier call nor
    the sum takes, where the sum takes another: `45 + 2 * 49.5` with 14 days unused runs as `45 * 14 + 2 * 49.5`.
    The sum as written where the rate is not one bare term, or such results are not exactly one."""
    written = values_in(expression)
    left = {value for value in unused if value not in written}
    # a sum that takes no result ("95 + 20" for a $20 fee) is the model's own business
    if len(left) != 1 or not written & unused or "+" not in expression or "(" in expression:
        return expression
    count = next(iter(left))
    terms = [term.strip() for term in expression.split("+")]
    rated = [i for i, term in enumerate(terms) if BARE_NUMBER.fullmatch(term) and float(term) in given]
    if len(rated) != 1:
        return expression
    terms[rated[0]] = f"{terms[rated[0]]} * {plain(count)}"
    return " + ".join(terms)


def _product(expression: str, given: set[float], counts: set[float]) -> str:
    """The sum with its one rate and its one count written as their product, in the rate's place: "84 + 120 +
    500" for "$120 per day, plus a one-off $500 setup fee" over 84 days runs as `84 * 120 + 500` (independent5's
    bx21); the sum as written where the rate or the count is not one term alone."""
    difference = _DIFFERENCE.match(expression)
    if difference is not None:  # "120 - 16" for 16 nights at $120 a night
        left, right = (float(group) for group in difference.groups())
        if (left in given and right in counts and right not in given) or (
            right in given and left in counts and left not in given
        ):
            return f"{difference.group(1)} * {difference.group(2)}"
        return expression
    if _TERMS.match(expression) is None:
        return expression
    terms = [term.strip() for term in expression.split("+")]
    values = [float(term) for term in terms]
    rated = [i for i, v in enumerate(values) if v in given]
    counted = [i for i, v in enumerate(values) if v in counts and v not in given]
    if len(rated) != 1 or len(counted) != 1:
        return expression
    rate, count = rated[0], counted[0]
    product = f"{terms[min(rate, count)]} * {terms[max(rate, count)]}"
    rest = [term for i, term in enumerate(terms) if i not in (rate, count)]
    return " + ".join([product, *rest])
