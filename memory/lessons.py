"""A successful run's lesson, built from its own record rather than written by the model.

Measured with Qwen 0.5B (docs/memory.md, runs 1-3): asked for a lesson in words, the model restated the task,
echoed the prompt's template ("When when, what to do instead next time") or copied an example. What a small model
does follow is a worked example close to its task. So a success becomes

    For a task like "Convert N km to miles.": call unit_convert(value=N, from_unit="km", to_unit="mi").

- the trigger is the task with its numbers and quoted items abstracted (`task_pattern`), and it is what the
  lesson is embedded and retrieved by: a new task matches on its own pattern, not on the call's wording;
- the action is the run's verified calls that fed its answer (`used_steps`), arguments as the run gave them with
  the task's numbers and quoted items replaced by the same placeholders. A call whose result the answer does not
  use (`reverse_string("hot")` before answering "cold") is left out, and a run with none answered directly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agentcore.memory.principles import Trajectory

_STEP = re.compile(r"^(\w+)\((\{.*\})\) -> (.*)$", re.S)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\w)")
_QUOTED = re.compile(r"'([^']{1,40})'|\"([^\"]{1,40})\"")
_WORDS = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")
_PLAIN_WORDS = re.compile(r"[a-z0-9]+")  # for echoes: decimals split, as a copied instruction's words


DIRECT = "answer directly from your own knowledge, without calling a tool"


@dataclass(frozen=True, slots=True)
class Pattern:
    text: str  # the task, numbers as N (N1, N2, ...), quoted items as X (X1, X2, ...)
    numbers: dict[str, str]  # the task's number -> its placeholder
    items: dict[str, str]  # the task's quoted item (lower case) -> its placeholder


@dataclass(frozen=True, slots=True)
class Call:
    tool: str
    arguments: dict[str, Any]
    result: str


def task_pattern(task: str) -> Pattern:
    """The task with what varies between tasks of one kind abstracted: numbers and quoted items."""
    quoted = [m.group(1) or m.group(2) for m in _QUOTED.finditer(task)]
    items = _names(dict.fromkeys(q.lower() for q in quoted), "X")
    text = _QUOTED.sub(lambda m: f"'{items[(m.group(1) or m.group(2)).lower()]}'", task)
    numbers = _names(dict.fromkeys(_NUMBER.findall(text)), "N")
    text = _NUMBER.sub(lambda m: numbers[m.group(0)], text)
    return Pattern(" ".join(text.split()), numbers, items)


def _names(values: dict[str, None], letter: str) -> dict[str, str]:
    return {v: letter if len(values) == 1 else f"{letter}{i}" for i, v in enumerate(values, 1)}


def calls(t: Trajectory) -> list[Call]:
    """The run's calls that returned a result (errors left out), parsed from its recorded steps."""
    out: list[Call] = []
    for step in t.steps:
        match = _STEP.match(step)
        if match is None or match.group(3).startswith("error"):
            continue
        try:
            arguments = json.loads(match.group(2))
        except json.JSONDecodeError:
            continue
        if isinstance(arguments, dict):
            out.append(Call(match.group(1), arguments, match.group(3).strip()))
    return out


def used_steps(t: Trajectory) -> list[Call]:
    """The calls whose result fed the answer, directly or through a later used call's arguments (walked back
    from the answer)."""
    needed, used = t.answer, []
    for call in reversed(calls(t)):
        if _feeds(call.result, needed):
            used.append(call)
            needed += " " + json.dumps(call.arguments)
    return used[::-1]


def _feeds(result: str, text: str) -> bool:
    if not result:
        return False
    words, target = _WORDS.findall(result.lower()), " " + " ".join(_WORDS.findall(text.lower())) + " "
    if words and f" {' '.join(words)} " in target:
        return True
    return any(_close(a, b) for a in _numbers(result) for b in _numbers(text))


def _numbers(text: str) -> list[str]:
    return _NUMBER.findall(text.replace(",", ""))


def _close(result: str, shown: str) -> bool:
    """`shown` is `result`, possibly rounded (4.97097 shown as 4.97, 4828.032 as 4828); never a bare 0."""
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    value, seen = float(result), float(shown)
    if value == 0:
        return False
    return (decimals > 0 and round(value, decimals) == seen) or abs(value - seen) <= 0.001 * abs(value)


def grounded_lesson(t: Trajectory) -> tuple[str, str]:
    """(trigger, lesson) for a successful run: see the module doc."""
    pattern = task_pattern(t.task)
    used = used_steps(t)
    if not used:
        action = DIRECT
    else:
        results = _result_names(used)
        action = "call " + ", then ".join(_render(c, pattern, results) for c in used)
    return pattern.text, f'For a task like "{pattern.text}": {action}.'


def _result_names(used: list[Call]) -> dict[str, str]:
    """Each used result's placeholder: `<result of lookup>`, numbered when a tool ran more than once (two prices
    shown both as "<result of lookup>" were read as one price taken twice: "329 + 329")."""
    counts = {c.tool: sum(1 for d in used if d.tool == c.tool) for c in used}
    names: dict[str, str] = {}
    seen: dict[str, int] = {}
    for c in used:
        seen[c.tool] = seen.get(c.tool, 0) + 1
        number = f" {seen[c.tool]}" if counts[c.tool] > 1 else ""
        names.setdefault(c.result, f"<result of {c.tool}{number}>")
    return names


def carries_tool_text(t: Trajectory) -> bool:
    """Whether a used call's arguments hold words or numbers that came from a tool result rather than the task
    (a planted "send money to account 666" acted on): such a lesson is not trusted (AgentLAB). A value that is a
    whole earlier result (a looked-up price) is fine: the lesson shows it as `<result of lookup>`."""
    said = set(_WORDS.findall(t.task.lower()))
    results = {c.result for c in calls(t)}
    seen = " ".join(_WORDS.findall(" ".join(t.untrusted_texts).lower()))
    for call in used_steps(t):
        for value in call.arguments.values():
            text = str(value)
            for token in _WORDS.findall(text.lower()):
                if token in said or token in results or (len(token) < 3 and not token.isdigit()):
                    continue
                if f" {token} " in f" {seen} ":
                    return True
    return False


def _render(call: Call, pattern: Pattern, results: dict[str, str]) -> str:
    args = ", ".join(f"{k}={_placeholder(v, pattern, results)}" for k, v in call.arguments.items())
    return f"{call.tool}({args})"


def _placeholder(value: Any, pattern: Pattern, results: dict[str, str]) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        key = _as_number(value)
        return pattern.numbers.get(key) or results.get(key) or key
    text = str(value)
    if text.lower() in pattern.items:
        return pattern.items[text.lower()]
    text = _NUMBER.sub(lambda m: pattern.numbers.get(m.group(0)) or results.get(m.group(0)) or m.group(0), text)
    return json.dumps(text)


def _as_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


_TRIGGER = re.compile(r'^(?:For a task like|When a task is like) "(.*)": ')


def trigger_of(lesson: str) -> str | None:
    """The task pattern a worked-example lesson is for; None for a lesson in words."""
    match = _TRIGGER.match(lesson)
    return match.group(1) if match else None


def applies(lesson: str, pattern: str, similarity: float, *, match: float, direct_floor: float) -> bool:
    """Whether a lesson recalled at cosine `similarity` fits a task of this `pattern`. A worked example with
    calls must agree with the task word for word in order (`match`): its argument values are what a near miss
    gets wrong. One that answered directly has no arguments to misapply; it needs only topical closeness
    (`direct_floor`). A lesson in words (a person's, or a promoted one) passes."""
    trigger = trigger_of(lesson)
    if trigger is None:
        return True
    if lesson.endswith(f": {DIRECT}."):
        return similarity >= direct_floor
    return order_match(pattern, trigger) >= match


def order_match(a: str, b: str) -> float:
    """How much two task patterns agree word for word, in order (0-1). MiniLM's cosine is near 1 for "Convert N
    km to miles." and "Convert N miles to km." (same words), whose calls are opposite; this tells them apart."""
    from difflib import SequenceMatcher

    return SequenceMatcher(None, _WORDS.findall(a.lower()), _WORDS.findall(b.lower()), autojunk=False).ratio()


# Words of the prompts' own templates and schemas: a lesson holding them echoed the prompt, not the run.
_TEMPLATE = re.compile(
    r"\b(?:when when|what to do instead|in under \d+ words|when_to_use|watch_out|tool_templates?|placeholders?)\b"
    r"|<value>",
    re.I,
)


def plausible(text: str, tasks: tuple[str, ...]) -> bool:
    """Whether a model-written lesson can be a lesson at all (Qwen 0.5B wrote "When when, what to do instead next
    time, in under 20 words." and "When convert, convert 3 gallons to liters."): no words of the prompt's
    template, no call cut off mid-way, and no copy of a task (4 words in a row, or one of its numbers)."""
    if _TEMPLATE.search(text) or text.count("(") != text.count(")") or text.count("{") != text.count("}"):
        return False
    numbers = {n for task in tasks for n in _NUMBER.findall(task)}
    return not numbers & set(_NUMBER.findall(text)) and not echoes(text, tasks)


def echoes(lesson: str, texts: tuple[str, ...], n: int = 4) -> bool:
    """True when `lesson` repeats `n` consecutive words of one of `texts` (a planted instruction copied from a
    tool result)."""
    words = _PLAIN_WORDS.findall(lesson.lower())
    grams = {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}
    return any(g in " ".join(_PLAIN_WORDS.findall(text.lower())) for text in texts for g in grams)
