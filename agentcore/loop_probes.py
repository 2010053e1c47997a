"""The probes the loop runs on a tool, as tool time in the run's ledger: the one alternative of a failed read-only
call that works (`probed`), and the task's words a read-only tool accepts that no call used, the items the task
still needs (`probed_items`, `pending_instead`). Moved out of `agentcore.loop`, whose turns call them."""

from __future__ import annotations

import time

from agentcore.conversions import conversion_instead
from agentcore.grounding import mentions
from agentcore.messages import CallPart, ToolCall, ToolSpec
from agentcore.named import resolved_call
from agentcore.probe import (
    alternatives,
    chosen,
    cut_alternatives,
    item_alternatives,
    outcomes,
    word_alternatives,
    word_key,
)
from agentcore.quotes import quoted
from agentcore.run_reads import good_steps, item_tools, items_after_repeat, untaken_quotes
from agentcore.run_state import Run
from agentcore.still_to_use import next_dates
from agentcore.unfetched import CONTROL, fetchable, placeholder_alternatives
from agentcore.unfinished import leaves, repeats_result, unsourced


async def probed(run: Run, call: ToolCall, error: str) -> tuple[ToolCall | None, str]:
    """The alternative of a failed read-only call that succeeds (agentcore.probe: the only one, the widest of
    nested ones, or the task's first item), if the policies let it through unchanged, and its kind ("enum", else
    "word"); None for none or several enum values. The probes themselves are
    not shown to the policies (Tool-Guard would plan for each): their results reach no one, and only the one that
    runs is checked. Probes are tool time. The winner is called once more by the loop, on purpose: its events,
    step and ledger then come from `execute_tool` like any call's (one extra read-only call, on a failure only)."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    if spec is None or run.messages[-1].role != "assistant":
        return None, ""
    own, asked = word_alternatives(call, spec, run.ctx.task, error)
    copied = placeholder_alternatives(call, spec, run.ctx.task, [s.result or "" for s in good_steps(run)])
    for kind, offered, task in (
        ("enum", alternatives(call, spec), ""),
        ("cut", cut_alternatives(call, spec), ""),
        ("word", own, ""),
        ("word", asked, run.ctx.task),
        ("word", copied, run.ctx.task),
    ):
        candidates = [c for c in offered if c.signature() not in run.seen_calls]  # a call made gives nothing new
        found = await timed_probes(run, candidates) if candidates else []
        if (one := chosen(found, task)) is not None:
            return (one, kind) if await run.deps.chain.before_tool(run.ctx, one) is one else (None, "")
    specs = {s.name: s for s in run.specs}
    done = [(s.call, specs[s.call.name], s.result or "") for s in good_steps(run) if s.call and s.call.name in specs]
    named = await resolved_call(call, error, run.specs, done, lambda cs: timed_outcomes(run, cs), task=run.ctx.task)
    if named is not None and await run.deps.chain.before_tool(run.ctx, named) is named:
        return named, "named"
    conversion = conversion_instead(run, call)  # "25 liters * 4": the words stand for the conversion due
    if conversion is not None and await run.deps.chain.before_tool(run.ctx, conversion) is conversion:
        return conversion, "conversion"
    return None, ""


async def probed_items(run: Run, answer: str) -> tuple[str, ...]:
    """For the unfinished check (`loop_checks.unused_words`): when the answer repeats the last result, of a
    read-only call with a word of the task as its argument, or brings a number no tool returned (the laptop's
    899 fetched, the printer's price guessed: compose10's h08), the task's other words that the same tool accepts
    and no call used (agentcore.probe.item_alternatives): an item the task still needs."""
    done = good_steps(run)
    checked = run.unfinished_results
    if not done or run.final_only or not run.deps.settings.check_unfinished or len(checked) >= 2:
        return ()
    last, task = done[-1], run.ctx.task
    spec = next((s for s in run.specs if last.call is not None and s.name == last.call.name), None)
    if (
        spec is None
        or last.call is None
        or last.result in checked
        or not (repeats_result(task, answer, last.result or "") or _guessed(run, answer))
    ):
        return ()
    found = _item_words(last.call, await other_items(run, last.call, spec))
    # all calls to one tool: a computation on made-up or bare numbers, `unfetched.one_made_up`'s to send back
    if found or len({s.call.name for s in done if s.call}) < 2 or not repeats_result(task, answer, last.result or ""):
        return found
    return await _never_fetched(run, last.call.name)


async def _never_fetched(run: Run, last: str) -> tuple[str, ...]:
    """The task's words that an offered lookup accepts (`unfetched.fetchable`) and that no call used, nor a quote
    holds, when the answer repeats the result of `last`, a computation: "Car rental is $45 per day and I also
    need 2 backpacks" answered with `45 + 2 * 14`, no backpack looked up (independent12's cd24). The last call
    named no item, so `other_items` had none to stand beside."""
    used = " ".join(_used_values(run))
    spans = " ".join(quoted(run.ctx.task))
    found = await fetchable(run, {last}, lambda calls: timed_outcomes(run, calls))
    return tuple(w for w in found if not mentions(used, w) and not mentions(spans, w))


def _used_values(run: Run) -> list[str]:
    """Every argument value a call used or the model proposed (a rewritten call's own words count as used)."""
    proposed = [m.part.call for m in run.messages if isinstance(m.part, CallPart) and m.part.call]
    calls = [*proposed, *(s.call for s in good_steps(run) if s.call)]
    return [str(v) for c in calls for v in leaves(c.arguments)]


def _item_words(call: ToolCall, found: list[ToolCall]) -> tuple[str, ...]:
    """The value each of `found` has in place of `call`'s word argument."""
    return tuple(str(next((v for k, v in c.arguments.items() if v != call.arguments.get(k)), "")) for c in found)


async def other_items(run: Run, call: ToolCall, spec: ToolSpec) -> list[ToolCall]:
    """The task's words, sharing none with a value any call used or proposed, that the read-only tool `call`
    went to accepts in place of its word argument from the task (agentcore.probe.item_alternatives): items the
    task still needs. None when the tool also accepts `CONTROL`: a tool that takes any text (word_count) names no
    item by taking one."""
    candidates = item_alternatives(call, spec, run.ctx.task, _used_values(run))
    if not candidates:
        return []
    control = ToolCall(
        call.name, {k: CONTROL if v != call.arguments.get(k) else v for k, v in candidates[0].arguments.items()}
    )
    found = await timed_probes(run, [control, *candidates])
    return [] if control in found else found


async def listed_next(run: Run, call: ToolCall) -> None:
    """With no plan, after a read-only call fetched an item the task names, while the same tool accepts others the
    task names that no call used (`other_items`), once an answer was sent back for an item already: the next turn
    must call that tool, not answer. Sent back after each lookup, "a monitor, a keyboard and a mouse" for 4
    workstations spent three turns on answers that only repeated a price, and the eighth turn answered the
    mouse's (independent14's cg19). A repeat of the call runs as the next item (`pending_instead`)."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    settings = run.deps.settings
    if spec is None or not spec.read_only or run.plan.active or run.final_only or not settings.check_unfinished:
        return
    if not run.unfinished_named or call.name not in item_tools(run) & run.offered:
        return  # sent back once for an item already: the model answers after each lookup
    waiting = [c for c in await other_items(run, call, spec) if c.signature() not in run.seen_calls]
    if waiting:
        run.forced = frozenset({call.name})
        run.notice("the task names items this tool has not fetched; only it is offered next",
                   items=list(_item_words(call, waiting)))  # fmt: skip


async def pending_instead(run: Run, call: ToolCall) -> ToolCall | None:
    """A repeat of a successful read-only call, without a plan, while the task names other items the same tool
    accepts (`other_items`) that no call fetched: the call for the first of them runs in its place, as a failed
    call's one working value does (agentcore.probe). Told "Call a tool for pens next", the model looked the
    notebooks up again twice (compose13's b07). Probed on a repeat only, not after every lookup. Named in the
    observation instead, the items sent the model to the calculator with their names (compose10's h08). A repeat of a
    conversion after a call was held for a number in another unit (agentcore.mixed_units) runs as the conversion
    that hold showed, a repeat on one of the task's quotes runs on the first quote no call took, and one on the
    task's dates on the dates written after them (`_later_dates`). With a plan, a repeat while its next step names an
    item no call fetched runs for that item (`_step_item`)."""
    due = run.mixed_conversion
    if due is not None and due.name == call.name and due.signature() not in run.seen_calls:
        return due  # told "12 is in lb", the model converted the 40 oz again (independent12's cd20)
    other = _other_quote(run, call) or _later_dates(run, call)
    if other is not None:
        return other
    spec = next((s for s in run.specs if s.name == call.name), None)
    settings = run.deps.settings
    if spec is None or not spec.read_only or not settings.check_unfinished:
        return None
    if run.plan.active:
        return _step_item(run, call, spec)
    if call.signature() in run.failed_calls:
        return None
    waiting = [c for c in await other_items(run, call, spec) if c.signature() not in run.seen_calls]
    return waiting[0] if waiting else None


def _step_item(run: Run, call: ToolCall, spec: ToolSpec) -> ToolCall | None:
    """The repeated call with the item the plan's next step still needs (`items_after_repeat`) in its word
    argument: told "It needs coffee mug", the model looked the capital of Argentina up twice more and answered 2
    (independent14's cg20). `lookup(table="capitals", key="coffee mug")` then fails, and the failed call's probe
    finds the table that has it."""
    items = items_after_repeat(run, call)
    key = word_key(call, spec, run.ctx.task) if items else None
    if key is None:
        return None
    item = ToolCall(call.name, {**call.arguments, key: items[0]})
    return item if item.signature() not in run.seen_calls else None


def _guessed(run: Run, answer: str) -> bool:
    done = [step for step in good_steps(run) if step.call is not None]
    calls = [step.call.arguments for step in done if step.call is not None]
    return bool(unsourced(run.ctx.task, answer, [step.result or "" for step in done], calls))


async def timed_probes(run: Run, candidates: list[ToolCall]) -> list[ToolCall]:
    """The candidates that work; their time is tool time in the run's ledger (`timed_outcomes`)."""
    results = await timed_outcomes(run, candidates)
    return [candidate for candidate, result in zip(candidates, results, strict=True) if result is not None]


async def timed_outcomes(run: Run, candidates: list[ToolCall]) -> list[str | None]:
    """Each candidate's result, None where it failed (agentcore.probe.outcomes); tool time, as for probes."""
    started = time.perf_counter()
    try:
        return await outcomes(run.deps.toolset, run.ctx, candidates)
    finally:
        run.ledger.tool_seconds += time.perf_counter() - started


def _later_dates(run: Run, call: ToolCall) -> ToolCall | None:
    """The repeated read-only call on the dates the task writes after its own (`still_to_use.next_dates`): the
    days from 2024-01-01 to 2024-03-15 counted three times, and those to 2024-12-25 never (independent14's cg21)."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    arguments = next_dates(run.ctx.task, call.arguments) if spec is not None and spec.read_only else None
    later = ToolCall(call.name, arguments) if arguments is not None else None
    return later if later is not None and later.signature() not in run.seen_calls else None


def _other_quote(run: Run, call: ToolCall) -> ToolCall | None:
    """The repeated call with the first quote of the task that no call took in place of the quote it repeats:
    the intro counted three times while the conclusion, quoted beside it, never was (independent12's cd21)."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    spans, left = quoted(run.ctx.task), untaken_quotes(run)
    keys = [key for key, value in call.arguments.items() if isinstance(value, str) and value in spans]
    if spec is None or not spec.read_only or len(keys) != 1 or not left:
        return None
    other = ToolCall(call.name, {**call.arguments, keys[0]: left[0]})
    return other if other.signature() not in run.seen_calls else None
