"""The other actions a request names: "the median and variance of 3,4,5,2,8,5; also the mode" answered after
`statistics.median` alone, "the status of John Doe ..., also the nature of his offenses" after
`criminal_record.get_status` alone (BFCL's parallel_multiple dev split).

A tool the run has not called is named by the task when every word of its name that says what it is about
(`tool_kinds.name_parts`: "offense" and "nature" of `criminal_record.get_offense_nature`) and that no called
tool's name shares ("criminal", "record") is written in the task, and no call took those words as a value:
"variance" names `statistics.variance` beside a call of `statistics.median`, "factorial" `calculate_factorial`.
Then the answer goes back, that tool is named, and the next turn must call it. It runs under
`Agent.check_unfinished`.

Every one of those words, not any: one word of several would have sent 7 of BFCL multiple's 100 dev entries on
to a second tool after the one right call ("12 Amperes" naming `electromagnetism.ampere_law`; read with a
plainer plural rule).

Read from BFCL's dev splits with their expected calls: with one expected tool left out of a parallel request,
this names it 185 times in 258, and it never fires once every expected tool was called (220 requests); after the
one right call of a multiple entry it fires on 2 of 100, of a live_multiple entry on 16 of 527 (most of them a
second step the user did mention: "I'm looking to book a house" after the search, "play it at full volume"
before `set_volume`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentcore import prompting
from agentcore.grounding import mentions
from agentcore.messages import ToolCall, ToolSpec
from agentcore.run_reads import good_steps
from agentcore.tool_kinds import name_parts
from agentcore.unfinished import leaves

if TYPE_CHECKING:
    from agentcore.run_state import Run

MAX_REST = 3  # notices per run, each after a new good call: BFCL's requests name at most four tools


def named_rest(task: str, specs: Sequence[ToolSpec], calls: Sequence[ToolCall]) -> dict[str, tuple[str, ...]]:
    """The tools of `specs` that no call in `calls` used and that the task names by their own words, each with
    those words (`calls`: the calls that ran)."""
    called = {call.name for call in calls}
    shared = " ".join(part for name in called for part in name_parts(name))
    taken = [value for call in calls for value in leaves(call.arguments) if isinstance(value, str)]
    named: dict[str, tuple[str, ...]] = {}
    for spec in specs:
        own = tuple(part for part in name_parts(spec.name) if not mentions(shared, part))
        if spec.name in called or not own or not all(mentions(task, word) for word in own):
            continue
        if not any(mentions(value, word) for value in taken for word in own):  # a value, not an action
            named[spec.name] = tuple(own)
    return named


def on_same_input(task: str, specs: Sequence[ToolSpec], earlier: Sequence[ToolCall], call: ToolCall) -> bool:
    """`call` takes an earlier call's whole input, and the task names its tool as an action of its own: "the median
    and variance of 3,4,5,2,8,5" is two actions on one input, not a chain whose next step takes the median. The
    chain checks (a stale input, a line started again) leave such a call be."""
    others = [e for e in earlier if e.name != call.name]
    return any(e.arguments == call.arguments for e in others) and call.name in named_rest(task, specs, others)


def named_rest_check(run: Run, answer: str) -> bool:
    """An answer after good calls while the task names a tool no call used: that tool is required next. Up to
    MAX_REST times, each after a new good call."""
    done = good_steps(run)
    if run.final_only or not run.deps.settings.check_unfinished or not done or run.rest_sent >= MAX_REST:
        return False
    if len(done) <= run.rest_at:
        return False
    # calls that ran: a call held back (a domain name for a module's name) leaves its tool to do
    calls = [step.call for step in done if step.call is not None]
    named = named_rest(run.ctx.task, run.specs, calls)
    if not named:
        return False
    run.rest_sent, run.rest_at = run.rest_sent + 1, len(done)
    run.forced = frozenset(named)
    words = tuple(" ".join(own) for own in named.values())
    run.notice("final answer while the task names a tool no call used; that tool is required next", tools=list(named))
    run.messages.append(prompting.named_rest_notice(run.ctx.task, list(named), words))
    return True
