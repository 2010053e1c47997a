"""What the loop's checks read from a run (`agentcore.run_state.Run`): its good steps, the task's words no call
used yet, and the tools that fetched one of the task's items. Shared by the answer checks
(`agentcore.answer_checks`) and the call checks (`agentcore.loop_checks`)."""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING

from agentcore.done_again import is_arithmetic
from agentcore.grounding import mentions, parallel_unused, task_words
from agentcore.messages import NoticePart, SystemPart, TaskPart
from agentcore.quotes import quoted
from agentcore.result import Step
from agentcore.unfinished import BARE_NUMBER, leaves, open_results, unused_numbers

if TYPE_CHECKING:
    from agentcore.messages import ToolCall
    from agentcore.run_state import Run


REPEATED = "repeated call: not executed again"  # a step's note: its result is an earlier call's, shown again


def good_steps(run: Run) -> list[Step]:
    return [step for step in run.steps if step.call is not None and step.result is not None and not step.tool_error]


def unused_task_numbers(run: Run) -> list[str]:
    """The task's numbers that no good call has taken yet."""
    return unused_numbers(run.ctx.task, [s.call.arguments for s in good_steps(run) if s.call is not None])


def new_steps(run: Run) -> list[Step]:
    """The good steps less the repeats: a repeated call shows an old result again, which makes it no newer. The
    opening `350 / 8 * 1000` = 43750, repeated after the conversion to 0.35, made 43750 "the latest tool result"
    in the notices, and the answer in its place (compose28's ai17)."""
    return [step for step in good_steps(run) if REPEATED not in step.notes]


def results_since(run: Run, signature: str) -> list[tuple[ToolCall, str]]:
    """The calls, with their one-number results, that ran well after the first call with this signature: what a
    failed call repeated unchanged ("price - price_in_dollars") could now be written with."""
    first = next((i for i, step in enumerate(run.steps) if step.call and step.call.signature() == signature), None)
    later = run.steps[first + 1 :] if first is not None else []
    good = [step for step in later if step.call is not None and step.result is not None and not step.tool_error]
    return [(step.call, (step.result or "").strip()) for step in good if step.call and _one_number(step.result)]


def opened_for_nothing(run: Run) -> set[str]:
    """The signatures of the run's opening calculations (before any other tool ran) whose results no later call
    took: `10 * (1 - 0.10)` = 9 before the desk's price for "knock 10 percent off it" (compose29's aj14) applied
    the task's numbers to nothing the task asks about, so they still count as unused."""
    done = [step for step in good_steps(run) if step.call is not None]
    first = done[0].call.name if done and done[0].call is not None else ""
    opening = list(itertools.takewhile(lambda step: step.call is not None and step.call.name == first, done))
    if len(opening) == len(done):
        return set()
    waiting = set(open_results([(step.call.arguments, step.result or "") for step in done if step.call is not None]))
    return {
        step.call.signature()
        for step in opening
        if step.call is not None
        and (step.result or "").strip() in waiting
        and any(is_arithmetic(leaf) for leaf in leaves(step.call.arguments) if isinstance(leaf, str))
    }


def _one_number(result: str | None) -> bool:
    return BARE_NUMBER.fullmatch((result or "").strip()) is not None


def unused_words(run: Run) -> list[str]:
    """The task's own content words (not the tools' docs, not an instruction verb) that no call or result has,
    standing where a used one stands: "3 monitors and 2 keyboards" after a lookup of monitors names keyboards;
    else those the last read-only tool accepts (`Run.probed_items`: "... than a tablet" after the laptop)."""
    listed = [word for word in listed_unused(run) if word not in run.unfetchable]
    return listed or list(run.probed_items) or untaken_quotes(run)


def untaken_quotes(run: Run) -> list[str]:
    """The texts the task quotes that no call took, where a call took another: an intro and a conclusion, each
    quoted, and only the intro counted (independent12's cd21, "Together, what percent of my 50-word limit")."""
    spans = quoted(run.ctx.task)
    texts = [leaf for s in good_steps(run) if s.call is not None for leaf in leaves(s.call.arguments)]
    taken = [span for span in spans if any(isinstance(text, str) and span in text for text in texts)]
    return [span for span in spans if span not in taken] if taken else []


def listed_unused(run: Run) -> list[str]:
    """The task's words that no call used, standing where a used one stands (`grounding.parallel_unused`)."""
    return parallel_unused(run.ctx.task, candidates(run), used_text(run))


def candidates(run: Run) -> list[str]:
    docs = " ".join(f"{spec.description} {' '.join(spec.parameters.get('properties', {}))}" for spec in run.specs)
    return task_words(run.ctx.task, docs, {})


def used_text(run: Run) -> str:
    """The good calls' arguments and results, as one text to find the task's words in."""
    return " ".join(
        f"{json.dumps(s.call.arguments, ensure_ascii=False)} {s.result or ''}" for s in good_steps(run) if s.call
    )


def item_tools(run: Run) -> frozenset[str]:
    """The tools a good call gave one of the task's own words to ("desk lamp" to lookup): those that fetch an item,
    so the one an item still to get needs. The calculator a price went into is not one (it added 32.4 again)."""
    words = candidates(run)
    return frozenset(
        step.call.name
        for step in good_steps(run)
        if step.call is not None
        and any(isinstance(v, str) and any(mentions(v, w) for w in words) for v in leaves(step.call.arguments))
    )


def unused_items(run: Run) -> list[str]:
    """The task's own content words that no call or result has (the candidates for values still to get)."""
    used = used_text(run)
    return [word for word in candidates(run) if not mentions(used, word)]


def pending_again(run: Run, signature: str) -> tuple[str, ...]:
    """The numbers the unfinished notice named on the turn just before, when this repeat fetched again the result
    that answer restated: told only "call a different tool, or answer", the model answered that result again and
    the notice, which fires once, let it through ("4 pounds written in grams, divided by 8?" answered 1814.36948
    after `unit_convert` twice: compose31's al06, held out)."""
    held = run.unfinished_pending
    if held is None or signature in run.failed_calls:
        return ()
    at, numbers, result = held
    if len(run.steps) != at + 1 or run.seen_calls[signature].strip() != result.strip():
        return ()
    return numbers


def items_after_failure(run: Run, call: ToolCall) -> tuple[tuple[str, ...], frozenset[str]]:
    """(the task's items no call used yet, the other tools that fetched one of its items) when this repeat is of
    a failed call: `2 + 3 * 899**` written twice after the laptop's price, with the mice not looked up
    (compose28's ai07). Allowed only a final answer, the model answered the laptop's price."""
    if call.signature() not in run.failed_calls:
        return (), frozenset()
    fetchers = item_tools(run) - {call.name}
    words = unused_words(run) if fetchers else []
    return (tuple(words), fetchers) if words else ((), frozenset())


def items_after_repeat(run: Run, call: ToolCall) -> tuple[str, ...]:
    """The items the plan's next step names that no call fetched, when this repeat is of a successful call of a
    tool that fetched one of the task's items: told "It needs coffee mug, which no call has fetched yet", the model
    looked up the capital again (independent14's cg20, "multiply that by the price of a coffee mug"). The lookup
    was the right tool with the old item: the repeat runs for the item (`loop_probes.pending_instead`)."""
    step = run.plan.current
    if step is None or call.signature() in run.failed_calls or call.name not in item_tools(run):
        return ()
    return tuple(word for word in unused_words(run) if mentions(step, word))


def spoken_text(run: Run) -> str:
    """What the user and the tools wrote: the messages, less the model's turns, the loop's notices and the
    system prompt's tool docs and rules (the agent's instructions stay)."""
    texts = []
    for message in run.messages:
        if isinstance(message.part, SystemPart):
            texts.extend(message.part.texts("instructions"))
        elif message.role != "assistant" and not isinstance(message.part, NoticePart):
            texts.append(message.content)
    return "\n".join(texts)


def user_text(run: Run) -> str:
    """What the user wrote: the task and the user's messages of the history, without tool results or notices."""
    texts = []
    for message in run.messages:
        if isinstance(message.part, TaskPart):
            texts.append(message.part.task)
        elif message.role == "user" and message.part is None:
            texts.append(message.content)
    return "\n".join(texts)
