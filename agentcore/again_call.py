"""The call for the next action of a request that asks for one action several times (`agentcore.again`), written
from the last call and the task's text: which of the task's numbers go where, and the task's words beside them.

"sides 3 and 4, 5 and 12": the numbers come in groups, as many as the call took; "for 10, 20 and 30 years": one
list holds one of the numbers the call took, and each other number of it is an action of its own; "$30.45 in
Chicago, Illinois, $52.33 in Sacramento, California": the words after each number stand where the last call's
words stood. Where the task's text fits none of these, no call is written and the notice names the numbers only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentcore.messages import ToolCall

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\d])")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")  # a text argument that is a number ("28473", a case number)
_SEPARATOR = r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)\s*\$?"  # between the numbers of one list
_LIST = re.compile(rf"\$?\d+(?:\.\d+)?(?:{_SEPARATOR}\d+(?:\.\d+)?)+")
_CONTINUATION = re.compile(r"[^\d,.;:?!$]*")  # the words after the last word slot, up to a number or a stop
_SEGMENT_CHARS = 60  # the words beside a number that belong to it are close to it


@dataclass(frozen=True, slots=True)
class Again:
    """What to call next (`agentcore.again`): `tool` for `numbers` (the task's numbers, or listed words, that no
    call took), after the last call took `took` and returned `status`; `call`: that call written out, where the
    task's text shows how; `texts`: else the task's words the last call took ("HSBC"), not to be copied."""

    tool: str
    numbers: tuple[str, ...]
    took: tuple[str, ...]
    status: str
    call: ToolCall | None = None
    texts: tuple[str, ...] = ()


def task_texts(task: str, call: ToolCall) -> dict[str, str]:
    """The call's text arguments that are the task's own words ("HSBC"), a number written as text left out: a
    request that names one per action names another for the next ("... and for Wells Fargo")."""
    lowered = _THOUSANDS.sub("", task).lower()
    return {
        key: value
        for key, value in call.arguments.items()
        if isinstance(value, str) and value.strip() and not _is_number(value) and value.lower() in lowered
    }


def numeric(arguments: dict[str, Any]) -> list[tuple[str, float]]:
    """The call's top-level numbers, in order, a number written as text included (a boolean is not one)."""
    return [(key, float(value)) for key, value in arguments.items() if _is_number(value)]


def _is_number(value: Any) -> bool:
    if isinstance(value, str):
        return _DIGITS.fullmatch(value.strip()) is not None
    return isinstance(value, int | float) and not isinstance(value, bool)


def next_call(task: str, call: ToolCall, took: Sequence[tuple[str, float]], pending: Sequence[str]) -> ToolCall | None:
    """`call` written for the next action: its numbers from the task replaced (`_next_numbers`), its words from
    the task replaced by the words beside the new number (`_next_words`); None where either cannot be read."""
    flat = _THOUSANDS.sub("", task)
    numbers = _next_numbers(flat, took, pending)
    if numbers is None:
        return None
    texts = task_texts(task, call)
    words = _next_words(flat, dict(took), numbers, texts) if texts else {}
    if words is None:
        return None
    arguments = dict(call.arguments)
    for key, number in numbers.items():
        arguments[key] = _typed(call.arguments[key], number)
    arguments.update(words)
    return ToolCall(call.name, arguments)


def _next_numbers(flat: str, took: Sequence[tuple[str, float]], pending: Sequence[str]) -> dict[str, str] | None:
    """{argument: the task's number for it in the next action}: the next of a list that holds one number the
    call took, else the next group of as many numbers as it took, in order."""
    for run in _LIST.finditer(flat):
        listed = [float(n) for n in _DIGITS.findall(run.group())]
        held = [key for key, value in took if value in listed]
        later = [p for p in pending if float(p) in listed]
        if len(held) == 1 and later:
            return {held[0]: later[0]}
    if len(pending) < len(took) or len(pending) % len(took):
        return None
    return {key: number for (key, _), number in zip(took, pending, strict=False)}


def _next_words(
    flat: str, took: dict[str, float], numbers: dict[str, str], texts: dict[str, str]
) -> dict[str, str] | None:
    """{argument: the words of the task that stand beside the new number where the call's words stood beside
    the old one}: "$30.45 in Chicago, Illinois" read as a pattern for "$52.33 in Sacramento, California"."""
    key = next(iter(numbers))
    old, new = _written(flat, took[key]), _written(flat, float(numbers[key]))
    if old is None or new is None:
        return None
    spots = sorted((_find(flat, text, old.end()), name) for name, text in texts.items())
    if any(at < 0 or at - old.end() > _SEGMENT_CHARS for at, _ in spots):
        return None  # a word before the number, or far from it: no pattern to read
    pattern, end = re.escape(new.group()), old.end()
    for index, (at, name) in enumerate(spots):
        pattern += re.escape(flat[end:at]) + rf"(?P<a{index}>[^,.;:?!]+?)"
        end = at + len(texts[name])
    after = _CONTINUATION.match(flat, end)  # " with income" after "HSBC" ends "Wells Fargo" too
    words = after.group().strip() if after is not None else ""
    ends = [re.escape(words) + r"\b"] if words else []
    pattern += r"(?=\s*(?:" + "|".join([*ends, r"[,.;:?!]", r"\band\b", r"\bor\b", "$"]) + "))"
    found = re.compile(pattern).match(flat, new.start())
    if found is None:
        return None
    return {name: found.group(f"a{index}").strip() for index, (_, name) in enumerate(spots)}


def _written(flat: str, value: float) -> re.Match[str] | None:
    return next((m for m in _NUMBER.finditer(flat) if float(m.group()) == value), None)


def _find(flat: str, text: str, start: int) -> int:
    return flat.lower().find(text.lower(), start)


def _typed(old: Any, number: str) -> Any:
    """`number` in the type the call gave that argument: text stays text, a whole number stays whole."""
    if isinstance(old, str):
        return number
    value = float(number)
    return int(value) if value.is_integer() and isinstance(old, int) else value
