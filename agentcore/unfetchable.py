"""Words the unfinished check would send the model to fetch, that the tool which fetched the task's items rejects.

The unfinished check names the task's words that stand where a fetched item stands (`grounding.parallel_unused`:
"3 monitors and 2 keyboards" after the monitors names keyboards). Read from the wording alone, that also names
words that are no item: "find the price of the printer and work out what 15 of them would cost" named "work",
and "the tablet's list price with 18.50 added on top" named "tablet bundle" (independent5's bx05, bx12). Told
"Call a tool for work next", the model looked the printer up again and answered its price. The tool that fetched
an item is read-only, so each such word is tried in place of that call's word argument, as the probes do
(`agentcore.probe`): a word it rejects is no item, and the notice names the numbers still to use instead. A tool
that also accepts a word no table holds (`unfetched.CONTROL`) rejects nothing, and every word stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore.lemmas import irregular
from agentcore.messages import ToolCall
from agentcore.probe import MAX_WORD_PROBES, word_key
from agentcore.run_reads import good_steps, listed_unused
from agentcore.unfetched import CONTROL, Probe

if TYPE_CHECKING:
    from agentcore.run_state import Run


async def unfetchable_words(run: Run, probe: Probe) -> tuple[str, ...]:
    """The listed words still unused (`run_reads.listed_unused`) that the last read-only call with a word of the
    task rejects in that word's place; () when it accepts `CONTROL` or no such call ran."""
    settings = run.deps.settings
    if run.final_only or not settings.check_unfinished or len(run.unfinished_results) >= 2:
        return run.unfetchable  # the unfinished check, which names the words, is off or spent
    words = [word for word in listed_unused(run) if word not in run.unfetchable]
    if not words or 2 * len(words) > MAX_WORD_PROBES:
        return run.unfetchable
    specs = {spec.name: spec for spec in run.specs}
    for step in reversed(good_steps(run)):
        spec = specs.get(step.call.name) if step.call is not None else None
        if step.call is None or spec is None:
            continue
        key = word_key(step.call, spec, run.ctx.task)
        if key is None:
            continue
        forms = [(word, form) for word in words for form in _forms(word)]
        tried = [CONTROL, *(form for _, form in forms)]
        results = await probe([ToolCall(step.call.name, {**step.call.arguments, key: form}) for form in tried])
        if results[0] is not None:
            return run.unfetchable  # takes any text: accepting or rejecting a word tells nothing
        found = {word for (word, _), result in zip(forms, results[1:], strict=True) if result is not None}
        return (*run.unfetchable, *(word for word in words if word not in found))
    return run.unfetchable


def _forms(word: str) -> list[str]:
    """The word, and its last word in the singular: a tool keyed by "chair" rejects "chairs" and holds the item."""
    *head, last = word.split()
    singular = irregular(last) or (last[:-1] if last.lower().endswith("s") and len(last) > 3 else None)
    return [word] if singular is None else [word, " ".join([*head, singular])]
