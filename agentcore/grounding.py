"""Is a call's argument a placeholder copied from the tool's own description, rather than a value of the task?

Measured on Qwen2.5-Coder-0.5B (compose dev): asked "What do 3 monitors and 2 keyboards cost?" with a lookup tool
documented as "prices (product -> price in dollars)", the model called `lookup(key="product")`, then gave up on
the lookup. The word came from the documentation, which names the kind of value, not a value. A string argument
that is a word of the tool's description or schema and appears in neither the task nor an earlier result is such
a placeholder: the call is held back once and the task's own words are named instead. Enum values are the
schema's to give and are never flagged; a value the task also writes is the user's, whatever the docs say.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.lemmas import same_word
from agentcore.steps import STEP_VERBS
from agentcore.unfinished import leaves, numbers_in, spelled_numbers

_WORD = re.compile(r"[a-z][a-z'-]*")
_POSSESSIVE = re.compile(r"'s?$")
_NAME = re.compile(r"[A-Za-z][A-Za-z' ->]*")  # words only ("country -> capital"): no expression, date or number
MAX_CANDIDATES = 8


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def mentions(text: str, value: str) -> bool:
    """`value` written in `text` as whole words, a plural "s" allowed either way, or any other form of its words
    ("mice" for "mouse": `agentcore.lemmas`)."""
    wanted, written = _words(value), _words(text)
    if not wanted:
        return True
    stem = re.escape(" ".join(wanted).removesuffix("s"))
    if re.search(rf"(?<![a-z]){stem}s?(?![a-z])", " ".join(written)) is not None:
        return True
    return _forms_of(tuple(wanted), tuple(written))


@lru_cache(maxsize=1024)
def _forms_of(wanted: tuple[str, ...], written: tuple[str, ...]) -> bool:
    """`wanted` runs in `written`, word by word, each word in some form of it (`lemmas.same_word`). Cached: the
    checks ask this of the same run's text many times."""
    n = len(wanted)
    return any(
        all(same_word(a, b) for a, b in zip(wanted, written[i : i + n], strict=True))
        for i in range(len(written) - n + 1)
    )


def _enum_values(schema: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("enum", "const"):
                values = value if isinstance(value, list) else [value]
                found |= {str(v).lower() for v in values}
            else:
                found |= _enum_values(value)
    elif isinstance(schema, list):
        for item in schema:
            found |= _enum_values(item)
    return found


def _strings(arguments: Any) -> Iterable[str]:
    return (leaf for leaf in leaves(arguments) if isinstance(leaf, str))


def placeholders(
    arguments: Any, description: str, parameters: dict[str, Any], task: str, results: Sequence[str] = ()
) -> list[str]:
    """The call's string values that are words of the tool's description or schema (`key="product"`) and that
    neither the task nor an earlier result contains."""
    docs = f"{description} {json.dumps(parameters)}"
    enums = _enum_values(parameters)
    found = []
    for value in _strings(arguments):
        plain = " ".join(_words(value))
        if not _NAME.fullmatch(value.strip()) or plain in enums or not mentions(docs, value):
            continue
        if mentions(task, value) or any(mentions(result, value) for result in results):
            continue
        found.append(value)
    return list(dict.fromkeys(found))


def task_words(task: str, description: str, parameters: dict[str, Any]) -> list[str]:
    """The task's own content words that the tool's docs do not use, adjacent ones kept together ("desk lamp"):
    the candidates for a value. A comparative ("cheaper than") is none: "webcam cheaper" was no item; nor is a
    verb before its object ("set me back")."""
    quoted = re.findall(r"(?<!\w)'([^']+)'(?!\w)|\"([^\"]+)\"", task)  # not the apostrophes of "laptop's"
    if quoted:  # quoted material is a value as written
        return [a or b for a, b in quoted][:MAX_CANDIDATES]
    docs = set(_words(f"{description} {json.dumps(parameters)}"))
    runs: list[list[str]] = [[]]
    tokens = [_POSSESSIVE.sub("", t) for t in re.findall(r"[a-z][a-z'-]*|\S", task.lower())]  # "laptop's": laptop
    for i, token in enumerate(tokens):
        if (
            len(token) > 2
            and token not in FUNCTION_WORDS | docs
            and not _is_verb(token)
            and not _compares(tokens, i)
            and tokens[i + 1 : i + 2] not in _OBJECTS
        ):
            runs[-1].append(token)
        elif runs[-1]:
            runs.append([])
    return list(dict.fromkeys(" ".join(run) for run in runs if run))[:MAX_CANDIDATES]


# A word right before an object pronoun is a verb, not part of an item: "a webcam set me back" named "webcam set".
_OBJECTS = (["me"], ["us"], ["him"], ["them"])


def _compares(tokens: list[str], i: int) -> bool:
    """A word right before "than" that no article or number introduces: a comparative ("a webcam cheaper than",
    "more expensive than"), where "a laptop than" and "2 pens than" name items."""
    before = tokens[i - 1] if i else ""
    return tokens[i + 1 : i + 2] == ["than"] and before not in _ARTICLES and not before.isdigit()


def content_words(text: str) -> list[str]:
    """The words of `text` that can name a thing: no function word, instruction verb or two-letter word."""
    words = [w for w in _words(text) if len(w) > 2 and w not in FUNCTION_WORDS and not _is_verb(w)]
    return list(dict.fromkeys(words))


def _is_verb(word: str) -> bool:
    """An instruction verb in any common form ("divide", "divided", "adds"): an operation, never a value."""
    # "-ed" and "-es" only: "printer" is a thing, not a form of "print"
    cut = word[:-2] if word.endswith(("ed", "es")) else word
    stems = (word, word[:-1], cut, word.removesuffix("ing"), word.removesuffix("ied") + "y")
    return any(stem in STEP_VERBS for stem in stems)


def with_value(arguments: Any, copied: Sequence[str], value: str) -> Any:
    """The arguments with each copied string replaced by `value` (the notice's example call)."""
    if isinstance(arguments, str):
        return value if arguments in copied else arguments
    if isinstance(arguments, dict):
        return {key: with_value(item, copied, value) for key, item in arguments.items()}
    if isinstance(arguments, list):
        return [with_value(item, copied, value) for item in arguments]
    return arguments


_ARTICLES = frozenset({"a", "an", "the", "some", "each", "every"})


def _lead(task: str, phrase: str) -> str | None:
    """The word before `phrase` in the task, articles skipped; any number reads as "#"."""
    tokens = re.findall(r"\d+(?:\.\d+)?|[a-z][a-z'-]*", task.lower())
    head = phrase.split()
    for index in range(len(tokens) - len(head) + 1):
        if tokens[index : index + len(head)] == head:
            before = [t for t in tokens[:index] if t not in _ARTICLES]
            if not before:
                return None
            return "#" if before[-1][0].isdigit() else before[-1]
    return None


def parallel_unused(task: str, words: Sequence[str], used: str) -> list[str]:
    """The task's candidate `words` that no call used, when they stand where a used one stands ("3 monitors and
    2 keyboards": both after a number; "the price of a desk lamp ... the price of a usb cable": both after "of").
    A coordinated list names values of one kind; a word elsewhere in the task ("among 3 friends") is not one."""
    done = [w for w in words if mentions(used, w)]
    leads = {_lead(task, w) for w in done} - {None}
    return [
        w
        for w in words
        if w not in done
        and not _takes_number(task, w)
        and not _takes_object(task, w)
        and (_lead(task, w) in leads or any(_joined(task, d, w) for d in done))
    ]


def _takes_number(task: str, phrase: str) -> bool:
    """A phrase with a number right after it and no article or number before it: a verb and its object ("and
    knock 20 percent off", ", less 35"), not an item, which a list writes after its count or article ("and 2
    keyboards", "and a mouse"). compose22's ac14 and compose20's aa04 were told to look up "knock" and "less"."""
    tokens = re.findall(r"\d+(?:\.\d+)?|[a-z][a-z'-]*|[^\sa-z\d]", task.lower())
    head = phrase.split()
    for index in range(len(tokens) - len(head)):
        if tokens[index : index + len(head)] == head and tokens[index + len(head)][0].isdigit():
            before = tokens[index - 1] if index else ""
            return before not in _ARTICLES and not before[:1].isdigit()
    return False


# What opens a verb's object: "knock the $35 deposit ... off", "add its half". An item of a list is followed by
# its verb or the end ("2 chairs and a desk cost"), not by one of these.
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "my", "your", "our", "his", "her", "this", "that"})


def _takes_object(task: str, phrase: str) -> bool:
    """A phrase with a determiner right after it and no article or number before it: a verb and its object
    ("Look up the printer and knock the $35 deposit I already paid off its price": independent1's ar05 was sent
    to look up "knock")."""
    tokens = re.findall(r"\d+(?:\.\d+)?|[a-z][a-z'-]*|[^\sa-z\d]", task.lower())
    head = phrase.lower().split()
    for index in range(len(tokens) - len(head)):
        if tokens[index : index + len(head)] == head and tokens[index + len(head)] in _DETERMINERS:
            before = tokens[index - 1] if index else ""
            return before not in _ARTICLES and not before[:1].isdigit()
    return False


def listed_together(task: str, words: Sequence[str], used: str) -> bool:
    """Whether two of the task's candidate `words` that the calls used stand in one list ("a keyboard and a
    mouse", "3 monitors and 2 keyboards"): their results are parts of one answer, not a stray lookup."""
    done = [w for w in words if mentions(used, w)]
    return any(
        _joined(task, a, b) or (_lead(task, a) is not None and _lead(task, a) == _lead(task, b))
        for i, a in enumerate(done)
        for b in done[i + 1 :]
    )


def _joined(task: str, first: str, second: str) -> bool:
    """Whether the task joins the two by "and", "or" or a comma ("a keyboard and a mouse"), or compares them by
    "than" ("a pen than a notebook", "a tablet cost than a keyboard"), either way round; an article or quantity
    may stand before the second."""
    text = " ".join(re.findall(r"\d+(?:\.\d+)?|[a-z][a-z'-]*|,", task.lower()))

    def pattern(a: str, b: str) -> str:
        joint = r" (?:, )?(?:and|or) | , | (?:[a-z]+ )?than "
        quantity = r"(?:(?:a|an|the|one|two|three|\d+(?:\.\d+)?) )?"
        return rf"(?<![a-z]){re.escape(a)}s?(?:{joint}){quantity}{re.escape(b)}s?(?![a-z])"

    return any(re.search(pattern(a, b), text) for a, b in ((first, second), (second, first)))


# Numbers a call may use without the task writing them: "the first", "a mile", "from zero".
ALWAYS_GIVEN = frozenset({0.0, 1.0})
DERIVED_FROM = 40  # pairs of at most this many given numbers count as worked out, not made up


def unsupplied(arguments: dict[str, Any], parameters: dict[str, Any], description: str, given: str) -> list[str]:
    """The required arguments whose values no one gave: numbers that `given` (the conversation: instructions,
    task, results) neither writes nor yields by one operation on two of its numbers ("50 EUR plus 15%" -> 57.5),
    web addresses on a host it never names, and email addresses it never writes; the tool's own docs count as given
    too.
    `currency_converter(amount=100)` asked for the duration of a flight; `requests.get(url="https://api.ipify.org")`
    asked for company data. Written `name=value`. Numbers inside strings ("12 * 3"), optional arguments and
    booleans are never judged."""
    docs = f"{description} {json.dumps(parameters)}"
    spoken = stated_numbers(given)
    known = spoken | stated_numbers(docs)
    text = f"{given} {docs}".lower()
    derived: set[float] | None = None
    found = []
    for name in parameters.get("required", []):
        for leaf in leaves(arguments.get(name)):
            if isinstance(leaf, str) and (_unknown_host(leaf, text) or _unknown_email(leaf, text)):
                found.append(f"{name}={leaf}")
            if not isinstance(leaf, int | float) or isinstance(leaf, bool) or round(abs(leaf), 12) in known:
                continue
            derived = worked_out(spoken) if derived is None else derived  # only when a number is not written
            if round(abs(leaf), 6) not in derived:
                found.append(f"{name}={leaf}")
    return found


def invented_optional(arguments: dict[str, Any], parameters: dict[str, Any], description: str, given: str) -> list[str]:
    """The optional arguments whose value is a string with numbers, none of which `given` (the conversation) or the
    tool's docs write, and which the conversation does not contain as written: `start_date="2021-06-15"` for
    "the details of the 'car-rental' project, including its start date". Left out, the tool's default applies;
    the 0.5B model fills such dates in from nowhere. Enum values are the schema's own, and numbers and booleans
    are not judged (a count the task implies, "the upcoming month" -> 30, is no invention).
    On every saved BFCL call (dev and test) this leaves out 7 values that the ground truth wants absent and none
    that it wants. A date written with dots gives its parts: "today is 2023.10.1" reads as the number 2023.1, and
    `date="2023-10-01"` for "this Saturday 2023.10.1" went (BFCL live_multiple_672, dev)."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    docs = f"{description} {json.dumps(parameters)}"
    known = {round(abs(n), 9) for n in numbers_in(f"{given} {docs}")} | _dotted_date_parts(given)
    found = []
    for name, value in arguments.items():
        schema = properties.get(name)
        if name in required or not isinstance(value, str) or not isinstance(schema, dict) or "enum" in schema:
            continue
        numbers = {round(abs(n), 9) for n in numbers_in(value)}
        if numbers and not numbers & known and value.casefold() not in given.casefold():
            found.append(name)
    return found


_DOTTED_DATE = re.compile(r"(?<![\d.])(\d{1,4})\.(\d{1,2})\.(\d{1,4})(?!\.?\d)")  # "2023.10.1." ends a sentence


def _dotted_date_parts(text: str) -> set[float]:
    """The year, month and day of each date written with dots ("2023.10.1"), which `numbers_in` reads as one
    decimal number."""
    return {float(part) for match in _DOTTED_DATE.finditer(text) for part in match.groups()}


_HOST = re.compile(r"https?://([^/\s\"'?#:]+)", re.IGNORECASE)


def _unknown_host(value: str, text: str) -> bool:
    """Whether `value` is a web address on a host that `text` (lower case) never writes: an address cannot be
    guessed."""
    return any(host.lower().removeprefix("www.") not in text for host in _HOST.findall(value))


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _unknown_email(value: str, text: str) -> bool:
    """Whether `value` holds an email address that `text` (lower case) never writes: "Send to Mom an email"
    called `python_send_mail(address="mom@example.com")` (BFCL live_irrelevance_498, dev)."""
    return any(address.lower() not in text for address in _EMAIL.findall(value))


_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*(k|K|M|B|bn|thousand|million|billion)\b")
_SCALES = {"k": 1e3, "K": 1e3, "thousand": 1e3, "M": 1e6, "million": 1e6, "B": 1e9, "bn": 1e9, "billion": 1e9}


# The counts that calendar and clock words carry: "the next week" is days=7 (BFCL multiple_63, fresh test slice 3).
# fmt: off
_UNIT_COUNTS = {
    "week": (7,), "fortnight": (14,), "month": (30, 31, 12), "year": (365, 12, 52), "day": (24,), "hour": (60,),
    "minute": (60,), "decade": (10,), "century": (100,), "pair": (2,), "couple": (2,),
}
# fmt: on


def _unit_counts(text: str) -> set[float]:
    words = {w.removesuffix("s") for w in _WORD.findall(text.lower())}
    return {float(n) for word, counts in _UNIT_COUNTS.items() if word in words for n in counts}


def stated_numbers(text: str) -> set[float]:
    """The numbers `text` writes in digits or words ("$1.2M", "a week" too), and each percentage as a calculator
    takes it (20% -> 0.2, 1.2, 0.8)."""
    written = numbers_in(text) + [float(n) * _SCALES[unit] for n, unit in _SCALED.findall(text)]
    known = {round(abs(n), 12) for n in written} | spelled_numbers(text) | _unit_counts(text) | ALWAYS_GIVEN
    return known | {round(f, 12) for n in written for f in (n / 100, 1 + n / 100, 1 - n / 100)}


def worked_out(known: set[float]) -> set[float]:
    """Every result of one operation on two given numbers, to 6 decimals (a value worked out, not invented)."""
    values = sorted(known)[:DERIVED_FROM]
    out = {round(v, 6) for v in values}
    for a in values:
        for b in values:
            out |= {round(a + b, 6), round(abs(a - b), 6), round(a * b, 6)}
            if b:
                out.add(round(a / b, 6))
    return out


COUNTED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?")


def counted_items(task: str, pending: Sequence[str], steps: Sequence[tuple[Any, str]]) -> list[str]:
    """Each of the task's `pending` numbers written before an item that a step looked up ("3 monitors" and
    lookup("monitor") = 215), as that count times the item's result ("3 * 215"); [] unless every one pairs. The
    count goes with its item: a model told only "the task still uses 3 and 2" adds them to the prices."""
    found: dict[str, str] = {}
    for match in COUNTED.finditer(task.lower()):
        count, words = match.group(1), [w for w in match.group(2, 3) if w]
        if count not in pending or count in found:
            continue
        naming = item_steps(words, steps)
        if naming:
            found[count] = f"{count} * {naming[0][1]}"
    return [found[n] for n in pending] if set(found) == set(pending) else []


def item_steps(words: Sequence[str], steps: Sequence[tuple[Any, str]]) -> list[tuple[Any, str]]:
    """The (arguments, stripped result) steps that name the item the task writes as `words` after a count, when
    they all returned one result: the whole phrase first ("2 desk lamps"), then its first word ("2 desks"). [] when
    no phrase has one."""
    for item in (" ".join(words), words[0]):
        naming = [(a, r.strip()) for a, r in steps if mentions(json.dumps(a, ensure_ascii=False), item)]
        if len({r for _, r in naming}) == 1:
            return naming
    return []
