"""Quantities a task spells out, written as digits: "two chairs" as "2 chairs", "half a dozen notebooks" as "6
notebooks", "a couple of pens" as "2 pens", "a fifty" as "a 50".

The loop's checks read a task's numbers from its digits (which numbers no call used yet, which numbers a call
made up), and a 0.5B model copies digits into a call far more reliably than it turns words into them. On a dev
set written by an author who saw neither the code nor the other tasks (`bench/tasks/dev/independent1.jsonl`),
five of 36 tasks spelled a quantity ("How much for two chairs and a desk?" answered 325, one chair's price plus
the desk's) and all five failed. The task the model and the checks read gets the digits; the run's result keeps
the user's own words.

Quoted text is the user's data ("Count the words in 'one two three'") and stays as written, and so does a number
word that is part of a name ("Seven Nation Army", "Ocean's Eleven"), or of an ordinal or compound ("twenty-first",
"five-star"). "one" alone is left too: "which one", "one of them" are no quantities, and a lone 1 changes no
calculation. So is a number that counts things already named ("these two lines", "the sum of the two"). Fractions
and multipliers ("half of it", "twice", "a third") are operations, which the checks read from the words themselves.
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
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORD = "|".join(sorted([*_SMALL, *_TENS, *_SCALES], key=len, reverse=True))
# A run of number words ("two thousand five hundred", "twenty-five", "a hundred and twenty"), read by `_value`.
_RUN = re.compile(
    rf"\b(?:a\s+(?=hundred|thousand|million))?(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*\b(?P<dozen>\s+dozen\b)?",
    re.IGNORECASE,
)
# After the run: a fraction or an ordinal ("two-thirds", "twenty fourth", "twenty-first") or a compound ("five-star").
_NOT_A_COUNT = re.compile(
    r"[-\s]+(?:halves|(?:third|quarter|fourth|fifth|sixth|seventh|eighth|ninth|tenth|hundredth)s?|first|second)\b"
    r"|-[a-z]",
    re.IGNORECASE,
)
_HALF_DOZEN = re.compile(r"\bhalf\s+a\s+dozen\b", re.IGNORECASE)
_A_DOZEN = re.compile(r"\b(?:a|one)\s+dozen\b", re.IGNORECASE)
# "a couple of chairs" is two of them (independent5's bx13 priced one chair); "a couple" alone may be people.
_A_COUPLE = re.compile(r"\ba\s+couple\s+of\b", re.IGNORECASE)


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
    text = _A_COUPLE.sub("2", text)
    return _RUN.sub(_written, text)


def _written(match: re.Match[str]) -> str:
    words = [w for w in re.split(r"[\s-]+", match.group().lower()) if w not in ("and", "dozen")]
    value = _value(words)
    dozen = match.group("dozen") is not None
    after = match.string[match.end() :]
    if value is None or (words == ["one"] and not dozen) or _NOT_A_COUNT.match(after) or _in_a_name(match):
        return match.group()
    if _points_back(match):
        return match.group()
    return str(value * 12 if dozen else value)


def _value(words: list[str]) -> int | None:
    """The value of a run of number words, or None when the run is no single number ("two three")."""
    total, current, last = 0, 0, ""
    for word in words:
        if word == "a":
            current, last = 1, "unit"
        elif word in _SCALES:
            if last == "" or (last == "scale" and _SCALES[word] < 1000):
                return None
            if _SCALES[word] == 100:
                current = max(current, 1) * 100
            else:
                total, current = total + max(current, 1) * _SCALES[word], 0
            last = "scale"
        elif word in _TENS:
            if last in ("unit", "ten"):
                return None
            current, last = current + _TENS[word], "ten"
        elif word in _SMALL:
            if last == "unit":
                return None
            current, last = current + _SMALL[word], "unit"
    return total + current


# "these two lines", "those three trips", "the sum of the two in km", "add the two together": things the task
# already named, counted again. As digits, the checks took them for a quantity still to use, and the model added
# it to a finished sum (independent10's cc20 answered 8.04672 + 2.7432 + 2, cc22 a word count plus 2).
_DEMONSTRATIVE = re.compile(r"\b(?:these|those)\s+$", re.IGNORECASE)
_THE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_NO_NOUN = re.compile(r"\s*(?:$|[^\w\s]|(?:in|together|combined|added|summed|plus|times|into|up)\b)", re.IGNORECASE)


def _points_back(match: re.Match[str]) -> bool:
    """Whether the number counts things named before it: after "these"/"those", or after "the" with no noun of
    its own ("the two in km"). "the three of us" and "the 2 chairs" stay quantities."""
    before, after = match.string[: match.start()], match.string[match.end() :]
    return _DEMONSTRATIVE.search(before) is not None or (
        _THE.search(before) is not None and _NO_NOUN.match(after) is not None
    )


def _in_a_name(match: re.Match[str]) -> bool:
    """A capitalised number word inside a sentence, or one before a capitalised word, is part of a name: "play
    Seven Nation Army", "Ocean's Eleven", "Three Kingdoms"."""
    text, start, end = match.string, match.start(), match.end()
    opens = not text[:start].strip() or text[:start].rstrip()[-1] in ".!?:;\n"
    after = text[end:].lstrip()
    word = re.match(r"[A-Za-z]+", after)
    named_after = word is not None and word.group()[0].isupper() and not word.group().isupper()  # not "USD", "I"
    quoted_word = re.search(r"\b(?:word|number|letters?)\s*$", text[:start], re.IGNORECASE)  # "the word seven"
    return (match.group()[0].isupper() and not opens) or named_after or quoted_word is not None
