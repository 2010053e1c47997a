"""Call checks about counts and totals (issue #12): a sum's term or a product's count taken again, two items'
counts multiplied together, a complete calculation done again on its own result, and a call that totals every
counted item, after which only an answer is offered. `loop_checks.CALL_CHECKS` runs the first three before a call;
the loop runs `answer_after_total` after one, and `done_again_answer` on an answer with a number of its own."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from agentcore import prompting
from agentcore.bare_counts import counted_item, counts_multiplied, item_values, totals_every_item
from agentcore.counted_twice import counted_twice
from agentcore.done_again import ASKS_AGAIN, again_in_call, again_in_head, last_computation
from agentcore.messages import ToolCall
from agentcore.run_reads import good_steps
from agentcore.unfinished import (
    BARE_NUMBER,
    argument_values,
    numbers_in,
    numbers_written,
    open_results,
    unused_numbers,
    unused_parts,
    values_in,
    with_tool_value,
)

Computation = tuple[str, str, frozenset[float]]  # an expression, its result, the earlier results it took

if TYPE_CHECKING:
    from agentcore.result import Step
    from agentcore.run_state import Run


def counted_twice_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that adds an earlier sum's result and one of that sum's terms (`899 + 1058` after
    `899 + 159` = 1058), or multiplies a product's result by its count again (`3 * 6.803886` after `3 * 2.267962`;
    agentcore.counted_twice). The next turn may answer or call any tool."""
    if run.counted_twice_checked or not run.deps.settings.check_sources:
        return False
    earlier = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    found = counted_twice(call.arguments, earlier, run.ctx.task)
    if found is None:
        return False
    value, total, expression, how = found
    run.counted_twice_checked = True
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {total} already counts {value}", True
    run.notice(f"tool call {how} a result by one of its own terms; not run", call=call.signature(), value=value)
    run.messages.append(prompting.counted_twice_notice(run.ctx.task, value, total, expression, how))
    return True


def counts_multiplied_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that multiplies the counts of two different items together (`3 * 2 + 45.9` for "3
    keyboards and 2 webcams": compose23's ad07); the notice writes each count with its own item's value, or names
    the item still to fetch, and the next turn may call any tool."""
    if run.counts_multiplied_checked or not run.deps.settings.check_sources:
        return False
    earlier = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    found = counts_multiplied(run.ctx.task, call.arguments, earlier)
    if found is None:
        return False
    run.counts_multiplied_checked = True
    values = item_values(run.ctx.task, earlier)
    terms = [f"{count} * {values[count]}" if count in values else "" for count in found]
    items = [counted_item(run.ctx.task, count) for count in found]
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {found[0]} and {found[1]} count different items", True
    run.notice("tool call multiplies the counts of two items together; not run", call=call.signature())
    run.messages.append(prompting.counts_multiplied_notice(run.ctx.task, call, list(found), items, terms))
    return True


def counts_again(run: Run, call: ToolCall) -> ToolCall:
    """After the hold above, a call that multiplies the same two counts together again, with both items' values
    fetched and no other number in it, runs as each count times its own item's value: held for `3 * 2 + 45.9`,
    the model looked the mouse up and ran `3 * 2 + 19.95` for "3 keyboards and 2 mice" (independent14's cg13)."""
    if not run.counts_multiplied_checked or len(call.arguments) != 1:
        return call
    ((key, value),) = call.arguments.items()
    earlier = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    found = counts_multiplied(run.ctx.task, call.arguments, earlier) if isinstance(value, str) else None
    values = item_values(run.ctx.task, earlier) if found is not None else {}
    if found is None or not all(count in values for count in found):
        return call
    known = {round(float(n), 12) for n in [*found, *(values[count] for count in found)]}
    if not values_in(str(value)) <= known:
        return call  # another number: a term the sum of the two items would lose
    fixed = ToolCall(call.name, {key: " + ".join(f"{count} * {values[count]}" for count in found)})
    run.notice("tool call multiplied the counts of two items again; each count runs with its item's value",
               call=call.signature(), fixed=fixed.signature())  # fmt: skip
    return fixed


def answer_after_total(run: Run, call: ToolCall) -> None:
    """After a call that totals every counted item (agentcore.bare_counts.totals_every_item), only a final answer
    is offered: the model went on past the total, looked an item up again and counted the total as a price."""
    settings = run.deps.settings
    if run.final_only or not settings.check_unfinished or settings.output_schema is not None:
        return
    current = run.steps[-1]
    earlier = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None and s is not current]
    if totals_every_item(run.ctx.task, earlier, call.arguments):
        run.final_only, run.total = True, (current.result or "").strip()
        run.notice("a call totalled every counted item; only a final answer is offered", call=call.signature())


def total_answer(run: Run, answer: str) -> str | None:
    """The total, when the answer after it writes one other number that no tool returned: offered only an answer
    after `6 * 3.5 + 3 * 8.75` = 47.25, the model answered 147.25, adding the 100 it had made up in its first call
    (compose35's ap07, held out). None when the answer is the total, or restates another result (the checks of
    results moved past judge that)."""
    written = numbers_written(answer)
    total = run.total
    if not run.final_only or total is None or not BARE_NUMBER.fullmatch(total) or len(written) != 1:
        return None
    value = float(written[0])
    results = {v for step in good_steps(run) for v in values_in(step.result or "")}
    if value in results or abs(value - float(total)) < 1e-9:
        return None
    run.notice("final answer after the total wrote a number no tool returned; the total answers", answer=answer)
    return with_tool_value(answer, written, total)


def done_again_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that does the run's last calculation again on its own result (`174.9 + 174.9 *
    0.10` after `159 + 159 * 0.10` = 174.9: compose28's ai13; agentcore.done_again). When that calculation was
    complete, only an answer is offered next; otherwise the notice names what is still to use (`3 * 425 + 2 *
    425` after `3 * 85 + 2 * 85` = 425, the monitors' 215 unused: compose26's ag07)."""
    found = None if run.done_again_checked else last_calculation(run, run.steps[-1])
    if found is None or not again_in_call(call.arguments, *found[0]):
        return False  # the shape first: what is still to use reads the task again (units, parts)
    (expression, result, _), steps = found
    pending = still_to_use(run, found[0], steps)
    run.done_again_checked, run.final_only = True, not pending
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {expression} again, on its own result {result}", True
    run.notice("tool call does the last calculation again on its result; not run", call=call.signature())
    run.messages.append(prompting.done_again_notice(run.ctx.task, expression, result, pending))
    return True


def done_again_answer(run: Run, answer: str) -> str | None:
    """The complete calculation's result, when the answer's one number is that calculation done again on its
    result in the model's head (262144, `4096 * 64`, after `64 * 64` = 4096: compose28's ai15); None otherwise."""
    written = numbers_written(answer)
    found = last_calculation(run) if len(written) == 1 else None
    worked = again_in_head(written[0], *found[0]) if found is not None else None
    if found is None or worked is None or still_to_use(run, *found):
        return None
    run.notice("final answer did the complete calculation again on its result; the result answers", worked=worked)
    return with_tool_value(answer, written, found[0][1])


def _written_twice(task: str) -> set[float]:
    """The numbers the task writes more than once, with their fractions for a percentage ("20%" as 0.2)."""
    counts = Counter(round(abs(n), 12) for n in numbers_in(task))
    twice = {value for value, count in counts.items() if count > 1}
    return twice | {round(value / 100, 12) for value in twice}


def last_calculation(run: Run, current: Step | None = None) -> tuple[Computation, list[tuple[Any, str]]] | None:
    """The run's last calculation (its expression, result, and the tool results it took), with the (arguments,
    result) steps it is read among. None for a task that asks for a step again ("twice"), or whose number in the
    calculation it writes twice, and where the arithmetic checks are off or the output is typed."""
    settings = run.deps.settings
    if not settings.check_unfinished or settings.output_schema is not None or ASKS_AGAIN.search(run.ctx.task):
        return None
    seen: set[str] = set()
    done: list[ToolCall] = []
    results: list[str] = []
    for step in good_steps(run):  # a repeated call counts once: its result was no new value
        signature = step.call.signature() if step.call is not None else ""
        if step.call is None or step is current or signature in seen or signature in run.made_up_calls:
            continue
        seen.add(signature)
        done.append(step.call)
        results.append(step.result or "")
    # Calculations on the task's numbers alone, before anything was fetched, were done over with the fetched
    # values ("10 + 0.10" before the printer's price: compose28's ai13); their numbers count only if used again.
    first = next((i for i, c in enumerate(done) if c.name != done[-1].name), 0)
    steps = [(c.arguments, result) for c, result in zip(done[first:], results[first:], strict=True)]
    last = last_computation(steps)
    if last is None or _written_twice(run.ctx.task) & argument_values(last[0]):
        return None  # "20% off, and 20% off the sale price": the same step twice, as the task asks
    return last, steps


def still_to_use(run: Run, last: Computation, steps: list[tuple[Any, str]]) -> list[str]:
    """The other results no later call used, and the numbers and parts of the task that went into no call. With
    none, the last calculation completes the task by every measure the checks have."""
    calls = [arguments for arguments, _ in steps]
    called = {step.call.name for step in good_steps(run) if step.call is not None}
    docs = " ".join(f"{spec.name} {spec.description}" for spec in run.specs if spec.name in called)
    pending = [result for result in open_results(steps) if result != last[1]]
    return pending + unused_numbers(run.ctx.task, calls) + unused_parts(run.ctx.task, calls, docs)
