"""A first call that computes with numbers from nowhere, while the task names items a tool can fetch: held back.

Of the 25 tasks agentcore failed in the held-out compose slices 13 to 19, 10 began the same way: the calculator on
prices the model made up, before any lookup. "What do 5 usb cables and 2 mice cost altogether?" opened with
`calculator("5 + 2 * 3")`, "Which costs more, a tablet or a printer, and by how much?" with `"100 + 200"`. The
answer checks caught the made-up answer (agentcore.unfetched), but only after it had cost two of the run's turns,
and its result stayed in the conversation, where the model took it up again (`"159 - 100"` after the lookups).

So the run's first call, when one of its numbers is in neither the task nor any result, is probed as the answer
check probes (`unfetched.fetchable`): when another offered read-only tool accepts the task's words, those are
items to fetch, and the call does not run; the notice names them and the next turn must call another tool. A
first call whose made-up number is a constant the model knows ("3.5 * 60" for minutes in 3.5 hours) runs, since
no tool fetches anything the task names. Probed once per run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore import prompting
from agentcore.messages import ToolCall
from agentcore.run_reads import good_steps
from agentcore.unfetched import Probe, fetchable
from agentcore.unfinished import argument_numbers, made_up_inputs, plain

if TYPE_CHECKING:
    from agentcore.run_state import Run


async def held_first(run: Run, call: ToolCall, probe: Probe) -> bool:
    """Hold back `call` when it is the run's first and computes with numbers from nowhere that items the task
    names, fetched by another offered tool, should supply."""
    settings = run.deps.settings
    if run.fetch_first_checked or not (settings.check_sources and settings.fetch_first) or run.final_only:
        return False
    if settings.output_schema is not None or any(step.call is not None for step in good_steps(run)):
        return False
    made = made_up_inputs(run.ctx.task, [(call.arguments, "")], 1)
    if not made:
        return False
    run.fetch_first_checked = True
    items = await fetchable(run, {call.name}, probe)
    if not items:
        return False
    ordered = dict.fromkeys(round(abs(v), 12) for v in argument_numbers(call.arguments))
    numbers = [plain(v) for v in ordered if v in made[0][1]]
    tools = [spec.name for spec in run.specs if spec.name != call.name]
    value = " and ".join(numbers)
    run.steps[-1].result, run.steps[-1].tool_error = f"not run: {value} would be made up; no tool returned it", True
    run.forced = frozenset(tools)
    run.notice("first call computes with made-up numbers; the task's items are to be fetched first",
               call=call.signature(), numbers=numbers, items=list(items))  # fmt: skip
    run.messages.append(prompting.made_up_notice(run.ctx.task, numbers, "", tools, items, call=call))
    return True
