"""Quantities a task spells out, written as digits: "two chairs" as "2 chairs", "half a dozen notebooks" as "6
notebooks", "a fifty" as "a 50".

The loop's checks read a task's numbers from its digits (which numbers no call used yet, which numbers a call
made up), and a 0.5B model copies digits into a call far more reliably than it turns words into them. On a dev
set written by an author who saw neither the code nor the other tasks (`bench/tasks/dev/independent1.jsonl`),
five of 36 tasks spelled a quantity ("How much for two chairs and a desk?" answered 325, one chair's price plus
the desk's) and all five failed. The task the model and the checks read gets the digits; the run's result keeps
the user's own words.

Quoted text is the user's data ("Count the words in 'one two three'") and stays as written, and so does a number
word that is part of a name ("Seven Nation Army", "Ocean's Eleven"), or of an ordinal or compound ("twenty-first",
"five-star"). "one" alone is left too: "which one", "one of them" are no quantities, and a lone 1 changes no
calculation. Fractions and multipliers
("half of it", "twice", "a third") are operations, which the checks read from the words themselves.
"""

from __future__ import annotations

import re

from agentcore.quotes import QUOTED

_UNITS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SMALL = {"one": 1, **_UNITS}
_SCALES = {"hundred": 100, "thousand": 1000}
# "two-thirds", "three quarters": a fraction, not a count.
_PARTS = r"(?:third|quarter|fourth|fifth|sixth|seventh|eighth|ninth|tenth|hundredth)s"

_UNIT = "|".join(sorted(_SMALL, key=len, reverse=True))
_TEN = "|".join(_TENS)
# "twenty-five", "twenty five", "fifty", "seven": below a hundred.
_BELOW_100 = rf"(?:(?:{_TEN})(?:[- ](?:{_UNIT}))?|{_UNIT})"
# "two hundred and fifty", "a hundred", "three thousand", or a number below a hundred.
_NUMBER = re.compile(
    rf"\b(?P<n>(?:(?:a|{_BELOW_100})\s+(?:hundred|thousand)(?:\s+(?:and\s+)?{_BELOW_100})?)|{_BELOW_100})"
    rf"(?P<dozen>\s+dozen)?\b(?![-\s]*(?:halves|{_PARTS})\b)(?!-[a-z])",
    re.IGNORECASE,
)
_HALF_DOZEN = re.compile(r"\bhalf\s+a\s+dozen\b", re.IGNORECASE)
_A_DOZEN = re.compile(r"\b(?:a|one)\s+dozen\b", re.IGNORECASE)


def with_digits(task: str) -> str:
    """`task` with each spelled quantity outside quotes written in digits; the same text when it has none."""
    pieces, last = [], 0
    for match in QUOTED.finditer(task):
        pieces.extend([_digits(task[last : match.start()]), match.group()])
        last = match.end()
    pieces.append(_digits(task[last:]))
    return "".join(pieces)


def _digits(text: str) -> str:
    text = _HALF_DOZEN.sub("6", text)
    text = _A_DOZEN.sub("12", text)
    return _NUMBER.sub(_written, text)


def _written(match: re.Match[str]) -> str:
    words = match.group("n").lower()
    if (words == "one" and not match.group("dozen")) or _in_a_name(match):
        return match.group()
    value = _value(words) * (12 if match.group("dozen") else 1)
    return str(value)


def _in_a_name(match: re.Match[str]) -> bool:
    """A capitalised number word inside a sentence, or one before a capitalised word, is part of a name: "play
    Seven Nation Army", "Ocean's Eleven", "Three Kingdoms"."""
    text, start, end = match.string, match.start(), match.end()
    opens = not text[:start].strip() or text[:start].rstrip()[-1] in ".!?:;\n"
    after = text[end:].lstrip()
    return (match.group()[0].isupper() and not opens) or (after[:1].isupper() and not after.startswith("I "))


def _value(words: str) -> int:
    """The value of a spelled number the pattern matched ("two hundred and fifty" is 250)."""
    total, current = 0, 0
    for word in re.split(r"[\s-]+", words):
        if word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
        elif word in _TENS:
            current += _TENS[word]
        elif word in _SMALL:
            current += _SMALL[word]
        elif word == "a":
            current = 1
    return total + current
