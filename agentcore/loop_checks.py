"""The loop's checks on a run's calls before they run (issue #12): a call that reuses an input instead of its
result or takes one result for two (the holds on a call that does not fit the question are in
`agentcore.fit_checks`); the repairs that write a call in the form its docs and the task give; and a step
of the task's plan that names an item still to fetch. Like the answer checks (`agentcore.answer_checks`), each
fires a bounded number of times per run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentcore import prompting
from agentcore.count_checks import counted_twice_call, counts_multiplied_call, done_again_call
from agentcore.done_again import is_arithmetic
from agentcore.enum_filled import fillable, filled
from agentcore.enum_lists import named_only
from agentcore.enum_named import choices, named_choices
from agentcore.expression_edits import without_made_up_factors, without_term
from agentcore.fit_checks import closer_call, step_closer_call, unfitting_call, unsupplied_call
from agentcore.grounding import mentions, task_words
from agentcore.messages import ToolCall, ToolSpec
from agentcore.mixed_kinds import count_summed, counted
from agentcore.mixed_units import conversion_of, unconverted_term
from agentcore.named_rest import on_same_input
from agentcore.run_reads import good_steps, item_tools, spoken_text, unused_task_numbers, unused_words, user_text
from agentcore.tool_order import computes
from agentcore.unfinished import (
    BARE_NUMBER,
    argument_values,
    beside_result,
    date_parts,
    doubled,
    given_numbers,
    leaves,
    made_up_inputs,
    open_results,
    plain,
    stale_inputs,
    superseded,
    values_in,
    with_result,
)
from agentcore.unit_names import converter, named_units
from agentcore.unstated import unstated

if TYPE_CHECKING:
    from agentcore.result import Step
    from agentcore.run_state import Run


def step_items(run: Run) -> list[str]:
    """The task's items still to fetch that the plan's next step names ("add the price of a usb cable" after the
    desk lamp's product): that step needs a call for them before any arithmetic, and the next turn must call a
    tool that fetched an item before (`item_tools`). Told only the results to use, the model added the desk
    lamp's price again."""
    step = run.plan.current
    if step is None or not run.deps.settings.check_unfinished:
        return []
    items = [word for word in unused_words(run) if mentions(step, word)]
    fetchers = item_tools(run) & run.offered if items else frozenset()
    run.plan.fetching = bool(fetchers) and not run.plan.waiting  # a step of items is its own fetching: not after
    if fetchers:
        run.forced = fetchers
    return items


def items_left(run: Run, call: ToolCall) -> bool:
    """Whether a read-only call gave a word of the plan's current step and the step names more items that no call
    has used: "look up the symbols for carbon, hydrogen and oxygen" was done, to the plan, by carbon's lookup, and
    the model, sent on to "write them on one line", multiplied "C * 11" (independent14's cg24)."""
    step, spec = run.plan.current, next((s for s in run.specs if s.name == call.name), None)
    if step is None or spec is None or not spec.read_only or not run.deps.settings.check_unfinished:
        return False
    if not any(isinstance(value, str) and mentions(step, value) for value in leaves(call.arguments)):
        return False
    return any(mentions(step, word) for word in unused_words(run))


def doubled_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that uses one result twice ("329 + 329") while the task lists, beside the item
    looked up, one that no call has used ("a tablet and a pen"): the model took one price for both. The next turn
    must call the tool that gave that result, and the notice writes that call out for the item still to get."""
    if run.doubled_checked or not run.deps.settings.check_sources:
        return False
    done = [s for s in good_steps(run) if s.call is not None]
    index = doubled(call.arguments, [s.result or "" for s in done])
    items = unused_words(run) if index is not None else []
    if index is None or not items:
        return False
    source = _fetcher(run, done, index)
    run.doubled_checked, run.forced = True, frozenset({source.name})
    value = (done[index].result or "").strip()
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {value} is used twice, but it is the value of one item only", True
    run.notice("tool call uses one result twice while a listed item is still to get; not run", call=call.signature())
    fixed = ToolCall(source.name, _with_item(run, source, items[0]))
    run.messages.append(prompting.doubled_notice(run.ctx.task, fixed, value, items[0]))
    return True


def _fetcher(run: Run, done: list[Step], index: int) -> ToolCall:
    """The call to write out for the item still to get: the one that gave the doubled result, or, where that tool
    fetched none of the task's items, the latest call of a tool that did. `2 * 2` after a word count of "Buenos
    Aires" asked for `word_count` on the coffee mug (independent14's cg20); the lookup gets it."""
    source = done[index].call
    assert source is not None
    fetchers = item_tools(run)
    if source.name in fetchers:
        return source
    return next((s.call for s in reversed(done) if s.call is not None and s.call.name in fetchers), source)


def _with_item(run: Run, call: ToolCall, item: str) -> dict[str, Any]:
    """The call's arguments with the task word they name replaced by `item` (the call written out for the next
    item). An enum keeps its value: `table="capitals"` names a table, not an item, though the task says "capital"."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    properties = (spec.parameters.get("properties") or {}) if spec is not None else {}
    words = [w for w in task_words(run.ctx.task, "", {}) if w != item]
    return {
        key: item
        if isinstance(value, str) and "enum" not in properties.get(key, {}) and any(mentions(value, w) for w in words)
        else value
        for key, value in call.arguments.items()
    }


def stale_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that takes an earlier call's input where that call's result belongs, or a result
    that a later call already used where that call's result belongs ("5 + 1" after "5 * 2" = 10 for "double the
    count, and add 1"); the next turn must call the same tool (the model was mid-step)."""
    if run.stale_checked or not run.deps.settings.check_sources or call == run.conversion_fix:
        return False  # the conversion a notice wrote out takes the task's number, not a result
    if _converts_a_stated_quantity(run, call) or _opened_early(run, call):
        return False
    if on_same_input(run.ctx.task, run.specs, [s.call for s in good_steps(run) if s.call is not None], call):
        return False
    taken, result = _stale(run, call)
    parts = not taken
    if parts:  # a day or a year of a date the date tool took: no call can be written out from it
        earlier = [(s.call.name, s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
        taken, result = date_parts(call.arguments, earlier, run.ctx.task)
    if not taken:
        return False
    run.stale_checked, run.forced = True, frozenset({call.name})
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {' and '.join(taken)} should be the earlier result {result}", True
    run.notice("tool call reuses an earlier input instead of its result; not run", call=call.signature(), numbers=taken)
    fixed = ToolCall(call.name, _own_factors_out(run, with_result(call.arguments, taken, result)))
    # One result stands for one input: "1 + 21 + 2024 + 0.5" after date_diff gave 20 for "1 June to 21 June 2024"
    # was written out as `20 + 20 + 20 + 0.5` (independent1's ar28), and run. None is written out for several.
    if parts or len(taken) > 1 or argument_values(fixed.arguments) - _given(run) - _returned(run):
        # Still a number from nowhere: "330 / 1000" for 330 ml in liters, after the conversion to 0.33, would be
        # written "0.33 / 1000", the conversion done twice (compose32's am17). No call is written out for it.
        run.messages.append(prompting.stale_notice(run.ctx.task, call, taken, result, unused=unused_task_numbers(run)))
        return True
    run.stale_fix = fixed if fixed != call else None
    run.messages.append(prompting.stale_notice(run.ctx.task, fixed, taken, result))
    return True


def _opened_early(run: Run, call: ToolCall) -> bool:
    """Every call so far was arithmetic on the task's own numbers, and this one goes to another tool: the
    arithmetic came too early, not this call late (independent14's cg12 subtracted 250 from 4071 before reversing
    it, and the reversal, sent back to, was held for taking the subtraction's input)."""
    done = [step.call for step in good_steps(run) if step.call is not None]
    given = _given(run)
    return bool(done) and all(
        earlier.name != call.name
        and argument_values(earlier.arguments) <= given
        and any(is_arithmetic(leaf) for leaf in leaves(earlier.arguments) if isinstance(leaf, str))
        for earlier in done
    )


def _converts_a_stated_quantity(run: Run, call: ToolCall) -> bool:
    """A converter call on a quantity the task states with that very unit ("350 degrees Fahrenheit" from F): what
    the task asks converted, whatever an earlier call made of the number. "What's 350 degrees Fahrenheit in
    Celsius, and what's double that?" opened with `350 * 2`; the conversion of 350 was then held as stale and the
    model converted 700 (independent1's ar04)."""
    spec = next((spec for spec in run.specs if spec.name == call.name), None)
    shape = converter(spec.parameters) if spec is not None else None
    if shape is None:
        return False
    value, source = call.arguments.get(shape.value), call.arguments.get(shape.source)
    named = named_units(run.ctx.task, shape) if isinstance(value, int | float) else []
    return any(n.number == float(value) and n.unit == source for n in named if isinstance(value, int | float))


def _own_factors_out(run: Run, arguments: dict[str, Any]) -> dict[str, Any]:
    """A stale call's arguments less the factors that neither the task nor a result gives: the model's own
    conversion, which the result it skipped has done (expression_edits.without_made_up_factors)."""
    known = _given(run) | _returned(run)
    return {k: without_made_up_factors(v, known) if isinstance(v, str) else v for k, v in arguments.items()}


def made_up_result_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that takes the result of a call on made-up inputs ("90 - 0.1 * 329" after
    `100 - 0.10 * 100` = 90, the tablet's price invented before it was looked up: compose10's h15), or of a call
    that a conversion started again from the same number of the task ("3 * 5 * 15" after `3 * 5` = 15 and 3
    pounds converted: compose12's e06): that number stands for nothing. The notice writes the call it came from
    again on the value fetched since, where that can be written; the next turn must call the same tool."""
    void = run.made_up_calls | run.restarted
    if run.made_up_result_checked or not void or not run.deps.settings.check_sources:
        return False
    done = [s for s in good_steps(run) if s.call is not None]
    taken = argument_values(call.arguments) - values_in(run.ctx.task)
    made = [s for s in done if s.call and _void_for(run, s.call, call) and values_in(s.result or "") & taken]
    if not made or made[-1].call is None:
        return False
    run.made_up_result_checked, run.forced = True, frozenset({call.name})
    source, value = made[-1].call, (made[-1].result or "").strip()
    run.steps[-1].result, run.steps[-1].tool_error = f"not run: {value} came from a line that stands for nothing", True
    run.notice("tool call takes a result that stands for nothing; not run", call=call.signature(), value=value)
    restarted = source.signature() in run.restarted
    fresh, fixed = _restarted(run, done, made[-1]) if restarted else _redone(run, done, made[-1], call.name)
    why = "started again" if restarted else "made up"
    run.messages.append(prompting.made_up_result_notice(run.ctx.task, source, value, fresh, fixed, why=why))
    return True


def made_up_again_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that takes two or more numbers from nowhere of an earlier made-up call again, after
    tools returned values since that no call used yet: `100 + 50 + 159` after `2 * (100 + 50)` and the lookups of
    899 and 159 (compose16's l08; the model never answered, so no answer check saw the made-up prices)."""
    if run.made_up_again_checked or not run.deps.settings.check_sources:
        return False
    done = [s for s in good_steps(run) if s.call is not None]
    steps = [(s.call.arguments, s.result or "") for s in done if s.call is not None]
    taken = argument_values(call.arguments) - _returned(run)  # a number a tool returned since is no longer made up
    waiting = open_results(steps)
    for index, unknown in made_up_inputs(run.ctx.task, steps, 2):
        again = sorted(unknown & taken)
        fresh = [r for _, r in steps[index + 1 :] if r in waiting]
        if len(again) >= 2 and fresh:
            return _hold_made_up_again(run, call, done[index], [plain(v) for v in again], fresh)
    return False


def _hold_made_up_again(run: Run, call: ToolCall, made: Step, again: list[str], fresh: list[str]) -> bool:
    run.made_up_again_checked, run.forced = True, frozenset({call.name})
    value = " and ".join(again)
    run.steps[-1].result, run.steps[-1].tool_error = f"not run: {value} were made up, no tool returned them", True
    run.notice("tool call takes made-up numbers again; not run", call=call.signature(), numbers=again)
    source = made.call or ToolCall(call.name, {})
    run.messages.append(prompting.made_up_result_notice(run.ctx.task, source, value, fresh, None, why="made up again"))
    return True


def _void_for(run: Run, source: ToolCall, call: ToolCall) -> bool:
    """Whether `source`'s result stands for nothing to `call`: made up, or started again by a conversion and
    taken by the same tool (the converter taking it is a conversion of the model's own, left to the checks)."""
    signature = source.signature()
    return signature in run.made_up_calls or (signature in run.restarted and source.name == call.name)


def _restarted(run: Run, done: list[Step], made: Step) -> tuple[list[str], ToolCall | None]:
    """(the result of the later call that took the same number of the task, `made`'s call on that result)."""
    source = made.call or ToolCall("", {})
    later = [(s.call.name, s.call.arguments, s.result or "") for s in done[done.index(made) + 1 :] if s.call]
    taken, result = stale_inputs(source.arguments, later, source.name)
    if not taken:
        return [], None
    # A factor of the model's own beside it was the unit step the conversion now does ("12 * 3 * 1000" for kg)
    arguments = with_result(source.arguments, taken, result)
    for number in argument_values(source.arguments) - _given(run):
        arguments = {k: (without_term(v, str(number)) or v) if isinstance(v, str) else v for k, v in arguments.items()}
    return [result], ToolCall(source.name, arguments)


def _redone(run: Run, done: list[Step], made: Step, tool: str) -> tuple[list[str], ToolCall | None]:
    """(the one-number values fetched since `made` that no call used yet, `made`'s call with its one invented
    number replaced by the one such value, or None where there is not exactly one of each)."""
    source = made.call or ToolCall(tool, {})
    invented = argument_values(source.arguments) - _given(run)
    later = [s for s in done[done.index(made) + 1 :] if s.call and s.call.signature() not in run.made_up_calls]
    waiting = open_results([(s.call.arguments, s.result or "") for s in done if s.call is not None])
    fresh = [r for r in (s.result or "" for s in later) if r in waiting and BARE_NUMBER.fullmatch(r.strip())]
    if len(invented) != 1 or len(fresh) != 1:
        return fresh, None
    return fresh, ToolCall(tool, with_result(source.arguments, [str(next(iter(invented)))], fresh[0]))


def _given(run: Run) -> set[float]:
    return given_numbers(run.ctx.task)


def beside_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that uses an earlier call's whole input beside that call's result ("3 * 4 *
    0.792516" after unit_convert(value=3) = 0.792516, for "How many gallons do 4 jugs of 3 liters hold?";
    agentcore.unfinished's `beside_result`): the result stands for the input. The next turn must call the same
    tool."""
    if run.beside_checked or not run.deps.settings.check_sources:
        return False
    earlier = [(s.call.name, s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    taken, result = beside_result(call.arguments, earlier, run.ctx.task)
    if not taken:
        return False
    run.beside_checked, run.forced = True, frozenset({call.name})
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {' and '.join(taken)} is counted again beside {result}", True
    run.notice("tool call uses an input beside the result that stands for it; not run", call=call.signature())
    fixed = {k: _without(v, taken, result, run.ctx.task) for k, v in call.arguments.items()}
    if fixed == call.arguments:
        fixed = {k: _swapped(v, taken, result, unused_task_numbers(run)) for k, v in call.arguments.items()}
    # sent again unchanged, the call runs as written out (`stale_again`), not as the double count it was
    run.stale_fix = ToolCall(call.name, fixed) if fixed != call.arguments else None
    run.messages.append(prompting.beside_notice(run.ctx.task, ToolCall(call.name, fixed), taken, result))
    return True


def _swapped(value: Any, taken: list[str], result: str, unused: list[str]) -> Any:
    """Where the counted-again number cannot be left out (a quotient), the result goes in its place and the one
    task number no call took in the result's: `26.2 / 42.164813` after 26.2 mi was converted to 42.164813 km, for
    the speed over 4 hours, is `42.164813 / 4` (independent12's cd31 was shown its own call as the example)."""
    if not isinstance(value, str) or len(taken) != 1 or len(unused) != 1:
        return value
    marks = {taken[0]: result.strip(), result.strip(): unused[0]}
    pattern = "|".join(rf"(?<![\w.]){re.escape(n)}(?![\w.])" for n in marks)
    if sorted(m.group() for m in re.finditer(pattern, value)) != sorted(marks):
        return value  # each of the two written exactly once, or the swap is not the call's meaning
    return re.sub(pattern, lambda m: marks[m.group()], value)


_SIGNED = re.compile(r"[\d)]\s*[-+]")  # a sum or difference, not a product
_SQUARE = re.compile(r"\b(?:square|squared|area)\b", re.IGNORECASE)


def _without(value: Any, taken: list[str], result: str, task: str) -> Any:
    """`value` with the one counted-again number left out of its sum or product, where that can be written; where
    that leaves the result alone, no step, and the task asks for a square, the number goes as the result it stands
    for: `8.2296 * 9` after 9 yd in m for the area of a square 9 yards a side is `8.2296 * 8.2296` (independent8's
    ca29 was shown `8.2296`). Only there: "5 km every morning for a full week" in miles was shown, and ran,
    `3.106856 * 3.106856` (independent14's cg14)."""
    shorter = without_term(value, taken[0]) if isinstance(value, str) and len(taken) == 1 else None
    square = _SQUARE.search(task) is not None
    if (
        shorter is not None
        and BARE_NUMBER.fullmatch(shorter.strip())
        and "*" in value
        and not _SIGNED.search(value)
        and square
    ):
        return re.sub(rf"(?<![\w.]){re.escape(taken[0])}(?![\w.])", lambda _: result.strip(), value)
    return value if shorter is None else shorter


def _stale(run: Run, call: ToolCall) -> tuple[list[str], str]:
    """(the earlier numbers the call takes, the result that belongs there): an earlier call's input, or a result
    a later call already used (agentcore.unfinished's `stale_inputs` and `superseded`)."""
    earlier = [(s.call.name, s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    taken, result = stale_inputs(call.arguments, earlier, call.name)
    return (taken, result) if taken else superseded(call.arguments, earlier)


def _beside(run: Run, call: ToolCall) -> bool:
    earlier = [(s.call.name, s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    return bool(beside_result(call.arguments, earlier, run.ctx.task)[0])


def stale_again(run: Run, call: ToolCall) -> ToolCall:
    """The call to run: after a stale notice, a call of that tool that again takes the earlier input and no
    result, or that gives only a number of its own (compose10's h17 was shown `9.84252 * 4` and wrote "36.32008",
    worked out wrongly in its head), runs as the call the notice spelled out (compose m31 was shown `8.04672 * 7`
    and wrote `5 * 7 * 7`)."""
    fix = run.stale_fix
    if fix is None or call.name != fix.name:
        return call
    run.stale_fix = None  # the model's next call of the tool is judged once
    if _stale(run, call)[0] or _beside(run, call):
        run.notice("tool call took the earlier input again; the call spelled out runs", call=call.signature(),
                   fixed=fix.signature())  # fmt: skip
        return fix
    if _worked_out(run, call):
        run.notice("tool call gave a number worked out in the head; the call spelled out runs", call=call.signature(),
                   fixed=fix.signature())  # fmt: skip
        return fix
    return call


def written_again(run: Run, call: ToolCall) -> ToolCall:
    """The call to run: after a notice that wrote the next call out (a portion's `215 + 107.5`, a square's
    `19.95 * 19.95`), a call of that tool that gives only a number of its own, or takes no number anyone gave,
    runs as the written one (shown `19.95 * 19.95`, the model wrote "39.9025", a square worked out wrongly in its
    head; shown `7.25 * 7.25`, it wrote `49.0 * 49.0`)."""
    fix = run.written_fix
    if fix is None or call.name != fix.name:
        return call
    run.written_fix = None  # the model's next call of the tool is judged once
    if not (_worked_out(run, call) or _from_nowhere(run, call)):
        return call
    run.notice("tool call gave a number worked out in the head; the call written out runs", call=call.signature(),
               fixed=fix.signature())  # fmt: skip
    return fix


def _from_nowhere(run: Run, call: ToolCall) -> bool:
    """The call's text arguments hold numbers, and none that the task gave or a result holds."""
    taken = {v for value in leaves(call.arguments) if isinstance(value, str) for v in values_in(value)}
    return bool(taken) and not taken & (_given(run) | _returned(run))


def _returned(run: Run) -> set[float]:
    """The numbers the run's good results hold."""
    return {v for step in good_steps(run) for v in values_in(step.result or "")}


def _worked_out(run: Run, call: ToolCall) -> bool:
    """Every string argument is one number that neither the task nor any result gives."""
    texts = [v for v in leaves(call.arguments) if isinstance(v, str)]
    known = values_in(run.ctx.task) | {n for s in good_steps(run) for n in values_in(s.result or "")}
    return bool(texts) and all(BARE_NUMBER.fullmatch(t.strip()) and not values_in(t) <= known for t in texts)


def asked_only(run: Run, call: ToolCall) -> ToolCall:
    """The call to run, less the optional arguments no one asked for (agentcore.unstated): the tool's defaults
    apply. Lists of enum values keep the values the conversation names (agentcore.enum_lists). Applied once the
    call checks have passed, since made-up optional values are their evidence that a call does not fit the task
    (`misfit`)."""
    spec = next((spec for spec in run.specs if spec.name == call.name), None)
    required = set(spec.parameters.get("required") or []) if spec is not None else set(call.arguments)
    lists = any(isinstance(v, list) for v in call.arguments.values())
    if spec is None:
        return call
    call = _filled(run, spec, call)
    if set(call.arguments) <= required and not lists and not _enum_values(spec, call):
        return call  # most calls: no optional argument, list or choice to judge, so the conversation is not read
    spoken = spoken_text(run)
    chosen = named_choices(call.arguments, spec.parameters, spoken)
    if chosen is not call.arguments:
        run.notice("an enum value no one named gave way to the one the conversation names", call=call.signature())
        call = ToolCall(call.name, chosen)
    arguments = named_only(call.arguments, spec.parameters, spoken)
    left_out = unstated(arguments, spec.parameters, spoken)
    if not left_out and arguments is call.arguments:
        return call
    fixed = ToolCall(name=call.name, arguments={k: v for k, v in arguments.items() if k not in left_out})
    run.notice("optional arguments no one asked for left out", call=call.signature(), fixed=fixed.signature())
    return fixed


def _filled(run: Run, spec: ToolSpec, call: ToolCall) -> ToolCall:
    """The call with the optional choices it left out that the user wrote (agentcore.enum_filled)."""
    if not fillable(call.arguments, spec.parameters):
        return call
    arguments = filled(call.arguments, spec.parameters, user_text(run))
    if arguments is call.arguments:
        return call
    run.notice("optional choices the user wrote filled in", call=call.signature())
    return ToolCall(call.name, arguments)


def _enum_values(spec: ToolSpec, call: ToolCall) -> bool:
    """Whether the call writes a value of a string enum or of documented choices (agentcore.enum_named)."""
    properties = spec.parameters.get("properties") or {}
    return any(isinstance(v, str) and v in choices(properties.get(k)) for k, v in call.arguments.items())


def mixed_units_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that combines a conversion's result with a number the task writes in another unit
    of its kind ("3175.14659 + 8" after 7 lb in g, for "7 lb 8 oz"; agentcore.mixed_units): the conversion of that
    number is shown, and the converter is the next turn's tool."""
    if run.mixed_checked or not run.deps.settings.check_unfinished:
        return False
    shaped = [(spec, converter(spec.parameters)) for spec in run.specs if spec.name != call.name]
    spec, shape = next(((s, c) for s, c in shaped if c is not None), (None, None))
    if spec is None or shape is None:
        return False
    done = [
        (s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None and s.call.name == spec.name
    ]
    found = unconverted_term(call.arguments, run.ctx.task, shape, done) if done else None
    if found is None:
        return False
    number, unit, result, reached = found
    run.mixed_checked, run.forced = True, frozenset({spec.name})
    _held(run, call, f"{plain(number)} is in {unit}, {result} in {reached}", "combines two units of one kind")
    names = (plain(number), unit, result, reached)
    conversion = conversion_of(spec.name, shape, number, unit, reached)
    run.mixed_held = (call, plain(number), conversion.signature())
    run.mixed_conversion = conversion
    run.messages.append(prompting.mixed_units_notice(run.ctx.task, conversion, names))
    return True


def _held(run: Run, call: ToolCall, why: str, what: str) -> None:
    """The last step, `call`, marked as not run for `why`, with a notice that the call `what`s."""
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {why}", True
    run.notice(f"tool call {what}; not run", call=call.signature())


def mixed_kinds_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that adds a count (of days, of words) to another tool's value ("75 + 7.25" for a
    mug bought every day; agentcore.mixed_kinds): the two are shown multiplied, and the same tool is next."""
    spec = next((spec for spec in run.specs if spec.name == call.name), None)
    if run.kinds_checked or not run.deps.settings.check_unfinished or spec is None or not computes(spec):
        return False
    counts = {spec.name: what for spec in run.specs if (what := counted(spec)) is not None}
    steps = [(s.call.name, s.result or "") for s in good_steps(run) if s.call is not None]
    found = count_summed(call.arguments, steps, counts) if counts else None
    if found is None:
        return False
    count, what, value, tool = found
    run.kinds_checked, run.forced = True, frozenset({call.name})
    _held(run, call, f"{count} counts {what}, {value} is from {tool}", "adds a count to a value of another kind")
    product = {k: f"{count} * {value}" if isinstance(v, str) else v for k, v in call.arguments.items()}
    run.messages.append(prompting.mixed_kinds_notice(run.ctx.task, ToolCall(call.name, product), found))
    return True


# The checks a call goes through before it runs, in order; the first that holds it back wins.
CALL_CHECKS: tuple[Callable[[Run, ToolCall], bool], ...] = (
    made_up_result_call,
    made_up_again_call,
    stale_call,
    beside_call,
    counted_twice_call,
    counts_multiplied_call,
    mixed_units_call,
    mixed_kinds_call,
    done_again_call,
    doubled_call,
    unsupplied_call,
    unfitting_call,
    closer_call,
    step_closer_call,
)
