"""A failed call of a read-only tool, tried with other values: of its enum arguments, then of its word arguments.

A 0.5B model writes `lookup(table="capitals", key="laptop")` for a price (the first table listed), reads the
error, and calls the same again. A read-only tool (`ToolSpec.read_only`, MCP's readOnlyHint) changes nothing
when called, so the loop may try the call with each other value of an enum argument: tool time, not model
turns. When exactly one of them succeeds it runs in place of the failed call, and the conversation shows that
call. None or several (the task does not say which) change nothing: the model gets the error as before.

Word arguments (`word_alternatives`): the model also passes a description where a name belongs
(`key="price of printer"`, `key="product"`: the commonest failure on issue #12's compose tasks). When the error
names the value, the tool said that value was the problem, so the probe tries the shorter runs of its own words
("printer"), then, if none works, the task's content words and word pairs ("backpack", "desk lamp"), with the
same rule: the one that works runs and none changes nothing. Of several, nested ones ("desk lamp", "desk", "lamp"
for "price of desk lamp") give the widest; of the task's words, the one it names first, since a placeholder
(`key="product"`, `key="price in dollars"`) stands for one of the items the task needs, and the first item is its
first step (compose10's h07 had spent a turn on the notice, and ran out of turns one short). `chosen` decides.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection
from typing import Any

from agentcore.context import RunContext
from agentcore.lemmas import irregular
from agentcore.messages import ToolCall, ToolSpec
from agentcore.prompting import format_result
from agentcore.turns import bound_schema
from agentcore.unfinished import BARE_NUMBER

MAX_PROBES = 12  # more alternatives than this: too many tool calls for a guess, none are tried
MAX_WORD_PROBES = 24  # the same for word arguments (a task has more content words than an enum has values)
WORDS = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")  # letters only: a number or an expression is no name
# Words that name nothing by themselves: never a probe's first or last word ("price of" -> no).
_FILLER_WORDS = (
    "a an and are at be by do does each for from how in is it its many much of on or per than that the this to "
    "what when where which who why with"
)
FILLER = frozenset(_FILLER_WORDS.split())
_POSSESSIVE = re.compile(r"['\u2019]s?\b(?![\w'])")
PROBE_SECONDS = 10.0  # all probes of one failed call together (an MCP tool is a network call); past it, none wins


def alternatives(call: ToolCall, spec: ToolSpec) -> list[ToolCall]:
    """The call with one enum argument changed to each of its other values; empty when the tool may have side
    effects, has no enum argument, or has more than MAX_PROBES alternatives."""
    found: list[ToolCall] = []
    for key, value, node in _arguments(call, spec):
        values = node.get("enum") if isinstance(node, dict) else None
        if isinstance(values, list) and value in values:
            found += [ToolCall(call.name, {**call.arguments, key: other}) for other in values if other != value]
    return found if len(found) <= MAX_PROBES else []


_DANGLING = re.compile(r"^(.*[\d)])\s*(?:\*\*|[-+*/^%])\s*$", re.DOTALL)  # "2 * 899 + 3 * 19.95**"


def cut_alternatives(call: ToolCall, spec: ToolSpec) -> list[ToolCall]:
    """The call with a free string that ends on an operator with nothing after it ("3 * 19.95**": the model
    closed the string mid-expression, compose28's ai07) cut before that operator."""
    found: list[ToolCall] = []
    for key, value, node in _arguments(call, spec):
        match = _DANGLING.match(value) if free_string(node) and isinstance(value, str) else None
        if match is not None:
            found.append(ToolCall(call.name, {**call.arguments, key: match.group(1).strip()}))
    return found


def word_alternatives(call: ToolCall, spec: ToolSpec, task: str, error: str) -> tuple[list[ToolCall], list[ToolCall]]:
    """The call with one free-string argument, a value of words only that the error names, changed in two tiers:
    to each shorter run of its own words, then to each content word or word pair of `task` (the value's own
    words say more about what was meant than the task's other items do). A tier is empty when the tool may have
    side effects, no argument qualifies, or it has more than MAX_WORD_PROBES alternatives."""
    own: list[ToolCall] = []
    asked: list[ToolCall] = []
    for key, value, node in _arguments(call, spec):
        if not (_word_value(node, value, error) or _quoted_number(node, value, error)):
            continue
        taken = {value.casefold()}
        for tier, words in ((own, [*_regular(value), *runs(value, shorter=True)]), (asked, runs(task, shorter=False))):
            for other in words:
                if other.casefold() not in taken:
                    taken.add(other.casefold())
                    tier.append(ToolCall(call.name, {**call.arguments, key: other}))
    own, asked = (tier if len(tier) <= MAX_WORD_PROBES else [] for tier in (own, asked))
    return own, asked


def _regular(value: str) -> list[str]:
    """The value with an irregular plural of its last word in the dictionary form ("mice" -> "mouse", "usb
    batteries" -> "usb battery"): a lookup that drops a plural "s" finds neither (compose28's ai07)."""
    words = WORDS.findall(value)
    found = irregular(words[-1]) if words else None
    return [] if found is None else [value[: value.rfind(words[-1])] + found]


def chosen(found: list[ToolCall], task: str = "") -> ToolCall | None:
    """The one alternative that worked; of several, the one whose values hold each other's as a run of their
    words ("desk lamp" over "desk" and "lamp": the most specific reading of what was written); else, given the
    `task` they came from, the one it names first (a placeholder for one of its items: each is to be fetched, and
    the first is the first step); else None."""
    widest = [c for c in found if all(_within(other, c) for other in found)]
    if len(widest) == 1 or not (task and found):
        return widest[0] if len(widest) == 1 else None
    return min(found, key=lambda c: (_position(c, task), -len(str(c.arguments))))


def _position(call: ToolCall, task: str) -> int:
    """Where the first of the call's string values shows in `task`; past its end when none does."""
    text = task.casefold()
    places = [text.find(v.casefold()) for v in call.arguments.values() if isinstance(v, str)]
    return min((p for p in places if p >= 0), default=len(text))


def _within(inner: ToolCall, outer: ToolCall) -> bool:
    """Every argument of `inner` is a run of whole words of the same argument of `outer`."""
    return all(
        re.search(rf"(?<!\w){re.escape(str(value))}(?!\w)", str(outer.arguments.get(key, "")), re.IGNORECASE)
        for key, value in inner.arguments.items()
    )


def item_alternatives(call: ToolCall, spec: ToolSpec, task: str, used: Collection[str]) -> list[ToolCall]:
    """A successful read-only call whose word argument came from the task, with that argument changed to each
    other content word or word pair of the task that shares no word with a `used` value: the items the task
    may still need from the same tool ("How much more does a laptop cost than a tablet?" after the laptop)."""
    taken = {_singular(word) for value in used for word in WORDS.findall(value)}
    found: list[ToolCall] = []
    for key, value, node in _arguments(call, spec):
        if not _word_value(node, value, task):
            continue
        for other in dict.fromkeys(runs(task, shorter=False)):
            if not {_singular(word) for word in WORDS.findall(other)} & taken:
                found.append(ToolCall(call.name, {**call.arguments, key: other}))
    return found if len(found) <= MAX_WORD_PROBES else []


def word_key(call: ToolCall, spec: ToolSpec, task: str) -> str | None:
    """The argument of a read-only call that holds a word of the task (`key="printer"`), if any."""
    return next((key for key, value, node in _arguments(call, spec) if _word_value(node, value, task)), None)


def _singular(word: str) -> str:
    """A word as used and as the task may write it: "keyboards" was used as "keyboard"."""
    return word.casefold().removesuffix("s")


def _arguments(call: ToolCall, spec: ToolSpec) -> list[tuple[str, Any, Any]]:
    """(name, value, schema node) of each argument; none for a tool that may have side effects (never probed)."""
    if not spec.read_only:
        return []
    properties: Any = bound_schema(spec.parameters).get("properties", {})
    nodes = properties if isinstance(properties, dict) else {}
    return [(key, value, nodes.get(key)) for key, value in call.arguments.items()]


def _word_value(node: Any, value: Any, text: str) -> bool:
    """A free string of words only, written out in `text`."""
    return free_string(node) and isinstance(value, str) and _named(value, text)


def _quoted_number(node: Any, value: Any, error: str) -> bool:
    """A free string that is a bare number the error quotes: a result pasted where a name belongs (`key="80"`
    after the calculator returned 80). Only the task's words can replace it."""
    if not (free_string(node) and isinstance(value, str)):
        return False
    return bool(BARE_NUMBER.fullmatch(value.strip())) and f"'{value}'" in error


def free_string(node: Any) -> bool:
    """A string schema that takes any text: no enum, const, pattern or format."""
    constrained = ("enum", "const", "pattern", "format")
    return isinstance(node, dict) and node.get("type") == "string" and not any(k in node for k in constrained)


def _named(value: str, text: str) -> bool:
    """A value of words only, written out in `text` (an error: the tool said this value was the problem; a
    task: the model took the value from it)."""
    spaced = value.replace("_", " ")  # an identifier of words ("headphones_price", compose17's o10) is words too
    words = WORDS.findall(spaced)
    return bool(words) and " ".join(words) == " ".join(spaced.split()) and value.strip().casefold() in text.casefold()


def runs(text: str, *, shorter: bool) -> list[str]:
    """Runs of words of `text` that start and end on a content word: all shorter ones of a value (`shorter`), or
    single words and adjacent pairs of a task (a pair only where no punctuation or digit sits between)."""
    spans = [(m.group(), m.start(), m.end()) for m in WORDS.finditer(text)]
    if shorter:
        n = len(spans)
        runs = [spans[i : j + 1] for i in range(n) for j in range(i, n) if j - i + 1 < n]
    else:
        pairs = [spans[i : i + 2] for i in range(len(spans) - 1) if text[spans[i][2] : spans[i + 1][1]] == " "]
        runs = [[s] for s in spans] + pairs
    content = [r for r in runs if r[0][0].casefold() not in FILLER and r[-1][0].casefold() not in FILLER]
    found = [text[r[0][1] : r[-1][2]] for r in content if len(r) > 1 or len(r[0][0]) > 2]
    return [_POSSESSIVE.sub("", run) for run in found]  # "a laptop's price": the item is "laptop"


async def outcomes(toolset: Any, ctx: RunContext[Any], candidates: list[ToolCall]) -> list[str | None]:
    """Each candidate's result as text, None where it failed, tried at once (read-only: their order cannot
    matter); all None when they do not all finish within PROBE_SECONDS, since one that did not answer might have
    been a second that works."""

    async def result(candidate: ToolCall) -> str | None:
        try:
            return format_result(await toolset.call_tool(candidate.name, candidate.arguments, ctx))
        except Exception:  # a failing alternative is simply not the one
            return None

    try:
        return list(await asyncio.wait_for(asyncio.gather(*(result(c) for c in candidates)), PROBE_SECONDS))
    except TimeoutError:
        return [None] * len(candidates)
