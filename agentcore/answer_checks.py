"""The checks a final answer goes through (issue #12), in order (`ANSWER_CHECKS`): a chain stopped early, an
item the task lists never fetched, results not combined, an answer that echoes a call's input or the task's own
numbers, one in the wrong unit or before the conversion the task asks for, one computed from made-up inputs or
worked out in the model's head. Each reads the task's numbers and its own words, never a list of phrasings,
and each fires a bounded number of times per run (the flags on `Run`), so a model that insists still ends.

The checks whose notice writes the next call out (a part, a power, a line started again) live in
`agentcore.written_checks`. The loop (`agentcore.loop`) calls them; each one that fires appends its notice to the
run's messages and may name the tools the next turn must call (`Run.forced`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentcore import prompting
from agentcore.again import again_check
from agentcore.asked_units import asked_unit
from agentcore.conversions import conversion_due
from agentcore.grounding import counted_items, mentions
from agentcore.messages import CallPart, ToolCall
from agentcore.named_rest import named_rest_check
from agentcore.result import Step
from agentcore.reworked_quotes import tools_for_reworked_quote
from agentcore.rows import wrong_row
from agentcore.run_reads import (
    good_steps,
    item_tools,
    new_steps,
    opened_for_nothing,
    unused_items,
    unused_task_numbers,
    unused_words,
)
from agentcore.still_to_use import premature
from agentcore.tool_fit import fitting_tools, tool_docs, tools_for_number
from agentcore.tool_order import computes
from agentcore.uncombined import combined_count, computing, counts_results, uncombined_check
from agentcore.unfetched import counts_only
from agentcore.unfinished import (
    BARE_NUMBER,
    DATE_IN_DIGITS,
    argument_values,
    derived,
    echoes_task,
    guessed,
    latest_unused,
    leaves,
    made_up,
    made_up_steps,
    numbers_in,
    numbers_written,
    open_results,
    repeats_result,
    restates_task,
    unsourced,
    unused_parts,
    used_up,
    values_in,
    with_result,
    with_tool_value,
)
from agentcore.unit_names import converter, is_unit, unit_kind
from agentcore.written_checks import portion_check, power_check, redone_check

if TYPE_CHECKING:
    from agentcore.run_state import Run


def missing_tool_check(run: Run, answer: str) -> bool:
    """A chain stopped one step early: the task names a tool that was never called. Once, force it."""
    missing = unused_named_tools(run)
    if missing:
        run.forced = frozenset(missing)
        run.notice("final answer before using a tool the task names; that tool is required next", tools=missing)
        run.messages.append(prompting.missing_tool_notice(run.ctx.task, missing))
    return bool(missing)


def unfinished_check(run: Run, answer: str) -> bool:
    """A chain stopped after a step: the answer is that step's result while some number of the task, or an item
    it lists beside one already looked up, went into no call."""
    pending, unnamed, result = unfinished_numbers(run, answer)
    if not (pending or unnamed):
        return False
    nowhere = run.made_up_calls | opened_for_nothing(run)  # a result that stands for nothing is none to combine
    real = [s.call for s in good_steps(run) if s.call is not None and s.call.signature() not in nowhere]
    steps = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call in real]
    waiting = open_results(steps)  # not the result of a call on made-up inputs: it stands for nothing
    waiting = waiting if len(waiting) > 1 else []
    # "the 2 counts" beside the two results a call just multiplied (independent10's cc21 ran `812 * 2`)
    combined = combined_count(run)
    pending = [
        n
        for n in pending
        if not ((waiting and counts_results(run, n, len(waiting))) or (combined and counts_results(run, n, combined)))
    ]
    if not (pending or unnamed or waiting):  # the only number left counted the results just combined
        return False
    run.forced = item_tools(run) if unnamed else frozenset()
    run.forced = run.forced or frozenset(spec.name for spec in run.specs)
    # a date no call took is a step of its own still to do, as a listed item is: the check may fire once more
    # after its result (independent14's cg21 counted the days of one date range of two, and was sent back once)
    dated = any(DATE_IN_DIGITS.fullmatch(p) for p in pending)
    run.unfinished_named = run.unfinished_named or bool(unnamed) or dated
    run.notice("final answer repeats a tool result while the task is unfinished", numbers=pending, words=unnamed)
    counted = counted_items(run.ctx.task, pending, steps) if waiting and not unnamed else []
    run.forced = computing(run) if counted else run.forced
    run.forced = (_arithmetic_next(run, pending) if not (unnamed or waiting) else frozenset()) or run.forced
    run.messages.append(prompting.unfinished_notice(run.ctx.task, counted or pending, result, unnamed, waiting))
    run.unfinished_pending = (len(run.steps), tuple(pending), result) if pending and not unnamed else None
    return True


def _arithmetic_next(run: Run, pending: list[str]) -> frozenset[str]:
    """The formula tools (agentcore.tool_order), where all that is left is numbers of the task with no unit to
    convert: a number to combine with a result is arithmetic. Told "the task still uses 15" after a word count of
    10, the model counted the words again and reversed the text (independent12's cd12)."""
    formulas = frozenset(spec.name for spec in run.specs if computes(spec))
    if not formulas or not pending or any(_quantity(run.ctx.task, number) for number in pending):
        return frozenset()
    if any(DATE_IN_DIGITS.fullmatch(number) for number in pending):
        return frozenset()  # a date no call took is for the date tool, not arithmetic (independent14's cg21)
    return formulas


def _quantity(task: str, number: str) -> bool:
    """Whether the task writes `number` before a unit of measure ("15 miles"): a quantity a converter may take."""
    after = re.search(rf"(?<![\w.]){re.escape(number)}\s*([a-zA-Z]+)", task)
    return after is not None and is_unit(after.group(1))


def copied_input_check(run: Run, answer: str) -> bool:
    """Once: the answer is a call's own input ("215 / 4", the expression given to the calculator) while the call
    returned something else (53.75): the model wrote out what it asked, not what it got."""
    if run.copied_checked or run.final_only or not run.deps.settings.check_sources:
        return False
    step = _copied_step(run, answer)
    if step is None or step.call is None:
        return False
    run.copied_checked = True
    run.notice("final answer is the input of a call, not its result; sent back", call=step.call.signature())
    run.messages.append(prompting.copied_notice(run.ctx.task, answer.strip(), step.call.name, step.result or ""))
    return True


def _copied_step(run: Run, answer: str) -> Step | None:
    """The latest good step whose input the answer is, when its result is something else."""
    said = _bare(answer)
    for step in reversed(good_steps(run)):
        given = [v for v in leaves(step.call.arguments if step.call else {}) if isinstance(v, str)]
        if said and _bare(step.result or "") != said and any(_bare(v) == said for v in given):
            return step
    return None


def restated_check(run: Run, answer: str) -> bool:
    """Once: the answer's numbers are all the task's own, none a tool's, while the last result is new ("5.0" for
    "How many meters are 5 such pipes?" after 13.716): the model restated the question. It goes back with that
    result named (after `unfinished_check`, which takes the case where the restated number is still to use)."""
    done = good_steps(run)
    if run.restated_sent or run.final_only or not done or not run.deps.settings.check_sources:
        return False
    if not restates_task(run.ctx.task, answer, [step.result or "" for step in done]):
        return False
    run.restated_sent = True
    latest = (done[-1].result or "").strip()
    pending = unused_task_numbers(run)
    if pending:  # "3.0" for "3 pounds in grams, spread over 4 jars": the 4 is still to use (compose26's ag06)
        run.forced = frozenset(spec.name for spec in run.specs)
        run.notice("final answer restates the task's numbers while the task is unfinished", numbers=pending)
        run.messages.append(prompting.unfinished_notice(run.ctx.task, pending, latest))
        return True
    run.notice("final answer restates the task's numbers, not a tool's result; sent back", result=latest)
    run.messages.append(prompting.copied_notice(run.ctx.task, answer.strip(), "", latest))
    return True


def used_up_check(run: Run, answer: str) -> bool:
    """Once: the answer is a number that a call already took as an input, while that call's result is still
    unused ("159" after `(159) - 30` returned 129): the model went back to an intermediate value."""
    if run.used_up_checked or run.final_only or not run.deps.settings.check_sources:
        return False
    done = [(step.call, step.result or "") for step in good_steps(run) if step.call is not None]
    index = used_up(run.ctx.task, answer, [(call.arguments, result) for call, result in done])
    if index is None:
        return False
    run.used_up_checked = True
    call, result = done[index]
    run.notice("final answer is a value a call already used; sent back", call=call.signature())
    run.messages.append(prompting.used_up_notice(run.ctx.task, answer.strip(), call, result.strip()))
    return True


def echoed_again(run: Run, answer: str) -> str | None:
    """The answer to accept instead, when the model insists after the notice: a call's input again gives way to
    that call's result ("photosynthesis" twice after `reverse_string` returned "sisehtnysotohp"), and the task's
    numbers again to the last result, written where the one number was ("5.0" twice for five pipes of 2.7432 m,
    after 13.716), and the result of a line a conversion started again to the result of that line's redo
    ("36000" after `26.455471 * 3` ran). As for an unsourced number (`unsourced_numbers`), the tool's result wins.
    None otherwise."""
    done = good_steps(run)
    copied = _copied_step(run, answer) if run.copied_checked else None
    if copied is not None:
        result = _carried_on(done, copied)
        run.notice("final answer was a call's input again; replaced by its result", result=result)
        return result
    redo = _redo_step(run, done, answer)
    if redo is not None:
        run.notice("final answer was the line started again, again; replaced by its redo", result=redo)
        return with_tool_value(answer, numbers_written(answer), redo)
    if not run.restated_sent or not done:
        return None
    if not restates_task(run.ctx.task, answer, [step.result or "" for step in done]):
        return None
    latest = (done[-1].result or "").strip()
    replaced = with_tool_value(answer, numbers_written(answer), latest)
    if replaced == answer:
        return None
    run.notice("final answer restated the task's numbers again; replaced by the last result", result=latest)
    return replaced


def _carried_on(done: list[Step], step: Step) -> str:
    """`step`'s result, or where later calls took it on, the result of the last call in that chain: the check-out
    date answered again after `date_diff` = 7 and `95 * 7` = 665 had been answered 7 (independent1's ar15)."""
    result = (step.result or "").strip()
    for later in done[done.index(step) + 1 :] if step in done else []:
        if later.call is not None and values_in(result) & argument_values(later.call.arguments):
            result = (later.result or "").strip()
    return result


def _redo_step(run: Run, done: list[Step], answer: str) -> str | None:
    """The result of the call the redone notice wrote out, when it ran and the answer is the old line's again."""
    fix, old = run.redone_fix, run.redone_value
    if fix is None or not old or not repeats_result(run.ctx.task, answer, old):
        return None
    ran = [step for step in done if step.call == fix]
    return (ran[-1].result or "").strip() if ran else None


def _bare(text: str) -> str:
    """The text without the quotes, backticks, spaces and closing stop a model wraps around a value. Case stays:
    "YES" for "Write 'yes' in capitals" is an answer, not the input."""
    return " ".join(text.strip().strip("`'\".").split())


def conversion_check(run: Run, answer: str) -> bool:
    """Once: the task names a unit to answer in that no conversion has reached ("express the rest in meters"
    after mi -> km; "40 meters in feet, less 10" answered `40 - 10`) while the task names another of its kind:
    the converter is required next, and the notice writes the conversion out (agentcore.unit_names)."""
    if run.converted_checked or run.final_only or not run.deps.settings.check_unfinished:
        return False
    found = conversion_due(run)
    if found is None:
        return False
    call, word, number = found
    run.converted_checked, run.forced, run.conversion_fix = True, frozenset({call.name}), call
    if number is not None:  # the chain starts again from the task's number: what used it before is dropped
        done = [step.call for step in good_steps(run) if step.call is not None]
        run.restarted = {c.signature() for c in done if number in argument_values(c.arguments)}
    run.notice("final answer before a conversion to the unit the task asks for", call=call.signature())
    run.messages.append(prompting.convert_notice(run.ctx.task, call, word))
    return True


def unit_check(run: Run, answer: str) -> bool:
    """Once: the answer repeats a result of a tool whose docs count in one unit of time, while the task asks for
    another ("how many weeks" answered with date_diff's days; agentcore.asked_units). The latest such result: a
    calculation may have restated it (`224 - 112` = 112 after 112 days: independent1's ar02)."""
    done = good_steps(run)
    if run.unit_checked or run.final_only or not done or not run.deps.settings.check_unfinished:
        return False
    specs = {spec.name: spec for spec in run.specs}
    for step in reversed(done):
        spec = specs.get(step.call.name) if step.call is not None else None
        result = step.result or ""
        if spec is None or not repeats_result(run.ctx.task, answer, result):
            continue
        units = asked_unit(run.ctx.task, tool_docs(spec))
        if units is not None:
            run.unit_checked, run.forced = True, _converting(run, units[1])
            run.notice("final answer is in the unit its tool counts in, not the one the task asks for", units=units)
            run.messages.append(prompting.unit_notice(run.ctx.task, result, spec.name, *units))
            return True
    return False


def _converting(run: Run, unit: str) -> frozenset[str]:
    """The offered tools less the converters that convert no unit of `unit`'s kind: told to convert 55 days to
    hours, the model sent `unit_convert(55 km -> m)` to a converter of lengths, weights, volumes and temperatures
    (independent12's cd06)."""
    kind = unit_kind(unit.removesuffix("s"))
    able = []
    for spec in run.specs:
        shape = converter(spec.parameters)
        if shape is None or kind is None or kind in {unit_kind(u) for u in shape.units}:
            able.append(spec.name)
    return frozenset(able or (spec.name for spec in run.specs))


def made_up_check(run: Run, answer: str) -> bool:
    """The answer is a tool's result on numbers from nowhere ("100 + 200" for two prices): another tool must get
    real values first."""
    inputs, result, tools, items = made_up_inputs(run, answer)
    if inputs:
        run.forced = frozenset(tools)
        run.notice("final answer was computed from made-up inputs; another tool is required", numbers=inputs)
        run.messages.append(prompting.made_up_notice(run.ctx.task, inputs, result, tools, items))
    return bool(inputs)


def counts_check(run: Run, answer: str) -> bool:
    """Once: the answer is the result of a call on the task's own numbers alone ("3 + 1" for "3 backpacks and a
    webcam") while the task names items an offered tool fetches (`run.unfetched`, agentcore.unfetched): those
    items are to be fetched first."""
    done = good_steps(run)
    if not run.unfetched or run.made_up_at:
        return False
    steps = [(step.call.arguments, step.result or "") for step in done if step.call is not None]
    result = counts_only(run.ctx.task, answer, steps)
    if not result or made_up(run.ctx.task, answer, steps, least=1)[0]:
        return False  # a number from nowhere is the made-up check's
    makers = {s.call.name for s in done if s.call is not None}
    tools = [spec.name for spec in run.specs if spec.name not in makers]
    run.made_up_at.append(len(done))
    # a formula's result stands for nothing, as a made-up call's does: no later check offers it to combine. A
    # fetcher's result on the task's values is a real step: the day count of "every day from 2024-03-01 to
    # 2024-05-15" waits for the mug's price (independent10's cc24 answered the price, the days' 75 set aside)
    formulas = {spec.name for spec in run.specs if computes(spec)}
    run.made_up_calls |= {
        s.call.signature()
        for s in done
        if s.call is not None and s.call.name in formulas and (s.result or "").strip() == result
    }
    run.forced = frozenset(tools)
    run.notice("final answer was computed from the task's numbers alone; its items are to be fetched first",
               items=list(run.unfetched))  # fmt: skip
    run.messages.append(prompting.counts_notice(run.ctx.task, result, tools, run.unfetched))
    return True


def wrong_row_check(run: Run, answer: str) -> bool:
    """Once: the answer's numbers come from lines of the last result that do not name the task's item, while one
    line does (agentcore.rows): the model took the first row of a table. The notice quotes the right line."""
    done = good_steps(run)
    if run.row_checked or run.final_only or not done or not run.deps.settings.check_sources:
        return False
    row = wrong_row(run.ctx.task, answer, done[-1].result or "")
    if row is None:
        return False
    run.row_checked = True
    run.notice("final answer taken from a line the task does not name; sent back", row=row)
    run.messages.append(prompting.wrong_row_notice(run.ctx.task, answer, row))
    return True


def memory_answer_check(run: Run, answer: str) -> bool:
    """Once: the first answer came from memory, with no call tried, while an offered tool's name and docs share two
    or more content words with the task, or one where the answer has a number the task does not
    (agentcore.tool_fit); or, with no call that gave a result, while the answer does the work on the task's
    quoted text in the head and a tool takes one text (agentcore.reworked_quotes: "Ozymandias" after a lookup of it
    failed, for "spell “Ozymandias” backwards"): that tool is required next. Answers with numbers worked out from
    the task's are the unsourced check's (`guessed`)."""
    if run.memory_checked or run.final_only or not run.deps.settings.check_sources:
        return False
    tried = any(step.call is not None for step in run.steps)
    if (tried and good_steps(run)) or guessed(run.ctx.task, answer):
        return False
    offered = [spec for spec in run.specs if spec.name in run.offered]
    task = run.ctx.task
    fits = [] if tried else fitting_tools(task, offered) or tools_for_number(task, answer, offered)
    fits = fits or tools_for_reworked_quote(task, answer, offered)
    if not fits:
        return False
    run.memory_checked = True
    run.forced = frozenset(fits)
    run.notice("final answer from memory while a tool the task describes is offered; that tool is required next",
               tools=fits)  # fmt: skip
    run.messages.append(prompting.missing_tool_notice(run.ctx.task, fits))
    return True


def held_answer_check(run: Run, answer: str) -> bool:
    """Once: after a call no word of the task is about was held back (`unfitting_call`), an answer with a number
    while the task has none came from memory ("The office desk costs $1000." for `item_value(name="office
    desk")`): when every value of the held call is the task's own, the model meant that tool to tell it, and the
    tool is required next. An answer in words stands (no tool fits the question), and so does one after a held
    call with values of the model's own (`get_game_results(date="2023-04-15")` for "Who played for Clippers in
    NBA": a guess, not a lookup)."""
    held, run.fit_held = run.fit_held, None
    if held is None or good_steps(run) or not numbers_in(answer) or held.name not in run.offered:
        return False
    if not all(isinstance(v, str) and mentions(run.ctx.task, v) for v in leaves(held.arguments)):
        return False
    tool = held.name
    run.forced = frozenset({tool})
    run.notice("final answer with a number no tool returned after a held-back call; that tool is required next",
               tools=[tool])  # fmt: skip
    run.messages.append(prompting.missing_tool_notice(run.ctx.task, [tool]))
    return True


def held_step_check(run: Run, answer: str) -> bool:
    """Once: the conversion that a held call waited for (agentcore.mixed_units) has run and no call took its result
    yet: the held call is due, with the converted value in place of the number, whatever the answer says
    ("226.796185" or the pounds' 3175.14659 answered after 8 oz in g, where `3175.14659 + 8` was held:
    independent1's ar36; a sum worked out in the head: ar34)."""
    held = run.mixed_held
    result = run.seen_calls.get(held[2], "").strip() if held is not None else ""
    if held is None or not result:
        return False  # no conversion to wait on, or it has not run yet
    run.mixed_held = None
    if not BARE_NUMBER.fullmatch(result):
        return False
    if any(values_in(result) & argument_values(s.call.arguments) for s in good_steps(run) if s.call is not None):
        return False
    call, number, _ = held
    fixed = ToolCall(call.name, with_result(call.arguments, [number], result))
    run.forced, run.written_fix = frozenset({call.name}), fixed
    run.notice("final answer before the step a conversion was for; that step is due", call=fixed.signature())
    run.messages.append(prompting.held_step_notice(run.ctx.task, fixed, result))
    return True


# The checks a final answer goes through, in order; the first that sends it back wins.
ANSWER_CHECKS: tuple[Callable[[Run, str], bool], ...] = (
    held_step_check,
    missing_tool_check,
    copied_input_check,
    again_check,
    named_rest_check,
    unfinished_check,
    restated_check,
    used_up_check,
    redone_check,
    portion_check,
    power_check,
    conversion_check,
    unit_check,
    uncombined_check,
    made_up_check,
    counts_check,
    wrong_row_check,
    memory_answer_check,
    held_answer_check,
)


def unused_named_tools(run: Run) -> list[str]:
    """Tools the task names ("use the calculator") that the run has not called; checked once per run."""
    if run.forced_once or run.final_only:
        return []
    run.forced_once = True
    called = {step.call.name for step in run.steps if step.call is not None}
    return [name for name in prompting.named_tools(run.ctx.task, run.specs) if name not in called]


def unfinished_numbers(run: Run, answer: str) -> tuple[list[str], list[str], str]:
    """(the task's unused numbers, the items it lists that no call used, the last result) when the answer only
    repeats that result. Fires once, and once more after a new result when the first notice named items (each
    item of "3 monitors and 2 keyboards" is a lookup of its own, and the sum is one more step)."""
    checked = run.unfinished_results
    if len(checked) >= 2 or run.final_only or not run.deps.settings.check_unfinished:
        return [], [], ""
    done = good_steps(run)
    if not done:
        return [], [], ""
    result = (new_steps(run) or done)[-1].result or ""
    if checked and (result in checked or not run.unfinished_named):
        return [], [], ""
    # The model's own calls as well as what ran: a policy may have rewritten a number the model did use. Not
    # calls that failed: `calculator("Subtract 20 from the price of a keyboard")` used no 20 (compose3 p05).
    # Nor, once the made-up check fired, the calls on invented inputs (the made-up total, then one price looked
    # up and answered alone: the task's numbers went into no real call).
    invented = _invented_calls(run, done) | run.made_up_calls if run.made_up_at else set()
    skip = run.failed_calls | run.restarted | invented | opened_for_nothing(run)
    calls = [m.part.call for m in run.messages if isinstance(m.part, CallPart) and m.part.call]
    calls += [step.call for step in done if step.call]
    used = [call.arguments for call in calls if call.signature() not in skip]
    echoed = echoes_task(run.ctx.task, answer, used)
    if echoed:
        checked.append(result)
        return echoed, [], result
    if not repeats_result(run.ctx.task, answer, result):
        # An answer with a number no tool returned, while a listed item was never fetched, is a guess at it
        # ("39.95" for a keyboard and a mouse after the mouse alone): name the item rather than the arithmetic.
        # So is an answer with no number after a numeric result: "The keyboard and mouse are not necessary for
        # your new setup" once the keyboard's 45.9 was in (independent10's cc14, "What's the damage?").
        results = [step.result or "" for step in done]
        wordy = not values_in(answer) and bool(values_in(result))
        unnamed = unused_words(run) if wordy or unsourced(run.ctx.task, answer, results, used) else []
        if unnamed:
            checked.append(result)
        return [], unnamed, result
    pending, unnamed = premature(run.ctx.task, answer, result, used), unused_words(run)
    if repeats_result(run.ctx.task, answer, result):  # "one tenth of itself" with no 0.1 or 10 in any call
        called = {step.call.name for step in done if step.call is not None}
        docs = " ".join(f"{spec.name} {spec.description}" for spec in run.specs if spec.name in called)
        pending += unused_parts(run.ctx.task, used, docs)
    if pending or unnamed:  # only a check that fired counts: another check may send an answer back first
        checked.append(result)
    return pending, unnamed, result


def _invented_calls(run: Run, done: list[Step]) -> set[str]:
    steps = [(step.call.arguments, step.result or "") for step in done if step.call is not None]
    calls = [step.call for step in done if step.call is not None]
    return {calls[i].signature() for i in made_up_steps(run.ctx.task, steps)}


def unsourced_numbers(run: Run, answer: str) -> tuple[list[str], str, bool]:
    """(the answer's numbers that no tool returned, the latest result no call took as an input, whether this
    answer was sent back for that already). Before any good call, an answer with numbers to a task with numbers
    counts too (once): it was worked out without the tools. Typed outputs are not checked: a schema's numbers (a
    score, a count, an id) are often the model's to give."""
    settings = run.deps.settings
    if not settings.check_sources or not run.specs or settings.output_schema is not None:
        return [], "", False
    done = good_steps(run)
    if not done:
        if run.guess_checked or run.final_only:
            return [], "", False
        run.guess_checked = True
        return guessed(run.ctx.task, answer), "", False
    insisted = run.unsourced_sent
    if not insisted and (run.sources_checked or run.final_only):
        return [], "", False
    run.sources_checked = True
    steps = [(step.call.arguments if step.call else {}, step.result or "") for step in done]
    fresh = [(step.call.arguments if step.call else {}, step.result or "") for step in new_steps(run)]
    latest = latest_unused(fresh)
    return unsourced(run.ctx.task, answer, [r for _, r in steps], [a for a, _ in steps]), latest, insisted


def derivation(run: Run, answer: str) -> str | None:
    """The one operation on the run's results and the task's unused numbers that the answer's number is
    (agentcore.unfinished.derived): an answer from the model's head whose arithmetic checks out."""
    done = [step for step in good_steps(run) if step.call is not None]
    spare = unused_task_numbers(run)
    return derived(answer, [step.result or "" for step in done], spare)


def made_up_inputs(run: Run, answer: str) -> tuple[list[str], str, list[str], list[str]]:
    """(made-up inputs, their result, the other tools to get values with, the task's items no call used yet) when
    the answer is the result of a call on numbers from nowhere. Fires only when an offered tool the run has not
    used could supply real values; once more after a new result (the model often fetches one item of two, then
    repeats its made-up total)."""
    settings = run.deps.settings
    done = good_steps(run)
    fired = run.made_up_at
    if not settings.check_sources or run.final_only or settings.output_schema is not None:
        return [], "", [], []
    if len(fired) >= 2 or (fired and fired[-1] == len(done)):
        return [], "", [], []
    steps = [(step.call.arguments, step.result or "") for step in done if step.call is not None]
    # One number from nowhere counts where the task names items a tool can fetch (agentcore.unfetched).
    least = 1 if run.unfetched else 2
    inputs, result = made_up(run.ctx.task, answer, steps, least=least)
    if not inputs and fired:  # the made-up result answered again after a lookup: it is still made up (compose f07)
        flagged = [
            (s.call.arguments, s.result or "") for s in done if s.call and s.call.signature() in run.made_up_calls
        ]
        inputs, result = made_up(run.ctx.task, answer, flagged, least=0)
    if inputs and _also_real(run, done, steps, result, least):
        return [], "", [], []
    makers = {s.call.name for s in done if s.call is not None and (s.result or "").strip() == result}
    others = [spec.name for spec in run.specs if spec.name not in makers]
    if not inputs or not others:
        return [], "", [], []
    fired.append(len(done))
    run.made_up_calls |= {s.call.signature() for s in done if s.call is not None and (s.result or "").strip() == result}
    return inputs, result, others, list(run.unfetched) or unused_items(run)


def _also_real(run: Run, done: list[Step], steps: list[tuple[Any, str]], result: str, least: int) -> bool:
    """Whether a call on real inputs returned `result` as well: "add the price of a monitor to half of itself"
    made up as `215 + 215 / 2` = 322.5, then looked up and done again as `215 + 215 * 0.5` (compose16's l15)."""
    invented = set(made_up_steps(run.ctx.task, steps, least))
    calls = [step.call for step in done if step.call is not None]
    return any(
        index not in invented and call.signature() not in run.made_up_calls and output.strip() == result
        for index, (call, (_, output)) in enumerate(zip(calls, steps, strict=True))
    )
