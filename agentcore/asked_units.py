"""An answer in the unit its tool counts in, where the task asks for another: "How many weeks are there between
2024-05-01 and 2024-08-28?" answered 119, the days that `date_diff` ("Count the days between two dates") returned.

The 0.5B model takes a tool's number for the answer whatever unit the question asks in. Units of time are the
case where the tool's docs fix the unit (a converter takes its units as arguments): when the task asks for one
("how many weeks", "in hours") and the tool whose result the answer repeats says it counts another, and never
names the asked one, the answer goes back with both units named (`answer_checks.unit_check`).

The model also converts by itself with the wrong factor: "How many minutes are there between 2024-03-01 and
2024-03-03?" as `2 * 60` after date_diff gave 2 days (compose11's j09). A factor between units of time, in
arithmetic on the counting tool's result, that is not the one between the counted and the asked unit goes as
that one (`with_time_factor`: `2 * 60` runs as `2 * 1440`), and so does the count taken for its own factor (`77 /
77` runs as `77 / 7` for weeks). Months and years have no fixed length: never fixed.
"""

from __future__ import annotations

import re

TIME_UNITS = ("second", "minute", "hour", "day", "week", "month", "year")
_UNIT = "|".join(TIME_UNITS)
# "how many weeks", "the number of hours", "in minutes", "into hours" - the unit the task asks its answer in.
# Plural only: "Second date" is an ordinal, and a tool that counts days says "days".
# "Hours between 2025-01-06 and 2025-03-17, minus 12, halved." opens with its unit (independent1's ar20); "Count the
# days between ..." names the unit the tool counts, not one asked for.
_ASKED = re.compile(
    rf"\b(?:how many|number of|in|into)\s+({_UNIT})s\b|(?:^|[.?!]\s+)({_UNIT})s\s+(?:between|from|since|until|till)\b",
    re.IGNORECASE,
)


def _units(text: str) -> set[str]:
    return {match.lower() for match in re.findall(rf"\b({_UNIT})s\b", text, re.IGNORECASE)}


def asked_unit(task: str, docs: str) -> tuple[str, str] | None:
    """(the unit the task asks for, the unit the docs count in), both plural, when they differ and the docs never
    name the asked one; else None. A task that asks for the counted unit and one more ("How many days are there
    between ..., and how many hours does that come to?", independent5's bx04) asks for the other one last."""
    asked = {(first or second).lower() for first, second in _ASKED.findall(task)}
    counted = _units(docs)
    if len(counted) != 1 or len(asked - counted) != 1 or len(asked) > 2:
        return None
    return f"{(asked - counted).pop()}s", f"{counted.pop()}s"


SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
# The factors between two units of time: what a model multiplies or divides a count by to convert it.
_FACTORS = frozenset(round(a / b) for a in SECONDS.values() for b in SECONDS.values() if a > b)


def with_time_factor(expression: str, result: str, counted: str, asked: str, task: str) -> str:
    """`expression` with a time factor applied to `result` (a count in `counted` units) replaced by the factor
    from `counted` to `asked` units; unchanged when none is wrong, or the factor is a number the task writes."""
    have, want = SECONDS.get(counted.removesuffix("s")), SECONDS.get(asked.removesuffix("s"))
    if have is None or want is None or have == want:
        return expression
    operator, right = ("*", have // want) if have > want else ("/", want // have)
    count = re.escape(result)
    # The factor alone on its side: `2 * 24 * 60` (two factors that make the right one) is left as written.
    sides = [rf"(?P<a>(?<![\w.]){count}\s*{re.escape(operator)}\s*)(?P<f>\d+)(?P<b>)(?![\w.]|\s*[*/])"]
    if operator == "*":
        sides.append(rf"(?P<a>)(?<![\w.*/])(?<![*/]\s)(?P<f>\d+)(?P<b>\s*\*\s*{count})(?![\w.])")
    written = set(re.findall(r"\d+", task))

    def fixed(match: re.Match[str]) -> str:
        factor = match.group("f")
        # the count divided by itself (`77 / 77` for "how many weeks old" after 77 days: independent12's cd18)
        if (int(factor) not in _FACTORS and factor != result) or int(factor) == right or factor in written:
            return match.group()
        return f"{match.group('a')}{right}{match.group('b')}"

    for side in sides:
        expression = re.sub(side, fixed, expression)
    return expression
