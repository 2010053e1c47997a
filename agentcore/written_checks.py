"""The answer checks whose notice writes the next call out (issue #12): an answer that is a part of a value the
task still adds to (`215 / 2` for "add half of that price to it"), a value the task still squares or cubes, or the
result of a line a later call started again ("36000" from `12 * 3 * 1000` once the kilograms were converted).

Each fires once per run, names the tool of the written call as the next turn's only tool where it can, and leaves
that call in `Run.written_fix`, so a number the model then works out in its head runs as the written call
(`loop_checks.written_again`). `answer_checks.ANSWER_CHECKS` runs them in its order.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentcore import prompting
from agentcore.expression_edits import without_made_up_factors
from agentcore.grounding import with_value
from agentcore.messages import CallPart, ToolCall
from agentcore.named_rest import on_same_input
from agentcore.portions import portion_left, subtracts
from agentcore.powers import grounded, named_power, power_used, powered
from agentcore.run_reads import good_steps
from agentcore.unfinished import (
    BARE_NUMBER,
    argument_values,
    given_numbers,
    leaves,
    made_up_steps,
    numbers_in,
    redone,
    repeats_result,
    values_in,
    with_result,
)

if TYPE_CHECKING:
    from agentcore.result import Step
    from agentcore.run_state import Run

# An expression of two numbers ("2 * 3", "19.95+4", "7 - 4"; not a date's "2024-01"): a tool that takes
# arithmetic as a text.
_ARITHMETIC = re.compile(r"\d\s*[+*/]\s*\d|\d\s+-\s*\d")


def redone_check(run: Run, answer: str) -> bool:
    """Once: the answer is the result of a line that a later call of another tool started again, from the same
    number of the task ("36000" from `12 * 3 * 1000` after unit_convert took the 12 kilograms to pounds)."""
    if run.redone_checked or run.final_only or not run.deps.settings.check_sources:
        return False
    done = [(step.call, step.result or "") for step in good_steps(run) if step.call is not None]
    found = redone(run.ctx.task, answer, [(call.name, call.arguments, result) for call, result in done])
    if found is None:
        return False
    (before, old), (later, result) = done[found[0]], done[found[1]]
    if on_same_input(run.ctx.task, run.specs, [before], later):  # two actions the task names, not a line redone
        return False
    run.redone_checked = True
    run.notice("final answer comes from a line a later call started again; sent back", call=later.signature())
    fixed = _on_result(run, before, later, result.strip())
    if fixed is not None:  # shown the line again on the result, the model took it up (h18 insisted on 36000)
        run.forced, run.written_fix = frozenset({fixed.name}), fixed
        run.redone_fix, run.redone_value = fixed, old.strip()
    notice = prompting.redone_notice(run.ctx.task, answer.strip(), before, later, result.strip(), fixed=fixed)
    run.messages.append(notice)
    return True


def _on_result(run: Run, before: ToolCall, later: ToolCall, result: str) -> ToolCall | None:
    """`before` again with the one number of the task it shares with `later` written as `later`'s result, less
    its own factors (the unit step the converter did: `12 * 3 * 1000` -> `26.455471 * 3`); None where they share
    no single number or the result is not one number."""
    shared = argument_values(before.arguments) & argument_values(later.arguments)
    if len(shared) != 1 or not BARE_NUMBER.fullmatch(result):
        return None
    arguments = with_result(before.arguments, [str(next(iter(shared)))], result)
    known = given_numbers(run.ctx.task) | values_in(result)
    arguments = {k: without_made_up_factors(v, known) if isinstance(v, str) else v for k, v in arguments.items()}
    return ToolCall(before.name, arguments)


def portion_check(run: Run, answer: str) -> bool:
    """Once: the answer is the result of a call that scaled a value by a factor of the task (`215 / 2` for "half
    of that price"), or the value it scaled, while the task names an addition or subtraction no call did ("add
    ... to it"): the part is ready, the whole is still to combine with it (agentcore.portions)."""
    done = [step for step in good_steps(run) if step.call is not None]
    if run.portion_checked or run.final_only or not run.deps.settings.check_unfinished or not done:
        return False
    if not repeats_result(run.ctx.task, answer, (done[-1].result or "").strip()) and not _whole_again(done, answer):
        done = _before_fetched_again(done, answer, run.ctx.task)
        if not done:
            return False
    return _portion_next(run, done)


def _before_fetched_again(done: list[Step], answer: str, task: str) -> list[Step]:
    """The steps up to the one the answer repeats, where every later step only fetched a value that step already
    used: `0.1 * 85` for the 10% shipping, the chair's 85 looked up after it, and 8.5 answered (independent8's
    ca27); [] otherwise."""
    for index in range(len(done) - 2, -1, -1):
        step = done[index]
        if step.call is not None and repeats_result(task, answer, (step.result or "").strip()):
            used = argument_values(step.call.arguments)
            later = [values_in(s.result or "") for s in done[index + 1 :]]
            return done[: index + 1] if all(values and values <= used for values in later) else []
    return []


def _whole_again(done: list[Step], answer: str) -> bool:
    """The answer is the value an earlier tool returned and the last call took a part of: 64 again after
    `64 / 2` for "a webcam's price added to half of that price" (compose32's am13)."""
    last, answered = done[-1].call, numbers_in(answer)
    if last is None or len(answered) != 1 or round(answered[0], 12) not in argument_values(last.arguments):
        return False
    return any(answered[0] in numbers_in(step.result or "") for step in done[:-1])


def lost_after_part(run: Run) -> bool:
    """Once: the model repeats an earlier call right after the call that took the part (compose f15: `215 / 5`
    for "after taking off a fifth of it", then the lookup again, then the division again): the next call is
    written out as in `portion_check`."""
    done = [step for step in good_steps(run) if step.call is not None]
    if run.portion_checked or run.final_only or not run.deps.settings.check_unfinished or not done:
        return False
    return _portion_next(run, done)


def _portion_next(run: Run, done: list[Step]) -> bool:
    last = done[-1]
    result = (last.result or "").strip()
    if last.call is None:
        return False
    # Not the calls on made-up inputs ("100 - 0.5 * 100" before any lookup): they added nothing real.
    invented = set(made_up_steps(run.ctx.task, [(s.call.arguments, s.result or "") for s in done if s.call]))
    earlier = [
        s.call.arguments
        for i, s in enumerate(done[:-1])
        if s.call is not None and s.call.signature() not in run.made_up_calls and i not in invented
    ]
    found = portion_left(run.ctx.task, last.call.arguments, earlier)
    if found is None:
        return False
    run.portion_checked = True
    run.forced = frozenset({last.call.name})  # the tool that took the part combines it: not another lookup
    expression, whole, word = found
    run.notice("final answer is a part of a value the task still adds to or takes from", call=last.call.signature())
    sign = "-" if subtracts(word) else "+"
    written = [v for v in leaves(last.call.arguments) if isinstance(v, str) and v.strip() == expression]
    fixed = ToolCall(last.call.name, with_value(last.call.arguments, written, f"{whole} {sign} {result}"))
    run.messages.append(prompting.portion_notice(run.ctx.task, expression, whole, word, result, call=fixed))
    run.written_fix = fixed
    return True


def power_check(run: Run, answer: str) -> bool:
    """Once: the answer restates the last result while the task takes a value to a power ("the square of the
    price") that no call of the model's took, made-up calls aside: the next step is that result to the power
    (agentcore.powers)."""
    done = [step for step in good_steps(run) if step.call is not None]
    if run.power_checked or run.final_only or not run.deps.settings.check_unfinished or not done:
        return False
    task, exponent = run.ctx.task, named_power(run.ctx.task)
    if exponent is None or not repeats_result(task, answer, done[-1].result or ""):
        return False
    # "2 * 2" for "multiplied by itself", on a number no one gave: the value to square is still the fetched one
    real = grounded(
        [(step.call.arguments, (step.result or "").strip()) for step in done if step.call is not None], task
    )
    if not real or not BARE_NUMBER.fullmatch(real[-1][1]):
        return False
    known = values_in(task) | {v for _, result in real for v in values_in(result)}
    calls = [m.part.call for m in run.messages if isinstance(m.part, CallPart) and m.part.call is not None]
    if power_used([call.arguments for call in calls if call.signature() not in run.failed_calls], known):
        return False
    run.power_checked = True
    result = real[-1][1]
    expression = powered(result, exponent)
    fixed = _expression_call([step.call for step in run.steps if step.call is not None], expression)
    run.forced = frozenset({fixed.name}) if fixed is not None else frozenset(spec.name for spec in run.specs)
    run.written_fix = fixed
    run.notice("final answer is a value the task still takes to a power", result=result, expression=expression)
    word = "square" if exponent == 2 else "cube"
    run.messages.append(prompting.power_notice(run.ctx.task, result, expression, word, fixed))
    return True


def _expression_call(calls: list[ToolCall], expression: str) -> ToolCall | None:
    """The latest call that took arithmetic as a text ("2 * 3", even on made-up inputs), with `expression` in
    that argument: the tool to compute with and the form its argument takes."""
    for call in reversed(calls):
        for key, value in call.arguments.items():
            if isinstance(value, str) and _ARITHMETIC.search(value):
                return ToolCall(call.name, {**call.arguments, key: expression})
    return None
