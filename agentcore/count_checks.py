"""Call checks about counts and totals (issue #12): a sum's term or a product's count taken again, two items'
counts multiplied together, and a call that totals every counted item, after which only an answer is offered.
`loop_checks.CALL_CHECKS` runs the first two before a call; the loop runs `answer_after_total` after one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore import prompting
from agentcore.bare_counts import counted_item, counts_multiplied, item_values, totals_every_item
from agentcore.counted_twice import counted_twice
from agentcore.run_reads import good_steps

if TYPE_CHECKING:
    from agentcore.messages import ToolCall
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


def answer_after_total(run: Run, call: ToolCall) -> None:
    """After a call that totals every counted item (agentcore.bare_counts.totals_every_item), only a final answer
    is offered: the model went on past the total, looked an item up again and counted the total as a price."""
    settings = run.deps.settings
    if run.final_only or not settings.check_unfinished or settings.output_schema is not None:
        return
    current = run.steps[-1]
    earlier = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None and s is not current]
    if totals_every_item(run.ctx.task, earlier, call.arguments):
        run.final_only = True
        run.notice("a call totalled every counted item; only a final answer is offered", call=call.signature())
