"""An answer that restates a result the run has since moved past.

When the model can no longer be sent back (only a final answer is offered: after repeated calls, or on the last
turn `max_steps` allows), a 0.5B model often answers with an earlier number rather than the run's last result:
"What is the price of a monitor after taking off a fifth of it?" answered 215 after `215 - 43` = 172 (compose
f15), or "4 coffee mugs and a keyboard" answered with the `4 + 1000` it made up before looking up both prices and
computing 74.9 (f07). The earlier number is superseded when the last call took it as an input, or when it came
from a call on made-up inputs; the last call's result, which nothing took yet, is then the run's answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from agentcore.run_reads import good_steps
from agentcore.unfinished import (
    BARE_NUMBER,
    argument_values,
    made_up_steps,
    numbers_in,
    repeats_result,
    values_in,
)

if TYPE_CHECKING:
    from agentcore.run_state import Run

_ONE_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def last_result_instead(
    task: str, answer: str, steps: Sequence[tuple[Any, str]], made_up: Collection[int]
) -> str | None:
    """The answer with its one number written as the last step's result when the answer restates an earlier step's
    result that the last call took as an input or that a call on made-up inputs (`made_up`: step indices) gave,
    while the last step's result is one number, not made up, new (no earlier call took it) and not what the answer
    says; None otherwise."""
    if len(steps) < 2 or len(steps) - 1 in made_up:
        return None
    last = steps[-1][1].strip()
    if not BARE_NUMBER.fullmatch(last) or repeats_result(task, answer, last) or len(numbers_in(answer)) != 1:
        return None
    if any(values_in(last) & argument_values(arguments) for arguments, _ in steps[:-1]):
        return None  # the last result was an input already (a price fetched again): the run moved nowhere
    taken = argument_values(steps[-1][0])
    for index, (_, result) in enumerate(steps[:-1]):
        if repeats_result(task, answer, result) and (values_in(result) & taken or index in made_up):
            return _ONE_NUMBER.sub(last, answer.strip(), count=1)
    return None


# A question that names things to choose between ("Which costs more ...?", "Is a laptop dearer ...?"): its answer may
# quote a price a calculation took, and be right.
_CHOICE = re.compile(r"\bwhich\b|^\s*(?:is|are|does|do|can|was|were)\b", re.IGNORECASE)


def taken_result_instead(
    task: str, answer: str, steps: Sequence[tuple[Any, str]], made_up: Collection[int]
) -> str | None:
    """The answer with its one number written as the result of the one calculation that took it, when the answer
    restates a step's result, a later or earlier call (not on made-up inputs) took that number, and nothing took
    that call's result. A call can take a value before the step that returned it does (its names read from a probe,
    or the value from the model's memory): "a usb cable's price times the same usb cable price" ran `8.75 * 8.75`,
    looked the cable up, and answered 8.75 (compose31's al15, held out). Repeated steps count once."""
    number = numbers_in(answer)
    if len(number) != 1 or _CHOICE.search(task):
        return None
    distinct = _once_each([step for i, step in enumerate(steps) if i not in made_up])
    if not any(repeats_result(task, answer, result) for _, result in distinct):
        return None
    taking = {
        result.strip()
        for i, (arguments, result) in enumerate(distinct)
        if number[0] in argument_values(arguments)
        and BARE_NUMBER.fullmatch(result.strip())
        and not repeats_result(task, answer, result)
        and not any(values_in(result) & argument_values(other) for j, (other, _) in enumerate(distinct) if j != i)
    }
    return _ONE_NUMBER.sub(taking.pop(), answer.strip(), count=1) if len(taking) == 1 else None


def _once_each(steps: Sequence[tuple[Any, str]]) -> list[tuple[Any, str]]:
    seen: set[str] = set()
    kept = []
    for arguments, result in steps:
        key = json.dumps(arguments, sort_keys=True, default=str) + result
        if key not in seen:
            seen.add(key)
            kept.append((arguments, result))
    return kept


def answer_moved_past(run: Run, answer: str) -> str | None:
    """With only an answer offered, one that restates a result the run has since moved past is answered with that
    later result (`last_result_instead`, else `taken_result_instead`), with a notice; None otherwise."""
    if not run.final_only or not run.deps.settings.check_unfinished or run.deps.settings.output_schema is not None:
        return None
    done = [step for step in good_steps(run) if step.call is not None]
    steps = [(step.call.arguments, step.result or "") for step in done if step.call is not None]
    resolved = {i for i, step in enumerate(done) if step.call is not None and step.call.signature() in run.resolved}
    made = (set(made_up_steps(run.ctx.task, steps)) - resolved) | {
        i for i, step in enumerate(done) if step.call is not None and step.call.signature() in run.made_up_calls
    }
    task = run.ctx.task
    instead = last_result_instead(task, answer, steps, made) or taken_result_instead(task, answer, steps, made)
    if instead is not None:
        run.notice("final answer restated a result the run had moved past; the last result answers", answer=instead)
    return instead
