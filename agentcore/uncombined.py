"""Results fetched but not combined: "a laptop and a tablet" with both prices looked up and one answered, or two
projects' day counts and the second answered. The answer check that sends such an answer back, with the numbers
still to use and the tools that can combine them (moved out of `agentcore.answer_checks`, which runs it)."""

from __future__ import annotations

import re

from agentcore import prompting
from agentcore.bare_counts import unpaired
from agentcore.comparisons import asks_difference, asks_ratio, asks_total
from agentcore.grounding import counted_items, listed_together, mentions
from agentcore.portions import adds, adds_or_scales
from agentcore.result import Step
from agentcore.run_reads import candidates, good_steps, item_tools, used_text
from agentcore.run_state import Run
from agentcore.tool_order import computes
from agentcore.unfinished import (
    argument_values,
    leaves_out,
    made_up_steps,
    open_results,
    repeats_result,
    unsourced,
    unused_numbers,
    values_in,
)


def uncombined_check(run: Run, answer: str) -> bool:
    """Results of one tool are fetched (both prices) but not combined, and the answer restates one or guesses."""
    uncombined = uncombined_results(run, answer)
    if uncombined:
        # the tool that gave them does not combine them: two day counts asked again of date_diff (ca20)
        every = frozenset(spec.name for spec in run.specs)
        gave = {s.call.name for s in good_steps(run) if s.call is not None and s.result in uncombined}
        run.forced = every - gave if len(gave) == 1 and not _computes(run, next(iter(gave))) else every
        # "3 monitors and 2 keyboards": the counts still to use; a call on made-up inputs used none ("3 + 2 * 5")
        calls = [s.call for s in good_steps(run) if s.call is not None]
        pending = unused_numbers(run.ctx.task, [c.arguments for c in calls if c.signature() not in run.made_up_calls])
        steps = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
        pending += [n for n in unpaired(run.ctx.task, steps) if n not in pending]  # "2 + 4" for 2 desks, 4 chairs
        pending = [n for n in pending if not counts_results(run, n, len(uncombined))]
        counted = counted_items(run.ctx.task, pending, steps)  # ... each with its item's result: "3 * 215"
        run.forced = computing(run) if counted else run.forced
        formulas = frozenset(spec.name for spec in run.specs if computes(spec))
        run.forced = formulas if len(gave) > 1 and formulas else run.forced  # two fetchers' results: compute them
        run.notice("final answer repeats one of the results still to combine", results=uncombined, numbers=pending)
        notice = prompting.unfinished_notice(run.ctx.task, counted or pending, uncombined[-1], (), uncombined)
        run.messages.append(notice)
    return bool(uncombined)


def _producers(run: Run, done: list[Step], waiting: set[str]) -> set[str]:
    """The tools other than formula tools (agentcore.tool_order) whose results wait, none on made-up inputs."""
    formulas = {spec.name for spec in run.specs if computes(spec)}
    return {
        s.call.name
        for s in done
        if s.call is not None
        and s.call.name not in formulas
        and (s.result or "").strip() in waiting
        and s.call.signature() not in run.made_up_calls
    }


def _left_beside(run: Run, done: list[Step], producers: set[str]) -> set[str]:
    """The producers one of whose results the last call, a formula, took while another of theirs waits: two word
    counts, and `7 / 50` for what percent of a 50-word limit the two texts use together (independent12's cd21
    answered 14%, the 8 never used)."""
    last = done[-1].call
    if last is None or not any(spec.name == last.name and computes(spec) for spec in run.specs):
        return set()
    taken = argument_values(last.arguments)
    return {
        tool
        for tool in producers
        if any(s.call is not None and s.call.name == tool and values_in(s.result or "") & taken for s in done[:-1])
    }


def _computes(run: Run, tool: str) -> bool:
    """Whether the run called `tool` with arithmetic: a calculator's results are combined by the calculator."""
    return any(s.call is not None and s.call.name == tool and adds_or_scales(s.call.arguments) for s in good_steps(run))


def counts_results(run: Run, number: str, results: int) -> bool:
    """Whether the task's `number` counts the results still to combine, not an item fetched: the 2 of "the 2
    projects" beside their two day counts (independent8's ca20 was told to use 2 as well, and counted again)."""
    if not number.isdigit() or int(number) != results:
        return False
    # "the 2 projects", "those 3 trips": a definite count points back at things named; "for 2 people" does not
    after = re.search(rf"\b(?:the|these|those|both|all)\s+{number}\s+([a-z]+)", run.ctx.task, re.IGNORECASE)
    return after is not None and not mentions(used_text(run), after.group(1))


def combined_count(run: Run) -> int:
    """How many earlier results the last good call took as its inputs (2 for `29 * 28` after two day counts)."""
    done = [s for s in good_steps(run) if s.call is not None]
    if not done or done[-1].call is None:
        return 0
    taken = argument_values(done[-1].call.arguments)
    earlier = {v for s in done[:-1] for v in values_in(s.result or "")}
    return len(taken & earlier)


def computing(run: Run) -> frozenset[str]:
    """The tools the next step may call once every count has its item's value: those that fetched none (a model
    told "5 * 8.75 and 2 * 19.95" looked up the mouse again). All tools when every tool fetched an item."""
    every = frozenset(spec.name for spec in run.specs)
    return every - item_tools(run) or every


def uncombined_results(run: Run, answer: str) -> list[str]:
    """The results still to combine (two looked-up prices that no call has used yet, or a product and a price)
    when the answer restates only some of them ("1.2 + 1.2 = 2.4" for 329 and 1.2) or brings a number no tool
    returned (their sum worked out in the model's head); once, and once more after a new step (`4 * 45.9` done,
    19.95 still beside it). The items are the task's when it lists them together ("a laptop and a tablet", "a
    pen than a notebook") or when the item probe named the second one (`Run.items_probed`: "more than a tablet")."""
    done = [s for s in good_steps(run) if s.call is not None]
    fired = run.combined_at
    if run.final_only or not run.deps.settings.check_sources or not done:
        return []
    if len(fired) >= 2 or (fired and (fired[-1] >= len(done) or adds(done[-1].call and done[-1].call.arguments))):
        return []  # once more only after a step that did not add: "2697 + 90" combined, "4 * 45.9" did not
    steps = [(s.call.arguments, s.result or "") for s in done if s.call is not None]
    made = set(made_up_steps(run.ctx.task, steps)) | {
        i for i, s in enumerate(done) if s.call and s.call.signature() in run.made_up_calls
    }
    waiting = set(open_results(steps))
    # The last tool's results, and those of a tool that fetched an item: "4 pens and a notebook" as `4 * 1.2`
    # leaves the notebook's 3.5 beside the calculator's 4.8.
    kinds = {done[-1].call.name if done[-1].call else ""} | item_tools(run)
    producers = _producers(run, done, waiting)
    kinds |= producers if len(producers) > 1 else _left_beside(run, done, producers)
    first = {s.call.signature(): i for i, s in reversed(list(enumerate(done))) if s.call is not None}
    same = [  # a call made again (the repeat notice) brings no second value
        s.result or ""
        for i, s in enumerate(done)
        if s.call is not None
        and s.call.name in kinds
        and s.result in waiting
        and i not in made
        and first[s.call.signature()] == i
    ]
    together = run.items_probed or listed_together(run.ctx.task, candidates(run), used_text(run))
    # or the task asks for a total of what the calls counted: two projects' days (independent8's ca20); or their
    # difference or ratio: "what is the difference between those two counts?" (independent14's cg21)
    together = together or asks_total(run.ctx.task) or asks_difference(run.ctx.task) or asks_ratio(run.ctx.task)
    # or two different tools fetched them: a day count and a price per day (independent10's cc24 answered the price)
    together = together or len(producers) > 1
    if len(same) < 2 or not together:
        return []
    calls = [arguments for arguments, _ in steps]
    guessed_sum = unsourced(run.ctx.task, answer, [result for _, result in steps], calls)
    # or a made-up call's result answered while the fetched values wait (compose f07: `4 + 1000` after both prices)
    on_made_up = any(repeats_result(run.ctx.task, answer, done[i].result or "") for i in made)
    if not (leaves_out(answer, same) or guessed_sum or on_made_up):
        return []
    fired.append(len(done))
    return same
