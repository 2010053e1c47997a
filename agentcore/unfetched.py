"""Items the task names that an offered read-only tool can fetch, when the answer's computation made up a number.

"What do 3 notebooks and 2 pens cost in total?" answered with `calculator("3 + 2 * 5")` = 13 (compose11's j07),
and "What is the price of a coffee mug multiplied by itself?" with `calculator("2 * 2")` (compose10's h13): one
number from nowhere, where the made-up check (`unfinished.made_up_steps`) wants two, since one number of the
model's own is often a constant it knows (60 minutes, 1000 grams). What tells the two apart is whether the task
names things a tool could look up. So when the answer is the result of a computation with one number from
nowhere, and no call has fetched anything yet, each offered read-only tool that takes one free string (and
enums) is tried with the task's content words and word pairs, as the probes do (`agentcore.probe`): the words
it accepts are items to fetch, and the made-up check fires on one number (`answer_checks.made_up_inputs`).
A tool that accepts any text (a word counter) names no item by accepting one: each tool choice is also tried
with a word no table holds (`CONTROL`), and one that accepts it is left out. (A share of the task's words
decided this before, and failed on short tasks, whose content words are all items: "How much for 4 notebooks
and 2 pens?", compose17's o07.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from agentcore.grounding import placeholders
from agentcore.lemmas import irregular
from agentcore.messages import ToolCall, ToolSpec
from agentcore.named import BLANK, blank_calls
from agentcore.probe import runs
from agentcore.run_reads import good_steps
from agentcore.unfinished import made_up

if TYPE_CHECKING:
    from agentcore.run_state import Run

Probe = Callable[[list[ToolCall]], Awaitable[list[str | None]]]  # each candidate's result, None where it failed
MAX_FETCH_PROBES = 48  # task words times a tool's table choices: more is a guess, not a lookup
# Finding which of the task's words are items at all tries more: nothing runs on a guess, and a user's task in
# their own voice is long. "I've only got a fifty on me. If I grab a USB cable and a coffee mug, how much change
# should I get?" has 20 content words and pairs, 63 probes over three tables with the control word; at 48 no item
# was found and the made-up `50 - 10` ran (independent1's ar14).
MAX_ITEM_PROBES = 128
CONTROL = "qzxv"  # a word no lookup holds: a tool that accepts it accepts anything


def one_made_up(run: Run, answer: str) -> bool:
    """The answer is the result of a call with exactly one number from nowhere, or with none (`counts_only`), and
    every call so far went to the tool that made it, none with values the probes fetched (nothing was fetched)."""
    settings = run.deps.settings
    if not settings.check_sources or run.final_only or settings.output_schema is not None or run.made_up_at:
        return False
    done = [step for step in good_steps(run) if step.call is not None]
    if not done or len({step.call.name for step in done if step.call is not None}) != 1:
        return False
    if any(step.call is not None and step.call.signature() in run.resolved for step in done):
        return False  # a probe fetched its values (agentcore.named)
    steps = [(step.call.arguments if step.call else {}, step.result or "") for step in done]
    if made_up(run.ctx.task, answer, steps)[0]:
        return False  # two or more: the made-up check fires without the probes
    return bool(counts_only(run.ctx.task, answer, steps))  # one number from nowhere, or none


def counts_only(task: str, answer: str, steps: list[tuple[Any, str]]) -> str:
    """The result the answer repeats, of a call whatever its inputs ("" for none): with none from nowhere, the
    task's own numbers alone, as "What would 3 backpacks and a webcam set me back?" answered with
    `calculator("3 + 1")` = 4, the counts added up without the prices (compose18's u07). Such a run goes back
    only where the task names items an offered tool can fetch (`unfetched_items`)."""
    return made_up(task, answer, steps, least=0)[1]


async def unfetched_items(run: Run, answer: str, probe: Probe) -> tuple[str, ...]:
    """The task's words that an offered read-only tool, other than the one used, accepts; () unless
    `one_made_up` holds. A tool choice that accepts `CONTROL` too names no item."""
    if not one_made_up(run, answer):
        return ()
    return await fetchable(run, {step.call.name for step in good_steps(run) if step.call is not None}, probe)


async def fetchable(run: Run, used: set[str], probe: Probe) -> tuple[str, ...]:
    """The task's words that an offered read-only tool not in `used` accepts; a tool choice that accepts
    `CONTROL` too names no item."""
    words = [word for word in task_words(run.ctx.task) if word != CONTROL]
    templates = [call for spec in run.specs if spec.name not in used for call, _ in blank_calls(spec)]
    tried = [CONTROL, *words]
    candidates = [
        (index, word, _with_word(template, word)) for index, template in enumerate(templates) for word in tried
    ]
    if not words or len(candidates) > MAX_ITEM_PROBES:
        return ()
    results = await probe([candidate for _, _, candidate in candidates])
    lenient = {
        index
        for (index, word, _), result in zip(candidates, results, strict=True)
        if word == CONTROL and result is not None
    }
    worked = [
        word
        for (index, word, _), result in zip(candidates, results, strict=True)
        if result is not None and word != CONTROL and index not in lenient
    ]
    return tuple(dict.fromkeys(worked))


def placeholder_alternatives(call: ToolCall, spec: ToolSpec, task: str, results: Sequence[str]) -> list[ToolCall]:
    """A failed read-only call whose word argument the model copied from the tool's docs (`key="product -> price in
    dollars"`, `table="capitals", key="country -> capital"`: grounding.placeholders): the tool's table choices
    times the task's content words, for the probes to try; the one the task names first of those that work runs
    (`probe.chosen`). [] when there are more than MAX_FETCH_PROBES."""
    if not placeholders(call.arguments, spec.description, spec.parameters, task, results):
        return []
    words = task_words(task)
    candidates = [_with_word(template, word) for template, _ in blank_calls(spec) for word in words]
    return candidates if len(candidates) <= MAX_FETCH_PROBES else []


def task_words(task: str) -> list[str]:
    """The task's content words and word pairs (`probe.runs`), each single word followed by its lemma where a
    lookup that drops a plural "s" would miss it: "mice", then "mouse" (compose19's a07)."""
    found = []
    for word in runs(task, shorter=False):
        found.append(word)
        form = irregular(word) if " " not in word else None
        if form:
            found.append(form)
    return list(dict.fromkeys(found))


def _with_word(template: ToolCall, word: str) -> ToolCall:
    return ToolCall(template.name, {k: word if v == BLANK else v for k, v in template.arguments.items()})
