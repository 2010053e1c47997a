"""The explicit steps of a task ("look up X, then multiply it by 3"), so the loop can track a chain.

Measured on Qwen2.5-Coder-0.5B (12 chained tasks of bench/tasks/chain.jsonl): a small model stops one step early
(it answers with the lookup instead of multiplying it) or jumps to the last step first (`calculator("3 *
laptop_price")`). When the loop knows the task's steps it can name the current one and, once the first step
ran, refuse a final answer while steps remain (before it the model may still answer: "then" in a story).
Only steps the user wrote out are used: splitting is deterministic and cannot invent work. A task splits at
"then", and at "and" or a comma when an instruction verb follows ("look up the price of a tablet and multiply
it by 4", "convert 10 feet to meters, convert 5 yards to meters, and add the two lengths"): "3 monitors and 2
keyboards" joins nouns, not steps. Quoted text is material, never split. A task without such markers has no
plan and the loop behaves as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentcore.unfinished import argument_numbers, numbers_in, open_results

# ", then", "; then", "and then", ". Then": the ways people chain instructions in one sentence.
_THEN = re.compile(r"\s*(?:[,;]\s*(?:and\s+)?|\.\s+|\s+and\s+)then\b[,:]?\s*", re.IGNORECASE)
# The step itself is the last sentence of its part: "What do 3 laptops cost? Look up the price" -> "Look up...".
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
_CONDITION = re.compile(r"(?:if|when|whenever|unless|once)\b", re.IGNORECASE)
MAX_STEPS = 6
# Verbs that open an instruction a tool carries out: lookups, arithmetic, text and file operations. A general
# lexicon of imperatives, not the benchmark's phrasings.
STEP_VERBS = frozenset(
    [
        "add",
        "append",
        "calculate",
        "check",
        "compute",
        "convert",
        "copy",
        "count",
        "cube",
        "decrease",
        "deduct",
        "delete",
        "divide",
        "double",
        "download",
        "email",
        "extract",
        "fetch",
        "find",
        "format",
        "get",
        "halve",
        "increase",
        "list",
        "load",
        "look",
        "merge",
        "move",
        "multiply",
        "open",
        "post",
        "print",
        "quadruple",
        "query",
        "read",
        "reduce",
        "remove",
        "rename",
        "replace",
        "reverse",
        "round",
        "save",
        "schedule",
        "search",
        "send",
        "sort",
        "split",
        "square",
        "store",
        "subtract",
        "sum",
        "summarise",
        "summarize",
        "take",
        "total",
        "translate",
        "triple",
        "upload",
        "write",
    ]
)
# The verbs of arithmetic: a step that opens with one is a calculator's, with no number ("double it") too.
ARITHMETIC_VERBS = frozenset({
    "add", "calculate", "compute", "cube", "decrease", "deduct", "divide", "double", "halve", "increase", "multiply",
    "quadruple", "reduce", "round", "square", "subtract", "sum", "total", "triple",
})  # fmt: skip
_AND_VERB = re.compile(
    r"\s*,\s*(?:and\s+)?(?=(?:%s)\b)|\s+and\s+(?=(?:%s)\b)" % (("|".join(sorted(STEP_VERBS)),) * 2),
    re.IGNORECASE,
)
# Quoted material: 'a b and c' is one argument. Apostrophes inside words ("tablet's") are not quotes.
_QUOTED = re.compile(r"(?<!\w)'[^']*'(?!\w)|\"[^\"]*\"")


def split_steps(task: str, fits: Callable[[str], bool] | None = None) -> tuple[str, ...]:
    """The task's explicit steps, in order; () when it has fewer than two (or an implausible number). With
    `fits` (whether an offered tool's docs share a word with a text), a step no tool does joins the next
    (`_toolless_joined`)."""
    masked, quotes = _mask_quotes(task.strip())
    parts = [clause.strip() for part in _THEN.split(masked) for clause in _and_clauses(part)]
    parts = _given_joined([_unmask(part, quotes) for part in parts])
    if len(parts) < 2 or len(parts) > MAX_STEPS or not all(parts):
        return ()
    steps = [_SENTENCE_END.split(part)[-1] if index == 0 else part for index, part in enumerate(parts)]
    if _CONDITION.match(steps[0]):
        return ()  # "If it rains, then take an umbrella" is one conditional step, not a chain
    steps = _toolless_joined(steps, fits) if fits is not None else steps
    return tuple(step.rstrip(" .") for step in steps) if len(steps) > 1 else ()


def _toolless_joined(steps: list[str], fits: Callable[[str], bool]) -> list[str]:
    """Each step that no tool does joined to the next, which a tool does: "write them on one line separated by
    spaces, count the words in that line" is one call of `word_count`. As its own step, the model was sent on to
    "write them on one line" with the symbols C, H and O and multiplied them (independent14's cg24). A step no
    tool does brings no number or quote, opens with no verb of arithmetic, and shares no word with any offered
    tool's docs. Never the first step: it works on the task's own items, and "Look up what a monitor costs" shares
    no word with a lookup of "prices" (independent8's ca01 and fourteen tasks of the fresh sets lost their plan)."""
    joined: list[str] = []
    for step in steps:
        if len(joined) > 1 and not _done_by_tool(joined[-1], fits) and _done_by_tool(step, fits):
            joined[-1] = f"{joined[-1].rstrip(' .')}, {step}"
        else:
            joined.append(step)
    return joined


def _done_by_tool(step: str, fits: Callable[[str], bool]) -> bool:
    first = re.match(r"\s*([A-Za-z]+)", step)
    verb = first.group(1).lower() if first else ""
    return bool(numbers_in(step)) or bool(_QUOTED.search(step)) or verb in ARITHMETIC_VERBS or fits(step)


# "Take 40 °C", "Start with 12 kg": a value given, not a step a tool carries out. It opens the next step.
_GIVEN = re.compile(r"^(?:take|start with|begin with)\s+\d+(?:\.\d+)?\s*(?:°\s*[a-z]*|[a-z]+)$", re.IGNORECASE)


def _given_joined(parts: list[str]) -> list[str]:
    """The parts, each that only gives a value joined to the step after it: "Take 40 °C, convert it to Fahrenheit,
    add 10, ..." had made the conversion the plan's second step, so every step after it came one call late
    (independent1's ar21)."""
    joined: list[str] = []
    for part in parts:
        if joined and _gives_a_value(joined[-1].strip()):
            joined[-1] = f"{joined[-1]}, {part}"
        else:
            joined.append(part)
    return joined


def _gives_a_value(part: str) -> bool:
    """A quantity with its unit ("Take 40 °C", "Start with 12 kg"); "take 10" alone is a subtraction."""
    match = _GIVEN.match(part)
    if match is None:
        return False
    if "°" in part:
        return True
    from agentcore.unit_names import is_unit  # pint, only for a task that opens this way

    return is_unit(part.rsplit(maxsplit=1)[-1])


def _and_clauses(part: str) -> list[str]:
    """A "then" part split where "and" or a comma opens a new instruction; only in its last sentence (an earlier
    sentence is context: "A tablet costs more. Look up ...")."""
    head, _, last = part.rpartition(". ")
    clauses = _AND_VERB.split(last)
    if len(clauses) == 1:
        return [part]
    if head:
        clauses[0] = f"{head}. {clauses[0]}"
    return clauses


def _mask_quotes(text: str) -> tuple[str, list[str]]:
    quotes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        quotes.append(match.group())
        return f"\x00{len(quotes) - 1}\x00"

    return _QUOTED.sub(keep, text), quotes


def _unmask(text: str, quotes: list[str]) -> str:
    return re.sub("\x00(\\d+)\x00", lambda m: quotes[int(m.group(1))], text)


@dataclass(slots=True)
class StepPlan:
    """Progress through a task's explicit steps: one successful tool call completes one step."""

    steps: tuple[str, ...]
    done: int = 0
    results: list[str] = field(default_factory=list)  # the result of each completed step
    calls: list[tuple[Any, str]] = field(default_factory=list)  # (arguments, result) of each call that advanced
    fetching: bool = False  # the current step names an item to fetch first: that call does not complete it
    waiting: bool = False  # the last call fetched one of the current step's items, and it names more still

    @property
    def open_results(self) -> list[str]:
        """The results no later call took as an input, in order, once each: those the next step may use. The
        desk lamp's 32.4 went into `32.4 * 3`, so "add the price of a usb cable" gets 97.2 alone (with both, the
        model added them). A result with no number is always open."""
        return list(dict.fromkeys(open_results(self.calls, words=True)))

    @classmethod
    def of(cls, task: str, fits: Callable[[str], bool] | None = None) -> StepPlan:
        return cls(split_steps(task, fits))

    @property
    def active(self) -> bool:
        return bool(self.steps)

    @property
    def remaining(self) -> int:
        return max(0, len(self.steps) - self.done)

    @property
    def current(self) -> str | None:
        return self.steps[self.done] if self.remaining else None

    def advance(self, result: str, arguments: Any = None, *, items_left: bool = False) -> None:
        """A successful call completes the current step, and with it each next step whose own numbers all went
        into that call and are none of the steps' it already covers: "multiply the count by 3, and subtract 5"
        done as one `11 * 3 - 5` (the plan then wanted a call for "subtract 5" and got `11 - 5`). Not where the
        call fetched one of the step's items and `items_left`: "look up the symbols for carbon, hydrogen and
        oxygen" is not done by carbon's."""
        if self.done >= len(self.steps):
            return
        self.calls.append((arguments, result))
        self.waiting = items_left
        if items_left:
            return
        if self.fetching:  # "add the price of a usb cable": the lookup gets the price, the step is the sum
            self.fetching = False
            return
        used = {round(v, 9) for v in argument_numbers(arguments)}
        covered: set[float] = set()
        while True:
            covered |= {round(v, 9) for v in numbers_in(self.steps[self.done])}
            self.done += 1
            self.results.append(result)
            if self.done >= len(self.steps):
                return
            wanted = {round(v, 9) for v in numbers_in(self.steps[self.done])}
            if not wanted or not wanted <= used or wanted & covered:
                return
