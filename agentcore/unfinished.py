"""Is a final answer premature? The task's numbers that no tool call has used yet.

A small model stops a chain after its first step whatever the phrasing ("convert 5 miles to km and multiply by
3", "the price of a laptop, times 3", "what do 2 chairs and 1 desk cost"): it calls the first tool and answers
with that result. Every number a user writes is there to be used, so when the final answer only repeats the last
tool result while some number of the task went into no call, the chain is not done. This needs no list of
phrasings: it reads the numbers, not the words around them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from agentcore.dates import IN_WORDS

# Digits with an optional decimal part; thousands separators joined first ("12,500" is one number).
# Not inside a Latin word or number ("mp3", "v2.1"); after CJK text it is a number ("最多10个": 10).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.\u00c0-\u024f])\d+(?:\.\d+)?(?![\d])")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
DATE_IN_DIGITS = re.compile(r"\b\d{4}[-/]\d{1,2}[-/]\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2}-\d{1,2}-\d{4}\b")
ARITHMETIC = re.compile(r"[\d\s.+\-*/()]+")  # numbers, operators and brackets only: no words
BARE_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")  # a value that is one number and nothing else ("80", "-3.5")
PERCENT_SIGN = r"\s*(?:%|percent\b|per cent\b)"  # after a number: "15%", "15 percent"
PERCENT = re.compile(rf"(\d+(?:\.\d+)?){PERCENT_SIGN}", re.IGNORECASE)
_PERCENT_AFTER = re.compile(PERCENT_SIGN, re.IGNORECASE)


def numbers_in(text: str) -> list[float]:
    return [float(n) for n in _NUMBER.findall(_THOUSANDS.sub("", text))]


def leaves(arguments: Any) -> Iterable[Any]:
    """The scalar values of a call's JSON arguments, at any depth."""
    if isinstance(arguments, dict):
        for value in arguments.values():
            yield from leaves(value)
    elif isinstance(arguments, list):
        for value in arguments:
            yield from leaves(value)
    else:
        yield arguments


def argument_numbers(arguments: Any) -> Iterable[float]:
    """Every number in a call's arguments: numeric values, and numbers written inside strings ("11 * 3 - 5")."""
    for leaf in leaves(arguments):
        if isinstance(leaf, int | float) and not isinstance(leaf, bool):
            yield float(leaf)
        elif isinstance(leaf, str):
            yield from numbers_in(leaf)


def values_in(text: str) -> set[float]:
    """The numbers of `text` as a set to compare: sign dropped, rounded to 12 places."""
    return {round(abs(n), 12) for n in numbers_in(text)}


def argument_values(arguments: Any) -> set[float]:
    """The numbers of a call's arguments, compared as `values_in` compares a text's."""
    return {round(abs(v), 12) for v in argument_numbers(arguments)}


def unused_numbers(task: str, calls: Sequence[dict[str, Any]]) -> list[str]:
    """The task's numbers, as written, that appear in none of the calls' arguments ("15%" and "15 percent" also
    as 0.15)."""
    used = {v for arguments in calls for v in argument_values(_undated(arguments))}
    text = _THOUSANDS.sub("", _undated(task))
    unused = []
    for match in _NUMBER.finditer(text):
        value = float(match.group())
        percent = bool(_PERCENT_AFTER.match(text, match.end()))
        if value not in used and not (percent and _as_fraction(value) & used) and not _counts_a_list(text, match):
            unused.append(match.group())
    return list(dict.fromkeys(unused))


def _undated(value: Any) -> Any:
    """`value` (a text or a call's arguments) with each date blanked: a date is one value, not three numbers,
    and the 03 of "2022-03-01" is not the 3 of "times 3" (compose24's ae05 answered 61 days for "Days from
    2022-03-01 to 2022-05-01, times 3?": the date_diff call had taken the 3)."""
    if isinstance(value, str):
        # "from the 2nd of August 2025": the 2 and the 2025 went into the date tool's "2025-08-02" (independent5's
        # bx17 was told the task still used 2, 2025 and 16, and added them up)
        return IN_WORDS.sub(_blank, DATE_IN_DIGITS.sub(_blank, value))
    if isinstance(value, dict):
        return {key: _undated(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_undated(item) for item in value]
    return value


# "18 kg, 21.5 kg and 16 kg": numbers, each perhaps with a unit word, listed with commas and a last "and".
_LIST = re.compile(r"\d+(?:\.\d+)?(?:\s*[a-z]+)?(?:\s*,\s*\d+(?:\.\d+)?(?:\s*[a-z]+)?)*\s*,?\s+and\s+\d+(?:\.\d+)?")


def _counts_a_list(text: str, match: re.Match[str]) -> bool:
    """A whole number that counts the list of numbers after it in its sentence: "Our 3 suitcases weigh 18 kg,
    21.5 kg and 16 kg" (independent5's bx32, told the task still used 3, added it to the weights' sum)."""
    if not match.group().isdigit():
        return False
    sentence = re.split(r"[.!?](?:\s|$)", text[match.end() :], maxsplit=1)[0]
    listed = _LIST.search(sentence)
    return listed is not None and len(_NUMBER.findall(listed.group())) == int(match.group())


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _as_fraction(percent: float) -> set[float]:
    """20% as a calculator sees it: 0.2, or 1.2 and 0.8 for "add 20% tax" and "20% off"."""
    share = percent / 100
    return {round(share, 12), round(1 + share, 12), round(1 - share, 12)}


# Words that always name an operation's factor, with the values a call may write for each ("half": / 2 or * 0.5).
_PARTS = {"half": (0.5, 2), "quarter": (0.25, 4), "fifth": (0.2, 5), "tenth": (0.1, 10), "hundredth": (0.01, 100),
          "twice": (2,), "double": (2,), "triple": (3,)}  # fmt: skip
# "three quarters", "two thirds": a count of parts, which a call writes as the product (0.75) or as the count
# and the part's denominator (`* 3 / 4`).
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "nine": 9}
_DENOMINATORS = {"third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "eighth": 8, "tenth": 10}
_SHARES = rf"\b({'|'.join(_COUNTS)})[\s-]+({'|'.join(_DENOMINATORS)})s\b"


# One part, named by its article: "a third of it". "third" alone is as often an order ("the third item").
_ONE_PART = re.compile(rf"\b(?:a|one)[\s-]+({'|'.join(_DENOMINATORS)})\s+of\b")


def _is_part(value: float, denominator: int) -> bool:
    """A call's number that writes one part of `denominator`: the denominator, or the fraction to two places."""
    return value == denominator or abs(value - 1 / denominator) <= 0.01 / denominator


def shares(text: str, then: str = "") -> list[tuple[int, int]]:
    """Each count of parts the text writes (followed by the pattern `then`), as (count, denominator): "three
    quarters" -> (3, 4)."""
    found = re.findall(_SHARES + then, text, re.IGNORECASE)
    return [(_COUNTS[c.lower()], _DENOMINATORS[p.lower()]) for c, p in found]


def unused_parts(task: str, calls: Sequence[dict[str, Any]], tools: str) -> list[str]:
    """The factors the task writes as words ("one tenth of itself", "twice that price", "three quarters of it")
    that no call used in either form and no called tool names (`tools`: their names and docs; a `double` tool
    doubles), as numbers: a fetched price answered alone left "less one tenth of itself" undone (compose10's
    h15), and "plus three quarters of it" (compose18's u14)."""
    used = {v for arguments in calls for v in argument_values(arguments)}
    named = set(re.findall(r"[a-z]+", tools.lower()))
    lowered = task.lower()
    words = dict.fromkeys(w for w in re.findall(r"[a-z]+", lowered) if w in _PARTS and w not in named)
    found = [plain(_PARTS[w][0]) for w in words if not {round(float(v), 12) for v in _PARTS[w]} & used]
    for word in dict.fromkeys(_ONE_PART.findall(lowered)):  # "a third of that price" (compose26's ag13)
        part = _DENOMINATORS[word]
        if word not in _PARTS and word not in named and not any(_is_part(v, part) for v in used):
            found.append(f"1/{part}")
    for count, denominator in shares(lowered):
        if round(count / denominator, 12) not in used and not {float(count), float(denominator)} <= used:
            found.append(f"{count}/{denominator}")  # as written: "with 240 and 0.75" got `3/4 * 0.75`
    return list(dict.fromkeys(found))


def echoes_task(task: str, answer: str, calls: Sequence[dict[str, Any]]) -> list[str]:
    """The numbers still to use, when every number of the answer is the task's own and one of them went into no
    call: "3 miles" for "How many miles are 3 such roads?" after the conversion of one road. The answer restates
    the question's number instead of computing with it; else []."""
    got = values_in(_json_text(answer.strip()))
    given = values_in(task)
    if not calls or not got or got - given:
        return []
    pending = unused_numbers(task, calls)
    return pending if got & {round(float(p), 12) for p in pending} else []


def numbers_written(answer: str) -> list[str]:
    """The answer's numbers as written ("5.0" stays "5.0"), once each."""
    text = _THOUSANDS.sub("", _json_text(answer.strip()))
    return list(dict.fromkeys(match.group() for match in _NUMBER.finditer(text)))


def restates_task(task: str, answer: str, results: Sequence[str]) -> bool:
    """Whether every number of the answer is the task's own and no tool returned one of them, while the last
    result brings a number the task lacks: "5.0" for "How many meters are 5 such pipes?" after 5 * 2.7432 =
    13.716. (Its numbers all used, so `echoes_task` has nothing still to use.)"""
    got = values_in(_json_text(answer.strip()))
    given = values_in(task)
    returned = {v for result in results for v in values_in(result)}
    last = values_in(results[-1]) if results else set()
    return bool(got and last - given) and not (got - given or got & returned)


def repeats_result(task: str, answer: str, result: str) -> bool:
    """Whether the answer only restates the numeric result (no number of its own beyond the task's)."""
    had = set(numbers_in(result))
    got = set(numbers_in(_json_text(answer.strip())))
    return bool(had and got & had) and not got - had - {abs(n) for n in numbers_in(task)}


def leaves_out(answer: str, results: Sequence[str]) -> bool:
    """Whether the answer restates some of the results but not all ("1.2 + 1.2 = 2.4" when 329 and 1.2 are to
    be added): a combined answer shows a new number and none of them need appear."""
    got = numbers_in(_json_text(answer.strip()))
    shown = [any(abs(g - n) < 1e-9 for g in got for n in numbers_in(r)) for r in results]
    return any(shown) and not all(shown)


def open_results(steps: Sequence[tuple[Any, str]], *, words: bool = False) -> list[str]:
    """The numeric results of (arguments, result) steps, in order, that no later step's arguments use, nor redo;
    with `words`, a result with no number too (a step plan carries "Lima" into the next step)."""
    found = []
    for index, (given, result) in enumerate(steps):
        later = {v for arguments, _ in steps[index + 1 :] for v in argument_values(arguments)}
        values = values_in(result)
        # a word a later call wrote is used: "C H O" counted, only the count is left (independent14's cg24)
        word_used = not values and _taken_as_text(result, steps[index + 1 :])
        if (values or words) and not values & later and not word_used and not _redone(given, steps[index + 1 :]):
            found.append(result.strip())
    return found


def _taken_as_text(result: str, later: Sequence[tuple[Any, str]]) -> bool:
    """Whether a later step's arguments write the whole of a result with no number, as a word of a text."""
    text = result.strip()
    pattern = re.compile(rf"(?<!\w){re.escape(text)}(?!\w)") if text else None
    return pattern is not None and any(
        isinstance(v, str) and pattern.search(v) for arguments, _ in later for v in leaves(arguments)
    )


def _redone(given: Any, later: Sequence[tuple[Any, str]]) -> bool:
    """Whether one later step took every number of a step with two or more: `240 + 2 * 85` redid `240 + 2`, the
    chairs' count added to the desk before the chairs were looked up (independent12's cd13), whose 242 waits for
    nothing."""
    inputs = argument_values(given)
    return len(inputs) > 1 and any(inputs <= argument_values(arguments) for arguments, _ in later)


def latest_unused(steps: Sequence[tuple[Any, str]]) -> str:
    """The latest numeric result that no other step took as an input (159 fetched after `(159) - 30` = 129 was
    an input already: 129), else the latest result: what an answer from the model's head gives way to."""
    for index in range(len(steps) - 1, -1, -1):
        values = values_in(steps[index][1])
        taken = {v for i, (arguments, _) in enumerate(steps) if i != index for v in argument_values(arguments)}
        if values and not values & taken:
            return steps[index][1]
    return steps[-1][1] if steps else ""


def derived(answer: str, results: Sequence[str], spare: Sequence[str]) -> str | None:
    """The one operation, on a result's number and another result's or a `spare` number (the task's, unused by
    any call), whose value the answer's one number writes ("59 * 2" for 118, "... 2024-09-01, times 2?" after
    date_diff gave 59); None when there is none. The answer's arithmetic then checks out on known numbers."""
    written = list(dict.fromkeys(_NUMBER.findall(_THOUSANDS.sub("", _json_text(answer.strip())))))
    values = list(dict.fromkeys(v for result in results for v in numbers_in(result)))
    if len(written) != 1 or not values:
        return None
    others = [*(float(n) for n in spare), *values]  # the task's unused numbers first: "59 * 2" over "59 + 59"
    for a in values:
        for b in others:
            for text, value in _operations(a, b):
                if value is not None and rounds_to(value, written[0]):
                    return text
    return None


def _operations(a: float, b: float) -> list[tuple[str, float | None]]:
    x, y = plain(a), plain(b)
    return [
        (f"{x} + {y}", a + b),
        (f"{x} * {y}", a * b),
        (f"{x} - {y}", a - b),
        (f"{y} - {x}", b - a),
        (f"{x} / {y}", a / b if b else None),
        (f"{y} / {x}", b / a if a else None),
    ]


def redone(task: str, answer: str, steps: Sequence[tuple[str, Any, str]]) -> tuple[int, int] | None:
    """(the step whose result the answer repeats, a later step of another tool that took one of the task's
    numbers that step took), when there are such: "36000" from `12 * 3 * 1000` after unit_convert took the 12
    kilograms again (compose10's h18). The later line supersedes the answer's."""
    written = values_in(task)
    for index, (name, arguments, result) in enumerate(steps):
        if not repeats_result(task, answer, result):
            continue
        mine = argument_values(arguments) & written
        for later in range(index + 1, len(steps)):
            other, inputs, output = steps[later]
            if other != name and mine & argument_values(inputs) and numbers_in(output):
                return index, later
    return None


def used_up(task: str, answer: str, steps: Sequence[tuple[Any, str]]) -> int | None:
    """The index of the step that took the answer as an input, when the answer is one number, a tool's result and
    none of the task's, that a step used while that step's own, different result is still unused: "159" for
    "Subtract 30 from the price of a printer" after `(159) - 30` returned 129 (compose11's j04)."""
    got = {round(abs(n), 12) for n in numbers_in(_json_text(answer.strip()))}
    if len(got) != 1 or got & values_in(task):
        return None
    still_open = set(open_results(steps))
    for index in range(len(steps) - 1, -1, -1):
        arguments, result = steps[index]
        fetched = any(got <= values_in(other) for i, (_, other) in enumerate(steps) if i != index)
        if result.strip() in still_open and got <= argument_values(arguments) - values_in(result) and fetched:
            return index
    return None


def unsourced(task: str, answer: str, results: Sequence[str], calls: Sequence[dict[str, Any]]) -> list[str]:
    """The answer's numbers that no tool returned and neither the task nor a call contains: computed in the
    model's head ("329 * 4" answered as 1458; 123456 / 64 = 1929 reported as 2222). A number rounded from a
    known one (56.32704 as 56.33) counts as known."""
    known = {abs(n) for text in (task, *results) for n in numbers_in(text)}
    known |= {abs(value) for arguments in calls for value in argument_numbers(arguments)}
    text = _THOUSANDS.sub("", _json_text(answer.strip()))
    found = [match.group() for match in _NUMBER.finditer(text)]
    return list(dict.fromkeys(n for n in found if not any(rounds_to(k, n) for k in known)))


def made_up(task: str, answer: str, steps: Sequence[tuple[Any, str]], least: int = 2) -> tuple[list[str], str]:
    """(the inputs from nowhere, the result) when the answer is the result of a call whose inputs came from nowhere
    (`made_up_steps`). "What is the total price of one keyboard and one mouse?" answered with
    calculator("100 + 200") = 300: the prices were made up instead of looked up. The answer-side check
    (`unsourced`) cannot see it, since a tool did return 300. The task's own numbers in that call are not named
    ("200 ... made up" for "$200", compose's m18)."""
    written = _THOUSANDS.sub("", _json_text(answer.strip()))
    answered = [match.group() for match in _NUMBER.finditer(written)]
    for index, unknown in made_up_inputs(task, steps, least):
        arguments, result = steps[index]
        if any(rounds_to(value, n) for value in numbers_in(result) for n in answered):
            ordered = dict.fromkeys(round(abs(v), 12) for v in argument_numbers(arguments))
            return [plain(v) for v in ordered if v in unknown], result.strip()
    return [], ""


def made_up_steps(task: str, steps: Sequence[tuple[Any, str]], least: int = 2) -> list[int]:
    """The (arguments, result) steps whose inputs came from nowhere: `least` or more distinct numbers in none of the
    task (digits, words, or a percentage as its fraction), an earlier call or an earlier result. Beside a number
    of the task too: "the price of a backpack divided among 3 friends" called as "3 * 1.5 * 2.5"."""
    return [index for index, _ in made_up_inputs(task, steps, least)]


def made_up_inputs(task: str, steps: Sequence[tuple[Any, str]], least: int) -> list[tuple[int, set[float]]]:
    """Each made-up step's index and its numbers from nowhere. A made-up step's numbers and result stay unknown to
    the steps after it: `2 * (100 + 50)` before the lookups, then `100 + 50 + 159` (compose16's l08) made up the
    same prices again."""
    known = given_numbers(task)
    known |= {share for match in PERCENT.finditer(task) for share in _as_fraction(float(match.group(1)))}
    found: list[tuple[int, set[float]]] = []
    for index, (arguments, result) in enumerate(steps):
        mine = argument_values(arguments)
        if len(mine - known) >= least:
            found.append((index, mine - known))
        else:
            known |= mine | values_in(result)
    return found


# Numbers a task may write in words; a general English list, so "double it" is no made-up 2.
_SPELLED = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "twenty": 20, "hundred": 100, "thousand": 1000, "million": 1e6, "dozen": 12,
    "half": 0.5, "quarter": 0.25, "third": 1 / 3, "double": 2, "twice": 2, "triple": 3, "thrice": 3, "percent": 100,
    "fifth": 0.2, "tenth": 0.1, "hundredth": 0.01,
}  # fmt: skip


def spelled_numbers(task: str) -> set[float]:
    return {round(float(_SPELLED[w]), 12) for w in re.findall(r"[a-z]+", task.lower()) if w in _SPELLED}


# The whole a part is taken from: "a fifth of it" is `x / 5` as much as `x * 0.2`, so its 5 is the task's.
_WHOLES = {"half": 2, "halves": 2, "hundredth": 100, **_DENOMINATORS}


def given_numbers(task: str) -> set[float]:
    """The numbers the task gives, in digits or words (a part's whole too), and the two any call may use unasked."""
    words = re.findall(r"[a-z]+", task.lower())
    wholes = {float(_WHOLES.get(w, _WHOLES.get(w.removesuffix("s"), 0))) for w in words} - {0.0}
    return values_in(task) | spelled_numbers(task) | wholes | {0.0, 1.0}


def guessed(task: str, answer: str) -> list[str]:
    """The answer's numbers, when no tool ran and the task has numbers of its own: "5 miles a day, in km over 7
    days" answered 1.5 was worked out from 5 and 7 without the tools offered."""
    if not numbers_in(task):
        return []
    text = _THOUSANDS.sub("", _json_text(answer.strip()))
    return list(dict.fromkeys(match.group() for match in _NUMBER.finditer(text)))


def stale_inputs(arguments: Any, earlier: Sequence[tuple[str, Any, str]], tool: str) -> tuple[list[str], str]:
    """(numbers this call takes from an earlier call's input, that call's result) when the call uses none of the
    earlier results: "8 feet in cm (243.84), minus 50 cm" called as calculator("8 - 50"). Only across tools: the
    same tool on the same number again ("5 miles in km, and in m") is a new step, not a lost result."""
    mine = argument_values(arguments)
    results = {v for _, _, result in earlier for v in values_in(result)}
    if not mine or mine & results:
        return [], ""
    for name, inputs, result in reversed(earlier):
        taken = mine & argument_values(inputs)
        if name != tool and taken and numbers_in(result):
            return [plain(n) for n in sorted(taken)], result
    return [], ""


def date_parts(arguments: Any, earlier: Sequence[tuple[str, Any, str]], task: str) -> tuple[list[str], str]:
    """(numbers this call takes that the task writes only inside a date, the result of the call that took a date)
    once a date went into a call: "How many days between 3 March 2025 and 19 June 2025, and how many hours?"
    called as `3 + 19 * 20 / 2 - 108` after date_diff gave 108 (independent5's bx04), and "from the 2nd of August
    2025 ..." as `14 + 2 + 2025 + 16 * 95` (bx17). A day or a year of a date is no operand."""
    if any(isinstance(v, str) and _dated(v) for v in leaves(arguments)):
        return [], ""  # a call on dates itself
    outside = {round(abs(n), 12) for n in numbers_in(_THOUSANDS.sub("", _undated(task)))}
    inside = {round(abs(n), 12) for match in _dates(task) for n in numbers_in(match)} - outside
    taken = argument_values(arguments) & inside
    if not taken:
        return [], ""
    for _, inputs, result in reversed(earlier):
        if any(isinstance(v, str) and _dated(v) for v in leaves(inputs)) and numbers_in(result):
            return [plain(n) for n in sorted(taken)], result.strip()
    return [], ""


def _dates(text: str) -> list[str]:
    return [m.group() for pattern in (DATE_IN_DIGITS, IN_WORDS) for m in pattern.finditer(text)]


def _dated(value: str) -> bool:
    return bool(DATE_IN_DIGITS.search(value) or IN_WORDS.search(value))


def beside_result(arguments: Any, earlier: Sequence[tuple[str, Any, str]], task: str) -> tuple[list[str], str]:
    """(the number, the result) when the call uses an earlier call's whole input, given to another tool as a number
    of its own, beside that call's result, and the task writes that number once: "A jug holds 3 liters. How many
    gallons do 4 jugs hold?" called as `3 * 4 * 0.792516` after unit_convert(value=3) = 0.792516. The result
    stands for the input; one jug is counted twice. A number inside an expression (`50 * 0.1` = 5, then `50 + 5`
    for "50 plus 10% of it") is a part, not a whole, and is never judged."""
    mine = argument_values(arguments)
    written = Counter(round(abs(n), 12) for n in numbers_in(task))
    for _, inputs, result in reversed(earlier):
        whole = {round(abs(v), 12) for v in leaves(inputs) if isinstance(v, int | float) and not isinstance(v, bool)}
        values = values_in(result)
        taken = [n for n in sorted(mine & whole - values) if written[n] == 1]
        if taken and values and values <= mine:
            return [plain(n) for n in taken], result.strip()
    return [], ""


def superseded(arguments: Any, earlier: Sequence[tuple[str, Any, str]]) -> tuple[list[str], str]:
    """(the one number this call takes from an earlier result that a later call already used, that later call's
    result) when the call uses no result still open: "count the words (5), double the count (10), and add 1"
    called as calculator("5 + 1"). A result used twice in one expression, or beside a newer one ("45.9 + 4.59"),
    is no such call."""
    mine = argument_values(arguments)
    steps = [(inputs, result) for _, inputs, result in earlier]
    still_open = set(open_results(steps))
    if not mine or mine & {v for r in still_open for v in values_in(r)}:
        return [], ""
    for index in range(len(steps) - 1, -1, -1):
        inputs, result = steps[index]
        if result.strip() not in still_open:
            continue
        before = {v for _, r in steps[:index] for v in values_in(r)}
        taken = mine & before & argument_values(inputs)
        if len(taken) == 1:
            return [plain(n) for n in taken], result
    return [], ""


def doubled(arguments: Any, results: Sequence[str]) -> int | None:
    """The index of the earlier result that this call uses twice ("329 + 329" after one lookup of 329), if any."""
    counts: dict[float, int] = {}
    for value in argument_numbers(arguments):
        counts[round(abs(value), 12)] = counts.get(round(abs(value), 12), 0) + 1
    for index in range(len(results) - 1, -1, -1):
        values = values_in(results[index])
        if len(values) == 1 and counts.get(values.pop(), 0) >= 2:
            return index
    return None


def with_result(arguments: Any, numbers: Sequence[str], result: str) -> Any:
    """The call's arguments with the stale input numbers written as the earlier result: the fix spelled out, since
    "use 243.84 in place of 8" alone came back as calculator("243.84 - 8")."""
    stale = {float(n) for n in numbers}
    if not _NUMBER.fullmatch(result.strip()):
        return arguments  # "243.84 cm" is no number to write into an expression
    if isinstance(arguments, dict):
        return {key: with_result(value, numbers, result) for key, value in arguments.items()}
    if isinstance(arguments, list):
        return [with_result(value, numbers, result) for value in arguments]
    if isinstance(arguments, int | float) and not isinstance(arguments, bool) and float(arguments) in stale:
        return float(result)
    if isinstance(arguments, str):
        return _NUMBER.sub(lambda m: result.strip() if float(m.group()) in stale else m.group(), arguments)
    return arguments


def with_tool_value(answer: str, invented: Sequence[str], result: str) -> str:
    """The answer with its one invented number written as the tool's numeric result (123456 / 64: the tool said
    1929, the model answered 2222 twice); unchanged unless both are a single plain number."""
    value = result.strip()
    if len(invented) != 1 or not _NUMBER.fullmatch(value):
        return answer
    text = _THOUSANDS.sub("", answer)
    # Compared by value: the answer's JSON number 12.0000000000000004 is read as "12.0" (compose27's ah18).
    return _NUMBER.sub(lambda m: value if float(m.group()) == float(invented[0]) else m.group(), text)


# "6 * 330 / 1000 = 204.0 liters": a calculation written out in the answer, its value after "=".
_WORKED = re.compile(r"\d[\d.,]*\s*[-+*/×]\s*[\d.(][^=\n]*=\s*(-?\d[\d,]*(?:\.\d+)?)")


def without_working(answer: str, invented: Sequence[str], result: str) -> str:
    """The answer with a calculation it writes out ("9 * 6 = 54 meters"), whose value is one of the `invented`
    numbers, written as the tool's numeric result ("16.4592 meters"); unchanged otherwise. `with_tool_value`
    leaves such an answer alone: its several numbers are not one invented number (compose32's am16 and am17)."""
    value = result.strip()
    match = _WORKED.search(answer)
    if match is None or not _NUMBER.fullmatch(value):
        return answer
    if not any(float(match.group(1).replace(",", "")) == float(n) for n in invented):
        return answer
    return answer[: match.start()] + value + answer[match.end() :]


def plain(number: float) -> str:
    return str(int(number)) if number == int(number) else str(number)


def rounds_to(value: float, written: str) -> bool:
    """Whether `value` rounds to the number as `written`, to its decimals ("56.33" for 56.32704)."""
    decimals = len(written.partition(".")[2])
    return abs(value - float(written)) <= 0.5 * 10.0**-decimals + 1e-9


def _json_text(answer: str) -> str:
    try:
        value = json.loads(answer)
    except ValueError:
        return answer
    return str(value) if isinstance(value, str | int | float) else answer
