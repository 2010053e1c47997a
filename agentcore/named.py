"""Names where values belong: a failed expression that names the results it needs, run with those results.

A 0.5B model that has looked up a printer's price still writes `calculator("6 * (price of printer)")`, or writes
that before looking anything up. The calculator cannot parse it, and the model, shown the error, tends to repeat
it or answer with the price alone. Held-out compose splits showed the pattern in six forms ("2 * coffee mug price",
"4 / (price of webcam)", "20 - price of a keyboard", "laptop price - desk price").

When a read-only call fails on an argument that mixes words with digits or operators, and the error names each
run of words (the whole run, or one of its words quoted: the tool said they were the problem), each run is
resolved to a number: first by an earlier successful call whose word argument the run contains ("coffee mug" in
"coffee mug price" -> 7.25), else by probing the read-only tools with the run's shorter word runs ("printer" for
"price of printer"), where exactly one distinct number must come back. A run is words joined by spaces or
underscores, with an optional bracketed argument: compose5 showed `price_of_webcam`, `monitor_price` and
`price(headphones)`. When every run resolves, the call with the numbers in place runs instead, if it works.
Anything ambiguous or unresolved changes nothing: the model gets the error as before.

An argument that is one English phrase whose order is not the expression's ("Subtract 30 from the price of a
printer", j04 of compose11) is first read as the expression it means (agentcore.phrasing): "(the price of a
printer) - 30", whose run then resolves as above.

A run that names no item by itself ("price - 29", "0.25 * price") is read in the task's own phrase: "the price of
a tablet" or "the tablet's price" gives "price of a tablet" and "tablet price", resolved the same way.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from agentcore.messages import ToolCall, ToolSpec
from agentcore.phrasing import as_expression
from agentcore.probe import FILLER, MAX_WORD_PROBES, WORDS, chosen, free_string, runs
from agentcore.turns import bound_schema
from agentcore.unfinished import BARE_NUMBER

Probe = Callable[[list[ToolCall]], Awaitable[list[str | None]]]  # each candidate's result, None where it failed

_WORD = r"[^\W\d_]+(?:['-][^\W\d_]+)*"
_JOINED = rf"{_WORD}(?:[ _]{_WORD})*"  # by single spaces or underscores: " - " is an operator, not a join
RUN = re.compile(rf"{_JOINED}(?:\({_JOINED}\))?")  # "price of printer", "price_of_webcam", "price(webcam)"
_EXPRESSION = re.compile(r"[\d+*/()=%^-]")
BLANK = "word"  # the free string of a blank call (`blank_calls`), replaced by each word tried
MAX_ENUM_COMBINATIONS = 8  # a tool's other arguments tried per probed word run: more is a guess, not a lookup


def named_runs(value: Any) -> list[str]:
    """The runs of words in a string that also holds digits or operators, each with a content word."""
    if not isinstance(value, str) or not _EXPRESSION.search(value):
        return []
    return [m.group() for m in RUN.finditer(value) if any(_content(w) for w in WORDS.findall(m.group()))]


def word_values(call: ToolCall, spec: ToolSpec) -> list[str]:
    """A read-only call's free-string arguments (no enum, pattern or format) that are words only."""
    if not spec.read_only:
        return []
    nodes = bound_schema(spec.parameters).get("properties", {})
    return [
        value
        for key, value in call.arguments.items()
        if isinstance(nodes, dict) and free_string(nodes.get(key)) and isinstance(value, str)
        if WORDS.findall(value) and " ".join(WORDS.findall(value)) == " ".join(value.split())
    ]


def known_value(run: str, done: Sequence[tuple[ToolCall, ToolSpec, str]]) -> str | None:
    """The number an earlier call returned for the longest word value that `run` contains; None when no call
    matches or the longest matches returned different numbers."""
    words = {w.casefold() for w in WORDS.findall(run)}
    found: dict[str, int] = {}
    for call, spec, result in done:
        if BARE_NUMBER.fullmatch(result.strip()) is None:
            continue
        for value in word_values(call, spec):
            named = [w.casefold() for w in WORDS.findall(value)]
            if set(named) <= words and any(_content(w) for w in named):
                found[result.strip()] = max(found.get(result.strip(), 0), len(named))
    best = [r for r, n in found.items() if n == max(found.values(), default=0)]
    return best[0] if len(best) == 1 else None


def lookups(
    run: str, specs: Sequence[ToolSpec], done: Sequence[tuple[ToolCall, ToolSpec, str]], failed: str = ""
) -> list[ToolCall]:
    """Calls that may give `run`'s value: each earlier word-argument call of a read-only tool, else each offered
    read-only tool with one free-string argument and enums for the rest, with that argument set to each content
    run of `run`'s words. The failed call's own tool is no lookup."""
    run = " ".join(WORDS.findall(run))  # "price_of_webcam" and "price(webcam)" are words to a lookup
    templates = [(call, spec) for call, spec, _ in done if spec.name != failed and word_values(call, spec)]
    if not templates:
        templates = [t for spec in specs if spec.name != failed for t in blank_calls(spec)]
    candidates: list[ToolCall] = []
    for call, spec in templates:
        key = next(k for k, v in call.arguments.items() if v in word_values(call, spec))
        for words in [run, *runs(run, shorter=True)]:
            candidate = ToolCall(call.name, {**call.arguments, key: words})
            if candidate not in candidates:
                candidates.append(candidate)
    return candidates if len(candidates) <= MAX_WORD_PROBES else []


def in_task(run: str, task: str) -> list[str]:
    """The task's phrases that say what `run` is of: "price" in "the price of a tablet minus 29" gives "price of a
    tablet minus" (the probes try its shorter runs), in "the tablet's price" gives "tablet price"."""
    words = r"\s+".join(re.escape(w) for w in WORDS.findall(run))
    if not words:
        return []
    item = rf"((?:{_WORD})(?:\s+{_WORD}){{0,2}})"
    of = re.finditer(rf"(?<!\w)(?i:{words})\s+of\s+(?:(?:a|an|the)\s+)?{item}", task)
    owner = re.finditer(rf"((?:{_WORD}\s+)?{_WORD})'s\s+(?i:{words})(?!\w)", task)
    found = [f"{run} of {m.group(1)}" for m in of] + [f"{m.group(1)} {run}" for m in owner]
    return list(dict.fromkeys(found))


async def resolved_call(
    call: ToolCall,
    error: str,
    specs: Sequence[ToolSpec],
    done: Sequence[tuple[ToolCall, ToolSpec, str]],
    probe: Probe,
    *,
    task: str = "",
) -> ToolCall | None:
    """`call` with each named run replaced by its number, if every run (or, failing that, its phrase in the task)
    resolves and that call works; else None. `done`: the run's successful calls so far, with their specs and
    results."""
    spec = next((s for s in specs if s.name == call.name), None)
    if spec is None or not spec.read_only:
        return None
    for key, written in call.arguments.items():
        value = as_expression(written) if isinstance(written, str) else None
        value = written if value is None else value
        named = named_runs(value)
        if not named or not all(_quoted(r, error) for r in named):
            continue  # the tool did not say these words were the problem
        text = value
        for run in named:
            number = await _value(run, specs, done, call.name, probe)
            for phrase in in_task(run, task) if number is None else []:
                number = number or await _value(phrase, specs, done, call.name, probe)
            if number is None:
                return None
            text = text.replace(run, number, 1)
        candidate = ToolCall(call.name, {**call.arguments, key: text})
        return candidate if (await probe([candidate]))[0] is not None else None
    return None


async def _value(
    run: str, specs: Sequence[ToolSpec], done: Sequence[tuple[ToolCall, ToolSpec, str]], failed: str, probe: Probe
) -> str | None:
    return known_value(run, done) or await _probed_value(lookups(run, specs, done, failed), probe)


async def _probed_value(candidates: list[ToolCall], probe: Probe) -> str | None:
    """The one number the candidates that work agree on; of several, the number of the widest candidate, whose
    words hold every other's ("desk lamp" over "desk" in "3 * desk lamp price", compose34's ao04); else None."""
    results = await probe(candidates) if candidates else []
    worked = [
        (c, r.strip()) for c, r in zip(candidates, results, strict=True) if r and BARE_NUMBER.fullmatch(r.strip())
    ]
    numbers = {number for _, number in worked}
    if len(numbers) <= 1:
        return numbers.pop() if numbers else None
    widest = chosen([c for c, _ in worked])
    return next((number for c, number in worked if c is widest), None)


def blank_calls(spec: ToolSpec) -> list[tuple[ToolCall, ToolSpec]]:
    """A read-only tool whose required arguments are one free string and enums: one call per enum combination,
    the free string as a placeholder word to be replaced."""
    schema = bound_schema(spec.parameters)
    nodes, required = schema.get("properties", {}), schema.get("required", [])
    if not spec.read_only or not isinstance(nodes, dict):
        return []
    free = [k for k in required if free_string(nodes.get(k))]
    enums = [k for k in required if k not in free and isinstance(nodes.get(k), dict) and "enum" in nodes[k]]
    if len(free) != 1 or len(free) + len(enums) != len(required):
        return []
    combos = list(itertools.product(*(nodes[k]["enum"] for k in enums)))
    if len(combos) > MAX_ENUM_COMBINATIONS:
        return []
    return [(ToolCall(spec.name, {**dict(zip(enums, c, strict=True)), free[0]: BLANK}), spec) for c in combos]


def _quoted(run: str, error: str) -> bool:
    """Whether the error names the run or one of its content words ("unknown function 'price'")."""
    said = error.casefold()
    return run.casefold() in said or any(f"'{w.casefold()}'" in said for w in WORDS.findall(run) if _content(w))


def _content(word: str) -> bool:
    return word.casefold() not in FILLER and len(word) > 2
