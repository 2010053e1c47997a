"""The words of the loop's notices: what the model reads when a call is held back or a final answer goes back
(`agentcore.answer_checks`, `agentcore.loop_checks`). `agentcore.prompting` builds each notice as a typed part and
renders it through `notice_text`; the wording lives here so the turn design stays readable beside it.
"""

from __future__ import annotations

import json
import re

from agentcore.messages import NoticePart, ToolCall

RESULT_CHARS = 600


def clip(text: str, limit: int = RESULT_CHARS) -> str:
    """`text` cut to `limit` characters, saying how much was left out: results are shown clipped everywhere."""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"


_ANSWER_TEXTS = (
    "unsupplied", "wrong_row", "unit", "copied", "beside", "convert", "used_up", "redone", "portion", "made_up_result",
    "power", "closer_tool", "counted_twice", "counts_multiplied", "done_again", "refill", "mixed_units", "held_step",
    "mixed_kinds", "finder_tool", "again", "named_rest",
)  # fmt: skip


def _example(call: ToolCall) -> str:
    """A call written as the model writes one: the form a notice shows the next call in."""
    return json.dumps({"tool": call.name, "arguments": call.arguments}, ensure_ascii=False)


def notice_text(part: NoticePart) -> str:
    task = part.task
    if part.notice == "repeat" and part.call is not None:
        return _repeat_text(part, part.call)
    if part.notice == "missing_tool":
        return (
            f"The task asks you to use {', '.join(part.names)}, which you have not called yet.\n"
            f"Original task: {task}\nCall it now with the values you have."
        )
    if part.notice in _ANSWER_TEXTS:
        texts = {
            "portion": _portion_text,
            "power": _power_text,
            "made_up_result": _made_up_result_text,
            "used_up": _used_up_text,
            "redone": _redone_text,
            "unsupplied": _unsupplied_text,
            "wrong_row": _wrong_row_text,
            "unit": _unit_text,
            "beside": _beside_text,
            "convert": _convert_text,
            "closer_tool": _closer_tool_text,
            "counted_twice": _counted_twice_text,
            "counts_multiplied": _counts_multiplied_text,
            "done_again": _done_again_text,
            "refill": _refill_text,
            "mixed_units": _mixed_units_text,
            "held_step": _held_step_text,
            "mixed_kinds": _mixed_kinds_text,
            "finder_tool": _finder_tool_text,
            "again": _again_text,
            "named_rest": _named_rest_text,
        }
        return texts.get(part.notice, _copied_text)(part)
    if part.notice in ("unfinished", "unsourced", "stale", "placeholder", "made_up", "doubled"):
        return _check_notice_text(part)
    if part.notice == "review":
        return (
            f"A reviewer found a problem with that answer: {part.message}\nTask: {task}\n"
            "Reply with a corrected final_answer."
        )
    return f"{part.what} failed: {part.message}\nTask: {task}\nTry again."


def _repeat_text(part: NoticePart, call: ToolCall) -> str:
    done = f"You already called {call.name} with these arguments; the result was: {clip(part.result)}"
    if part.names:  # the answer before this call repeated that result while the task's numbers wait
        still = " and ".join(part.names)
        return (
            f"{done}\nTask: {part.task}\nThe task still uses {still}: call a different tool for the next step with "
            f"{clip(part.result)} and {still}."
        )
    if part.message:  # a failed call repeated while an item the task lists is still to fetch
        still = f"The task still names {part.message}, which no call has used: fetch that next."
        return f"{done}\nTask: {part.task}\n{still}"
    good = f"\nLatest good result: {clip(part.latest)}" if part.latest not in (None, part.result) else ""
    return (
        f"{done}{good}\n"
        f"Task: {part.task}\nUse the results: call a different tool for the next step, or reply with the final_answer."
    )


def _named_rest_text(part: NoticePart) -> str:
    """Tools the task names that no call used (agentcore.named_rest)."""
    asked = " and ".join(f"the {words} ({tool})" for tool, words in zip(part.names, part.results, strict=True))
    tools = " or ".join(part.names)
    return f"Not done yet: the task also asks for {asked}, which no call did.\nTask: {part.task}\nCall {tools} next."


def _again_text(part: NoticePart) -> str:
    """The same action again on the task's other numbers (agentcore.again): the last result was a status."""
    numbers, took = " and ".join(part.names), " and ".join(part.results)
    head = (
        f"You already made that call for {took}; the result was: {clip(part.result)}"
        if part.message == "repeat"
        else f"Not done yet: the call for {took} returned {clip(part.result)}"
    )
    instead = f" in place of {part.latest}" if part.latest else ""
    example = f", for example: {_example(part.call)}" if part.call else f", with the task's values for them{instead}"
    return (
        f"{head}, and the task still uses {numbers}, which no call took.\nTask: {part.task}\n"
        f"Call {part.what} for {numbers} next{example}."
    )


def _closer_tool_text(part: NoticePart) -> str:
    """A first call held back for another offered tool that fits the task better: call that one."""
    chosen = part.call.name if part.call is not None else "that tool"
    if part.message:  # judged against a plan's step (`message`), whose results to use are `results`
        results = f" The results to use are {', '.join(part.results)}." if part.results else ""
        return (
            f"Not run: {part.names[0]} fits this step better than {chosen} (its name and description share the"
            f" step's words: {part.what}).\nTask: {part.task}\nStep: {part.message}.{results}\n"
            f"Call {part.names[0]} for this step."
        )
    return (
        f"Not run: {part.names[0]} fits the task better than {chosen} (its name and description share more of the "
        f"task's words: {part.what}).\nTask: {part.task}\nCall {part.names[0]} with the task's values."
    )


def _finder_tool_text(part: NoticePart) -> str:
    """A first call of a tool that acts, held back for a task that asks to find: call the tool that finds."""
    chosen = part.call.name if part.call is not None else "that tool"
    return (
        f"Not run: the task asks to {part.what}, and {chosen} acts rather than finds; {part.names[0]} finds.\n"
        f"Task: {part.task}\nCall {part.names[0]} with the task's values."
    )


def _unsupplied_text(part: NoticePart) -> str:
    """A held-back call whose required values nobody gave, or whose value its argument does not take (`message`):
    use given values, another tool, or answer."""
    tool = part.call.name if part.call is not None else "the tool"
    values = " and ".join(part.names)
    if part.what == "again":
        reason = (
            f"values that neither the task nor any tool result gives ({values})"
            if values
            else "values it does not take"
        )
        return (
            f"Not run: {tool} again needs {reason}.\n"
            f"Task: {part.task}\nDo not call {tool}. Reply with the final_answer now: answer what you can, and say"
            " which values are missing or what these tools cannot do."
        )
    named = (
        f"\nThe task names {' and '.join(part.results)}: call it if it does what the task asks." if part.results else ""
    )
    if part.results and part.latest:  # the tool whose docs share more of the task's words
        named = (
            f"\n{part.results[0]} fits the task better (its name and description share the task's words: "
            f"{part.latest}): call it if it does what the task asks."
        )
    if part.message:
        made_up = f" Also, {values} is in neither the task nor any tool result." if values else ""
        return (
            f"Not run: {part.message}.{made_up}\nTask: {part.task}{named}\nCall a tool only where its arguments take"
            " the task's values. If no tool does what the task asks, do not call one: reply with the final_answer,"
            " and say what these tools cannot do."
        )
    return (
        f"Not run: {values} is in neither the task nor any tool result; it was made up.\nTask: {part.task}{named}\n"
        f"Call a tool only with values that the task or a tool result gives. If the task does not give what {tool}"
        " needs, do not call it: reply with the final_answer, and say which values are missing."
    )


def _wrong_row_text(part: NoticePart) -> str:
    return (
        f"Not done yet: {clip(part.result, 120)} is taken from a line the task does not ask about. The line it"
        f" asks about is: {clip(part.message, 200)}\nTask: {part.task}\nReply with the final_answer from that line."
    )


def _unit_text(part: NoticePart) -> str:
    asked, counted = part.names
    return (
        f"Not done yet: {clip(part.result)} is in {counted} ({part.what} counts {counted}), but the task asks for"
        f" {asked}.\nTask: {part.task}\nConvert {clip(part.result)} {counted} to {asked} with a tool, then answer."
    )


def _convert_text(part: NoticePart) -> str:
    fixed = part.call or ToolCall("the tool", {})
    example = _example(fixed)
    return (
        f"Not done yet: the task asks for {part.names[0]}, and no conversion has reached it.\nTask: {part.task}\n"
        f"Convert with {fixed.name} first, for example: {example}\nThen finish the task's remaining steps."
    )


def _mixed_units_text(part: NoticePart) -> str:
    """`part.names`: the number, its unit, the converted result, that result's unit; `part.call`: the conversion."""
    number, unit, result, reached = part.names
    example = _example(part.call or ToolCall("the tool", {}))
    return (
        f"Not run: {number} is in {unit} and {result} is in {reached}; convert {number} {unit} to {reached} before"
        f" combining them.\nTask: {part.task}\nCall {part.call.name if part.call else 'the tool'} next, for"
        f" example: {example}"
    )


def _mixed_kinds_text(part: NoticePart) -> str:
    """`part.names`: the count, what it counts, the other value, the tool that gave it; `part.call`: the call
    with the two multiplied."""
    count, what, value, tool = part.names
    example = _example(part.call or ToolCall("the tool", {}))
    return (
        f"Not run: {count} is a number of {what} and {value} is a value from {tool}; adding or subtracting them"
        f" means nothing. Multiply or divide them as the task asks.\nTask: {part.task}\nFor example: {example}"
    )


def _held_step_text(part: NoticePart) -> str:
    example = _example(part.call or ToolCall("the tool", {}))
    return (
        f"Not done yet: {part.result} is only the conversion; the step it was for is still to do.\nTask: {part.task}\n"
        f"Call {part.call.name if part.call else 'the tool'} next, for example: {example}"
    )


def _counted_twice_text(part: NoticePart) -> str:
    """`part.result` is an earlier sum's or product's result, `part.what` its expression, `part.names[0]` one of
    its terms, `part.message` how the call took it again ("added" or "multiplied")."""
    value, total = part.names[0], clip(part.result)
    again = f"multiplying it by {value}" if part.message == "multiplied" else f"adding {value} to it"
    return (
        f"Not run: {total} ({clip(part.what, 120)}) already counts {value}; {again} counts {value}"
        f" twice.\nTask: {part.task}\nIf {total} answers the task, reply with the final_answer now; otherwise"
        " call a tool for the step still to do."
    )


def _done_again_text(part: NoticePart) -> str:
    """`part.result` is the result of `part.what`; `part.names` what is still to use, none when that calculation
    already used every number of the task."""
    result, again = clip(part.result), f"Not run: that is {clip(part.what, 120)} again, on its own result"
    if part.names:
        return (
            f"{again} {result}. Still to use: {', '.join(part.names)}.\nTask: {part.task}\n"
            "Call a tool for the step that uses them."
        )
    return (
        f"{again} {result}. {result} already uses every number of the task.\nTask: {part.task}\n"
        "Reply with the final_answer now."
    )


def _refill_text(part: NoticePart) -> str:
    """`part.call` failed before with `part.result`; `part.results` are the calls that ran since, with results."""
    assert part.call is not None
    return (
        f"You already called {part.call.name} with these arguments, and it failed: {clip(part.result, 160)}\n"
        f"Since then: {'; '.join(part.results)}.\nTask: {part.task}\n"
        f"Call {part.call.name} again with those numbers written in place of the words."
    )


def _counts_multiplied_text(part: NoticePart) -> str:
    """`part.names`: two counts the call multiplied together; `part.results`: their items; `part.what`: each
    count times its item's value, "|"-joined, empty where the value is not fetched yet."""
    counted = [f"{count} {item}".strip() for count, item in zip(part.names, part.results, strict=True)]
    terms = part.what.split("|")
    ready = [term for term in terms if term]
    waiting = [item or count for count, item, term in zip(part.names, part.results, terms, strict=True) if not term]
    step = (
        f"Get the value of {' and '.join(waiting)} with a tool first." if waiting else f"Compute {' + '.join(ready)}."
    )
    done = f" The ones you have: {' and '.join(ready)}." if ready and waiting else ""
    return (
        f"Not run: {part.names[0]} * {part.names[1]} multiplies the counts of two different things"
        f" ({' and '.join(counted)}). Each count goes with its own item's value.{done}\nTask: {part.task}\n{step}"
    )


def _beside_text(part: NoticePart) -> str:
    """`part.call` is the held-back call with the number left out where that could be written."""
    fixed = part.call or ToolCall("the tool", {})
    example = _example(fixed)
    numbers = " and ".join(part.names)
    # with the number left out, only the result would be left: it goes in the number's place (a square's side)
    number = re.escape(part.result.strip())
    swapped = bool(number) and len(re.findall(rf"(?<![\w.]){number}(?![\w.])", example)) > 1
    how = f"with {clip(part.result)} in place of {numbers}" if swapped else f"without {numbers}"
    return (
        f"Not run: {numbers} went into an earlier step, whose result {clip(part.result)} already stands for it;"
        f" that call counts it twice.\nTask: {part.task}\nCall {fixed.name} {how}, for example: {example}"
    )


def _copied_text(part: NoticePart) -> str:
    """`what` empty: the answer restates the task's own numbers, not the input of a call."""
    if not part.what:
        return (
            f"Not done yet: {clip(part.message, 120)} is a number the task gave, not a result. The last tool"
            f" returned {clip(part.result)}.\nTask: {part.task}\nReply with the final_answer from the results, or"
            " call a tool for a step still to do."
        )
    return (
        f"Not done yet: {clip(part.message, 120)} is what you gave {part.what}, not its result. {part.what}"
        f" returned {clip(part.result)}.\nTask: {part.task}\nReply with the final_answer, using that result."
    )


def _used_up_text(part: NoticePart) -> str:
    call = part.call.signature() if part.call is not None else "a later call"
    return (
        f"Not done yet: {clip(part.message, 120)} was already used: {clip(call, 200)} returned {clip(part.result)}."
        f"\nTask: {part.task}\nReply with the final_answer from the latest result, or call a tool for a step still"
        " to do."
    )


def _made_up_result_text(part: NoticePart) -> str:
    if part.call is not None:
        example = _example(part.call)
        then = f"Call {part.call.name} with the value the tools returned, for example: {example}"
    else:
        values = f" ({', '.join(clip(r, 40) for r in part.results)})" if part.results else ""
        then = f"Call a tool with the values the tools returned{values}."
    if part.message == "made up again":
        # The made-up call is not shown: the model copied its shape ("2 * (899 + 159)" after "2 * (100 + 50)")
        return f"Not run: {part.result} were made up earlier; no tool returned them.\nTask: {part.task}\n{then}"
    why = "whose inputs were made up" if part.message == "made up" else "which a later call started again"
    return (
        f"Not run: {clip(part.result)} came from {clip(part.what, 200)}, {why}: it stands for nothing.\n"
        f"Task: {part.task}\n{then}"
    )


def _portion_text(part: NoticePart) -> str:
    whole, word = part.names
    fixed = part.call or ToolCall("the tool", {})
    example = _example(fixed)
    return (
        f'Not done yet: {clip(part.result)} is {clip(part.what, 120)}, a part of {whole}. The task says "{word}",'
        f" and no step has done that yet.\nTask: {part.task}\nCall {fixed.name} for the next step with {whole} and"
        f" {clip(part.result)}, for example: {example}"
    )


def _power_text(part: NoticePart) -> str:
    step = (
        f"Call {part.call.name} for the next step, for example: {_example(part.call)}"
        if part.call is not None
        else f"Call a tool to compute {part.what}."
    )
    return (
        f"Not done yet: {clip(part.result)} is the value, and the task asks for its {part.names[0]}; no step has"
        f" done that yet.\nTask: {part.task}\n{step}"
    )


def _redone_text(part: NoticePart) -> str:
    later = part.names[0] if part.names else "a later call"
    step = (
        f"Call {part.call.name} for the step still to do on {clip(part.result)}, for example: {_example(part.call)}"
        if part.call is not None
        else f"Continue from {clip(part.result)}: call a tool for the step still to do, or reply with the final_answer."
    )
    return (
        f"Not done yet: {clip(part.message, 120)} came from {clip(part.what, 200)}, but {clip(later, 200)} started"
        f" again from the task's number and returned {clip(part.result)}.\nTask: {part.task}\n{step}"
    )


def _check_notice_text(part: NoticePart) -> str:
    """The answer checks' notices (agentcore.unfinished): a chain stopped early, a number no tool returned, a call
    that took an earlier input instead of its result."""
    task, numbers = part.task, " and ".join(part.names)
    if part.notice == "unfinished":
        return _unfinished_text(part)
    if part.notice == "unsourced":
        latest = f" The latest tool result is {clip(part.result)}." if part.result else ""
        return (
            f"No tool returned {' or '.join(part.names)}: do not calculate in your head.{latest}\nTask: {task}\n"
            "Call a tool to compute what the task asks" + (" from the tool results." if latest else ".")
        )
    if part.notice == "made_up":
        return _made_up_text(part)
    if part.notice == "doubled":
        fixed = part.call or ToolCall("the tool", {})
        example = _example(fixed)
        return (
            f"Not run: that call uses {clip(part.result)} twice, but {clip(part.result)} is the value of one item"
            f" only. The task also names {numbers}, which no call has looked up yet.\nTask: {task}\n"
            f"Call {fixed.name} for {numbers} first, for example: {example}"
        )
    if part.notice == "placeholder":
        return _placeholder_text(part)
    return _stale_text(part)


def _placeholder_text(part: NoticePart) -> str:
    """A failed call with a word copied from its tool's docs: call it again with the task's word, or call the tool
    that fits the task better (`what`; `message` then names the words they share)."""
    fixed = part.call or ToolCall("the tool", {})
    values = " and ".join(json.dumps(value, ensure_ascii=False) for value in part.names)
    failed = f"Error from {fixed.name}: {clip(part.result, 200)}\n" if part.result else ""
    copied = f"{failed}{values} is a word from the description of {fixed.name}, not a value from the task."
    if part.what:
        return (
            f"{copied} {part.what} fits the task better (its name and description share the task's words:"
            f" {part.message}).\nTask: {part.task}\nCall {part.what} with the task's values."
        )
    words = f" ({part.message})" if part.message else ""
    return (
        f"{copied}\nTask: {part.task}\nCall {fixed.name} again with a value the task names{words}, for example:"
        f" {_example(fixed)}"
    )


def _stale_text(part: NoticePart) -> str:
    """A call that took an earlier input where its result belongs: written with the result, or, where that would
    keep a number from nowhere ("unwritten"), the result and the task's numbers still to use named."""
    fixed = part.call or ToolCall("the tool", {})
    taken, result = " and ".join(part.names), clip(part.result)
    earlier = f"Not run: {taken} was the input of an earlier step, whose result is {result}."
    if part.message == "unwritten":
        still = f" and {' and '.join(part.results)}" if part.results else ""
        return f"{earlier}\nTask: {part.task}\nCall {fixed.name} for the next step with {result}{still}."
    example = _example(fixed)
    return f"{earlier}\nTask: {part.task}\nCall {fixed.name} with the result instead, for example: {example}"


def _made_up_text(part: NoticePart) -> str:
    """Inputs from nowhere (`names`), or none: the task's own numbers alone, its items (`results`) unfetched."""
    task, numbers = part.task, " and ".join(part.names)
    if not part.names:
        return (
            f"Not done yet: {clip(part.result)} was computed from the task's own numbers alone, but the task also"
            f" names {', '.join(part.results)}, whose values no tool has returned yet.\nTask: {task}\nGet each"
            f" value with {part.what} first, then compute with the results."
        )
    return (
        f"Not done yet: {clip(part.result)} was computed from {numbers}, which are in neither the task nor any"
        f" tool result: they were made up.\nTask: {task}\nGet each value the task needs"
        + (f" ({', '.join(part.results)})" if part.results else "")
        + f" with {part.what} first, then compute with the results."
    )


def _unfinished_text(part: NoticePart) -> str:
    """A chain stopped early: the numbers or listed items still to use, or the results still to combine."""
    task, numbers = part.task, " and ".join(part.names)
    uses = f"the task still uses {numbers} and" if numbers else "the task still"
    if part.message:  # an item the task lists is still to fetch: that is the next step
        return (
            f"Not done yet: {clip(part.result)} is only the result of the last step; {uses} names "
            f"{part.message}, which no call has used.\nTask: {task}\nCall a tool for {part.message} next."
        )
    if part.results and part.names and all(" * " in name for name in part.names):  # counts paired with items
        values = ", ".join(clip(r, 40) for r in part.results)
        # "4 * 45.9" counts one result; the mouse's 19.95, counted by no number, is still a term of the sum
        alone = [r for r in part.results if not any(r.strip() in name.split(" * ") for name in part.names)]
        terms = " and ".join([*part.names, *(clip(r, 40) for r in alone)])
        return (
            f"Not done yet: the results {values} are not combined yet; the task counts them as {numbers}.\n"
            f"Task: {task}\nCall a tool for the next step with {terms}."
        )
    if part.results:  # several results to combine: name them all, not only the last
        values = ", ".join(clip(r, 40) for r in part.results)
        still = f", and the task still uses {numbers}" if numbers else ""
        return (
            f"Not done yet: the results {values} are not combined yet{still}.\n"
            f"Task: {task}\nCall a tool for the next step with {values}{' and ' + numbers if numbers else ''}."
        )
    return (
        f"Not done yet: {clip(part.result)} is only the result of the last step, and the task still uses "
        f"{numbers}.\nTask: {task}\nCall a tool for the next step with {clip(part.result)} and {numbers}."
    )
