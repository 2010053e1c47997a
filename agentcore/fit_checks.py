"""The holds on a first call that does not fit the question (split from `agentcore.loop_checks`): required
values no one gave or of a kind the argument does not take (`unsupplied_call`, which names a tool that fits the
task better), a tool no word of the task is about (`unfitting_call`), another offered tool that fits better
(`closer_call`), and a failed call's argument copied from the tool's docs (`placeholder_call`). Each fires a
bounded number of times per run.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from agentcore import prompting
from agentcore.grounding import placeholders, task_words, unsupplied, with_value
from agentcore.messages import Message, NoticePart, ToolCall, ToolSpec
from agentcore.misfit import in_example, misfits, placeholder, spelled_tools, unspoken
from agentcore.named_rest import named_rest
from agentcore.notice_texts import clip
from agentcore.run_reads import good_steps, spoken_text
from agentcore.search_asked import finder_for
from agentcore.tool_fit import LEAST_SHARED, closer_tool, shared_words, unrelated
from agentcore.ungiven import held

if TYPE_CHECKING:
    from agentcore.run_state import Run


def placeholder_call(run: Run, call: ToolCall, error: str) -> bool:
    """Once, a failed call whose string argument is a word of the tool's own docs and not of the task
    (`lookup(key="product")`) gets, instead of the plain error, a notice naming the task's words to use and the
    call written out with the first. Only failed calls: docs often list the valid values themselves."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    if run.placeholder_checked or spec is None or not run.deps.settings.check_sources:
        return False
    results = [s.result or "" for s in good_steps(run)]
    copied = placeholders(call.arguments, spec.description, spec.parameters, run.ctx.task, results)
    if not copied:
        return False
    run.placeholder_checked, run.forced = True, frozenset({call.name})
    run.notice("tool call argument copied from the tool's description", call=call.signature(), values=copied)
    closer = _closer_for_copied(run, spec)
    if closer is not None:
        name, shared = closer
        run.forced = frozenset({name})
        run.messages.append(prompting.placeholder_notice(run.ctx.task, call, copied, shared, error, closer=name))
        return True
    words = task_words(run.ctx.task, spec.description, spec.parameters)
    fixed = ToolCall(call.name, with_value(call.arguments, copied, words[0])) if words else call
    run.messages.append(prompting.placeholder_notice(run.ctx.task, fixed, copied, words, error))
    return True


def _closer_for_copied(run: Run, spec: ToolSpec) -> tuple[str, list[str]] | None:
    """The offered tool that fits the step at hand better, with the words it shares, once (`_closer_named`, one
    shared word enough): a word copied from a tool's docs says the model found nothing of the task to give that
    tool. "Convert 300 K to Fahrenheit" called `lookup(table="elements", key="symbol")`, and told to use
    "fahrenheit" instead, looked that up twice and answered 300 (independent14's cg34); `unit_convert` shares
    "convert"."""
    return _closer_named(run, spec, 1)


def _closer_named(run: Run, spec: ToolSpec, least: int) -> tuple[str, list[str]] | None:
    """The offered tool whose docs share more of the step's (or task's) words than `spec`'s (`closer_tool`), with
    those words, where it shares `least` or more and no earlier check named one, or else the tool that finds for a
    task that asks to find (`search_asked.finder_for`: "Can you find me an available house to rent in Austin" held
    `Hotels_2_BookHouse` for its made-up dates, and the model answered); it is named once."""
    if run.closer_checked:
        return None
    text, offered = run.plan.current or run.ctx.task, [s for s in run.specs if s.name in run.offered]
    found = closer_tool(text, spec, offered)
    if found is None or len(found[1]) < least:
        finder = finder_for(text, spec, offered)  # else a task that asks to find names the tool that finds
        if finder is None:
            return None
        found = finder[0], [finder[1]]
    run.closer_checked = True
    return found[0].name, found[1]


def unsupplied_call(run: Run, call: ToolCall) -> bool:
    """Before any tool result, hold back a call that does not fit the question: required values no one gave
    (`grounding.unsupplied`), a value of a kind its argument does not take (`misfit.misfits`: a domain name as a
    location), or strings no one wrote (`misfit.unspoken`: two, `species_type="bird", migration_season="spring"`
    for "a picnic spot in Miami", or one copied from the docs, their example city), or two required values of any
    kind that no one gave (`ungiven.held`: a city, a head count and dates for "I would like to rent a house");
    after one such call, one required string no one wrote is enough. The first time the model may call with given
    values or another tool; the second time the next turn may only answer, saying what is missing. Once results
    exist, the answer checks and Tool-Guard's provenance check judge where values came from."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    if spec is None or run.unsupplied_held >= 2 or not run.deps.settings.check_sources or good_steps(run):
        return False
    given = "\n".join(m.content for m in run.messages if m.role != "assistant" and not isinstance(m.part, NoticePart))
    values = unsupplied(call.arguments, spec.parameters, spec.description, given)
    spoken = spoken_text(run)
    wrong = [
        _misfit_text(name, value, kind, spec.parameters)
        for name, value, kind in misfits(call.arguments, spec.parameters, spoken)
    ]
    values += [v for v in _unspoken(run, call, spec, spoken) if v not in values]
    values += [v for v in held(call.arguments, spec.parameters, spec.description, spoken) if v not in values]
    if not values and not wrong:
        return False
    run.unsupplied_held += 1
    again = run.unsupplied_held == 2
    step = run.steps[-1]
    step.result, step.tool_error = "not run: " + "; ".join([*wrong, *(f"{v} given by no one" for v in values)]), True
    run.notice("tool call has values that no one gave or that do not fit; not run", call=call.signature(),
               values=values, misfits=wrong)  # fmt: skip
    run.final_only = run.final_only or again
    others = [] if again else spelled_tools(run.ctx.task, [s.name for s in run.specs if s.name != call.name])
    shared: list[str] = []
    if not again and not others:
        others, shared = _fitting_instead(run, spec)
    if others:  # told of the tool, the model wrote `list_servers(type=all)` as its answer: the next turn calls one
        run.forced = frozenset(others)
    notice = prompting.unsupplied_notice(run.ctx.task, call, values, again, misfits=wrong, others=others, shared=shared)
    run.messages.append(notice)
    return True


def _fitting_instead(run: Run, spec: ToolSpec) -> tuple[list[str], list[str]]:
    """The offered tool that fits the task better than the held one (`closer_tool`), named with the task's words
    its docs share, where it shares two or more: "the schedule of Manchester United for the next 6 games in
    Premier League" called `find_card_in_deck` with a made-up card, held back, and the model called it again rather
    than `sports_team.get_schedule` (BFCL multiple_176). Once named, `closer_call` does not judge again."""
    found = _closer_named(run, spec, LEAST_SHARED)
    return ([found[0]], found[1]) if found is not None else ([], [])


def unfitting_call(run: Run, call: ToolCall) -> bool:
    """Once, before any tool result: hold back a call of a tool that may have side effects when no offered tool's
    name or docs share a content word with the task (agentcore.tool_fit) and the task, of two or more content
    words, brings no number or quoted text for a tool to work on. The notice says so; a call made again runs.
    Read-only tools are not held: running one costs nothing and its result or error shows whether it fit."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    if spec is None or spec.read_only or run.fit_checked or not run.deps.settings.check_sources or good_steps(run):
        return False
    run.fit_checked = True
    offered = [s for s in run.specs if s.name in run.offered]
    if not unrelated(run.ctx.task, offered):
        return False
    run.fit_held = call
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: nothing in the task is about what {call.name} does", True
    run.notice("tool call shares no word with the task, nor does any offered tool; not run", call=call.signature())
    what = f"nothing in the task is about what {call.name} does ({clip(spec.description, 100)})"
    run.messages.append(prompting.unsupplied_notice(run.ctx.task, call, [], False, misfits=[what]))
    return True


def closer_call(run: Run, call: ToolCall) -> bool:
    """Once, before any tool result: hold back the first call of a tool with side effects when another offered
    tool's name and description share more of the task's words (agentcore.tool_fit.closer_tool; of its first
    step, where the task has steps), or when it acts and the task asks to find (`_finder_call`); the next turn must
    call that tool. Read-only tools are not held, as for `unfitting_call`."""
    spec = next((s for s in run.specs if s.name == call.name), None)
    if spec is None or spec.read_only or run.closer_checked or good_steps(run):
        return False
    run.closer_checked = True
    # Judged against the step at hand: "Read count.txt, then use the calculator ..." starts with read_file.
    text = run.plan.current or run.ctx.task
    offered = [s for s in run.specs if s.name in run.offered]
    found = closer_tool(text, spec, offered)
    if found is None:
        return _finder_call(run, call, spec, text, offered)
    closer, words = found
    if call.name in named_rest(text, run.specs, [ToolCall(closer.name, {})]):
        return False  # the task names this tool too ("the life expectancy ... and the GDP"): both are asked for
    run.notice("another offered tool fits the task better; not run", call=call.signature(), closer=closer.name)
    notice = prompting.closer_tool_notice(run.ctx.task, call, closer.name, words)
    return _held_for(run, closer.name, f"{closer.name} fits the task better", notice)


def _finder_call(run: Run, call: ToolCall, spec: ToolSpec, text: str, offered: list[ToolSpec]) -> bool:
    """Hold back the first call of a tool that acts for a task that asks to find, when a tool that finds is offered
    (agentcore.search_asked); the next turn must call that one."""
    found = finder_for(text, spec, offered)
    if found is None:
        return False
    finder, asked = found
    run.notice("a tool that acts, for a task that asks to find; not run", call=call.signature(), finder=finder.name)
    notice = prompting.finder_tool_notice(run.ctx.task, call, finder.name, asked)
    return _held_for(run, finder.name, f"the task asks to find, and {finder.name} finds", notice)


def _held_for(run: Run, tool: str, why: str, notice: Message) -> bool:
    """The latest call not run, for `why`; `notice` is the next message, and the next turn must call `tool`."""
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {why}", True
    run.messages.append(notice)
    run.forced = frozenset({tool})
    return True


def step_closer_call(run: Run, call: ToolCall) -> bool:
    """Once a plan step, after its first call: hold back a call of a tool whose docs share no word with the step
    when another offered tool's share two or more (`tool_fit.closer_tool`); the next turn must call that one. Told
    "write them on one line separated by spaces, count the words in that line", the model called the calculator
    with "C + H + O" twice, and `word_count` shares "count" and "words" (independent14's cg24)."""
    step, spec = run.plan.current, next((s for s in run.specs if s.name == call.name), None)
    if step is None or spec is None or run.step_closer_at == run.plan.done or not good_steps(run):
        return False
    run.step_closer_at = run.plan.done
    found = closer_tool(step, spec, [s for s in run.specs if s.name in run.offered])
    if found is None or len(found[1]) < LEAST_SHARED or shared_words(step, spec):
        return False
    closer, words = found
    run.steps[-1].result, run.steps[-1].tool_error = f"not run: {closer.name} fits the step better", True
    run.notice("another offered tool fits the plan's step better; not run", call=call.signature(), closer=closer.name)
    notice = prompting.closer_tool_notice(
        run.ctx.task, call, closer.name, words, step=step, results=run.plan.open_results
    )
    run.messages.append(notice)
    run.forced = frozenset({closer.name})
    return True


def _unspoken(run: Run, call: ToolCall, spec: ToolSpec, spoken: str) -> list[str]:
    """Strings that `spoken` (what the user and the tools wrote) never writes: two or more in a first call, or one
    required string that the tool's docs give as an example ("San Francisco, CA") or that is a stock stand-in
    ("John Doe", `password="password"`: `misfit.placeholder`), or one required string after a held-back call."""
    required = unspoken(call.arguments, spec.parameters, spoken)
    if run.unsupplied_held:
        return required
    found = unspoken(call.arguments, spec.parameters, spoken, required_only=False)
    if len(found) >= 2:
        return found
    docs = f"{spec.description} {json.dumps(spec.parameters, ensure_ascii=False)}"
    pairs = [text.split("=", 1) for text in required]
    found = [f"{name}={value}" for name, value in pairs if in_example(value, docs) or placeholder(value, name)]
    return found + [text for text in _stand_ins(call, spec, spoken) if text not in found]


def _stand_ins(call: ToolCall, spec: ToolSpec, spoken: str) -> list[str]:
    """Required strings that are stock stand-ins the conversation does not write, even where the docs give them as
    the layout: "https://api.example.com/data" ("formatted as '...'") was sent for a question about a bus stop
    (BFCL live_irrelevance dev 846)."""
    names = spec.parameters.get("required") or []
    return [
        f"{name}={value}"
        for name, value in call.arguments.items()
        if name in names and isinstance(value, str) and placeholder(value, name) and value.lower() not in spoken.lower()
    ]


def _misfit_text(name: str, value: str, kind: str, parameters: dict[str, Any]) -> str:
    doc = str((parameters.get("properties") or {}).get(name, {}).get("description", "")).strip()
    takes = f" ({clip(doc, 80)})" if doc else ""
    return f"{value!r} is {kind}, which {name}{takes} does not take"
