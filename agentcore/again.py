"""The same action again, on the task's other values: "the hypotenuse for sides 3 and 4, 5 and 12", "check my
loan at HSBC for $500,000 ... and at Wells Fargo for $700,000". One request asks for one tool several times.

The unfinished check (`agentcore.answer_checks.unfinished_check`) was built for chains, where a result is a
value the next step computes with ("Call a tool for the next step with 8.05 and 3"). An action's result is a
status ("done", "ok", {"status": "booked"}) with no value in it; told to compute "with done and 5 and 12", and
after a repeat to "call a different tool", the 0.5B answered instead (BFCL's parallel dev split, parallel_10).
Here the notice names the tool again with the numbers (or listed words) still to use, and, where the task's text
says how, writes that call out (`agentcore.again_call`). It runs under `Agent.check_unfinished`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentcore import prompting
from agentcore.again_call import Again, next_call, numeric, task_texts
from agentcore.grounding import mentions, parallel_unused
from agentcore.messages import ToolSpec
from agentcore.named_rest import named_rest
from agentcore.run_reads import candidates, good_steps, unused_task_numbers, used_text
from agentcore.unfinished import leaves, values_in

if TYPE_CHECKING:
    from agentcore.result import Step
    from agentcore.run_state import Run

STATUS_CHARS = 80  # a longer result without a number is text to read, not a status
MAX_AGAIN = 4  # notices per run: one request seldom asks for more than five calls (BFCL's most is 5)
_WORD = re.compile(r"[a-z]+")
_TOKEN = re.compile(r"[a-z0-9]+")  # a digit makes a token no status word
_STATUS_WORDS = frozenset((
    "done", "ok", "okay", "success", "successful", "successfully", "true", "yes", "complete", "sent", "set",
    "status", "result", "none", "null", "is", "was", "has", "been", "all", "now",
))  # fmt: skip
_NEAR = 4  # words before a number that say what it is ("a diameter of 10")


def is_status(result: str) -> bool:
    """A short result of status words only ("done", "Booked successfully", {"status": "ok"}): what an action
    returns, not a value to go on with. A word result is a value ("amiL" reversed, "Lima" looked up)."""
    text = result.strip()
    words = _TOKEN.findall(text.lower())
    # or a word ending in "ed": logged, booked, added
    return bool(words) and len(text) <= STATUS_CHARS and all(w in _STATUS_WORDS or w.endswith("ed") for w in words)


def again(task: str, steps: Sequence[Step], pending: Sequence[str], specs: Sequence[ToolSpec]) -> Again | None:
    """What to call for the task's numbers still to use (`pending`), when the last good step returned a status
    and its call took at least one of the task's numbers; else None (a chain's step, or no numbers to go on)."""
    last = steps[-1] if steps else None
    pending = [number for number in pending if not _unit_power(task, number)]
    if last is None or last.call is None or not pending or not is_status(last.result or ""):
        return None
    given = values_in(task)
    took = [(key, value) for key, value in numeric(last.call.arguments) if round(abs(value), 12) in given]
    if not took:
        return None
    tool = _tool_for(task, pending, last.call.name, specs)
    call = next_call(task, last.call, took, pending) if tool == last.call.name else None
    texts = tuple(task_texts(task, last.call).values()) if tool == last.call.name and call is None else ()
    return Again(tool, tuple(pending), tuple(_plain(v) for _, v in took), last.result or "", call, texts)


def again_check(run: Run, answer: str) -> bool:
    """An answer after a status result while the task still has numbers no call took: the action is still to do
    on them. Up to MAX_AGAIN times, each after a new good call; the next turn must call a tool."""
    plan = _plan(run)
    if plan is None:
        return False
    run.notice("final answer after a status result while the task has numbers no call took", numbers=plan.numbers)
    run.messages.append(prompting.again_notice(run.ctx.task, plan))
    run.forced = frozenset(spec.name for spec in run.specs)
    return True


def again_after_repeat(run: Run) -> bool:
    """The last call made again, unchanged, after a status result while the task still has numbers no call took:
    the tool stays offered (a repeat takes it out of the next turn) and the notice names those numbers."""
    plan = _plan(run, repeat=True)
    if plan is None:
        return False
    run.notice("repeated a call after a status result; the task has numbers no call took", numbers=plan.numbers)
    run.messages.append(prompting.again_notice(run.ctx.task, plan, repeat=True))
    return True


def _plan(run: Run, *, repeat: bool = False) -> Again | None:
    """The again plan, counted, when the run may still get one: not answer-only, fewer than MAX_AGAIN sent, and
    a good call since the last (each notice is for a new status), unless the model just repeated that call."""
    done = good_steps(run)
    settings = run.deps.settings
    if run.final_only or not settings.check_unfinished or run.again_sent >= MAX_AGAIN:
        return None
    if len(done) <= run.again_at and not repeat:
        return None
    plan = again(run.ctx.task, done, unused_task_numbers(run), run.specs) or _again_words(run, done)
    if plan is not None:
        run.again_sent, run.again_at = run.again_sent + 1, len(done)
    return plan


def _again_words(run: Run, done: Sequence[Step]) -> Again | None:
    """The same for the task's words: "the weather in Boston and San Francisco" after Boston, when the last call
    took one of the task's words and another that no call took stands where it stands (`grounding.parallel_unused`),
    and the task names no other tool still to call (agentcore.named_rest)."""
    last = done[-1]
    if last.call is None or not is_status(last.result or ""):
        return None
    calls = [step.call for step in done if step.call is not None]
    if named_rest(run.ctx.task, run.specs, calls):  # "the Battle of Waterloo and the Treaty of Tordesillas":
        return None  # the words left are for the tool the task names next (treaty_info), not this one again
    given = [v for v in leaves(last.call.arguments) if isinstance(v, str)]
    # a value the call took as the task writes it is a word of the task, even where the docs use it too ("Python"
    # beside "Note that the provided function is in Python 3 syntax": "for Python and Java" was left at Python)
    words = list(dict.fromkeys([*candidates(run), *(v.lower() for v in given if mentions(run.ctx.task, v))]))
    took = [w for w in words if any(mentions(v, w) for v in given)]
    # beside a word this call took, not an earlier one's: "the Battle of Waterloo and the signing of the Treaty of
    # Tordesillas" has "signing" beside the battle, which is no treaty to look up again
    still = parallel_unused(run.ctx.task, words, " ".join(given)) if took else []
    used = used_text(run)
    still = [_as_written(run.ctx.task, w) for w in still if w not in run.unfetchable and not mentions(used, w)]
    took = [_as_written(run.ctx.task, w) for w in took]
    return Again(last.call.name, tuple(still), tuple(took), last.result or "", texts=tuple(took)) if still else None


def _as_written(task: str, word: str) -> str:
    """`word` in the task's own case ("San Francisco", not the candidates' "san francisco"): the model copies it."""
    found = re.search(rf"(?<!\w){re.escape(word)}", task, re.IGNORECASE)
    return found.group(0) if found else word


def _unit_power(task: str, number: str) -> bool:
    """Whether every place the task writes `number` is a unit's power: the 2 of "5 m/s^2" is no value to use
    (parallel_multiple_8 of BFCL's dev split was sent to call again with 2)."""
    places = list(re.finditer(rf"(?<![\w.]){re.escape(number)}(?![\d])", task))
    return bool(places) and all(re.search(r"[A-Za-z]\^$", task[: m.start()]) for m in places)


def _tool_for(task: str, pending: Sequence[str], last: str, specs: Sequence[ToolSpec]) -> str:
    """The last call's tool, unless the words just before the first pending number name a parameter of one other
    tool only ("and the circumference of a circle with a diameter of 10" after the area: `diameter`)."""
    near = _words_before(task, pending[0])
    fits = [s.name for s in specs if near & _parameter_words(s)]
    return fits[0] if len(fits) == 1 and fits[0] != last else last


def _words_before(task: str, number: str) -> set[str]:
    at = re.search(rf"(?<![\w.]){re.escape(number)}(?![\d])", task.replace(",", ""))
    if at is None:
        return set()
    return set(_WORD.findall(task.replace(",", "")[: at.start()].lower())[-_NEAR:])


def _parameter_words(spec: ToolSpec) -> set[str]:
    names = spec.parameters.get("properties", {})
    return {word for name in names for word in _WORD.findall(name.lower()) if len(word) > 2}


def _plain(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)
