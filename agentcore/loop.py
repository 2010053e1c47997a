"""The run loop as a small typed state machine: ModelTurn -> ToolTurn -> ModelTurn ... -> Finish.

Each step is a short coroutine that returns the next step. `Run` holds the state; `RunDeps` is all the loop
knows of its owner: the model, the toolset, the policy chain (the agent's own hooks are its innermost policy),
the settings and the output parser. The loop never sees the Agent. Nothing here blocks the event loop: models
and sync tools run in threads.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.errors import ContextOverflowError, ModelBackendError, ModelError, ModelRetry, ModelUnavailableError
from agentcore.events import Event, ModelCalled, Notice, ToolCalled, ToolStarted, no_sink
from agentcore.grounding import listed_together, mentions, parallel_unused, placeholders, task_words, with_value
from agentcore.messages import CallPart, Message, ModelRequest, ModelResponse, ToolCall, ToolSpec, Usage
from agentcore.policy import Chain, Veto
from agentcore.result import Ledger, RunStatus, Step
from agentcore.steps import StepPlan
from agentcore.unfinished import (
    doubled,
    guessed,
    leaves_out,
    made_up,
    made_up_steps,
    open_results,
    premature,
    repeats_result,
    stale_inputs,
    unsourced,
    with_result,
    with_tool_value,
)

if TYPE_CHECKING:
    from agentcore.models.base import Model
    from agentcore.tools.toolset import Toolset


@dataclass(frozen=True, slots=True)
class LoopSettings:
    max_steps: int = 8
    max_tokens: int = 256
    retries: int = 2  # model-output and final-answer retries; tools have their own (Toolset.tool_settings)
    think: int = 0
    output_schema: dict[str, Any] | None = None
    constrain_final: bool = True
    check_unfinished: bool = True  # agentcore.unfinished: a final answer that only repeats a result goes back once
    check_sources: bool = True  # agentcore.unfinished: a final answer with numbers no tool returned goes back once


@dataclass(frozen=True, slots=True)
class RunDeps:
    """What a run needs from whoever started it."""

    model: Model
    toolset: Toolset
    chain: Chain
    settings: LoopSettings
    parse_output: Callable[[str], Any]


@dataclass(slots=True)
class Run:
    """Mutable state of one run."""

    deps: RunDeps
    ctx: RunContext[Any]
    specs: tuple[ToolSpec, ...]
    messages: list[Message]
    emit: Callable[[Event], None]
    steps: list[Step] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    seen_calls: dict[str, str] = field(default_factory=dict)
    failed_calls: set[str] = field(default_factory=set)
    tool_retries: dict[str, int] = field(default_factory=dict)  # per tool name
    output_retries: dict[str, int] = field(default_factory=dict)  # "model" output, "output" type
    final_only: bool = False
    excluded: frozenset[str] = frozenset()
    offered: frozenset[str] = frozenset()  # the tools of the last turn's request: nothing else may run
    repeats: int = 0
    forced: frozenset[str] | None = None  # tools the next turn must call (None: no constraint; used once)
    forced_once: bool = False
    unfinished_results: list[str] = field(default_factory=list)  # results an answer repeated; checked twice
    unfinished_named: bool = False  # an unfinished notice named task values no call used: one more check allowed
    sources_checked: bool = False
    unsourced_sent: bool = False  # an answer went back for numbers no tool returned; a second one is replaced
    guess_checked: bool = False
    stale_checked: bool = False
    doubled_checked: bool = False
    combine_checked: bool = False
    placeholder_checked: bool = False
    made_up_at: list[int] = field(default_factory=list)  # good steps when the made-up check fired
    plan: StepPlan = field(default_factory=lambda: StepPlan(()))
    output: Any = None
    status: RunStatus = "completed"
    error: str | None = None
    failure: BaseException | None = None  # what ended the run abnormally (re-raised by the owner)
    model_name: str = ""

    @property
    def usage(self) -> Usage:
        return self.ctx.usage  # child runs add theirs here too

    def notice(self, message: str, **data: Any) -> None:
        self.ctx.record("notice", message=message, **data)
        self.emit(Notice(self.ctx.run_id, self.ctx.step, message, data))


@dataclass(frozen=True, slots=True)
class ModelTurn:
    async def execute(self, run: Run) -> NextStep:
        if len(run.steps) >= run.deps.settings.max_steps:
            return Finish("max_steps", f"stopped after max_steps={run.deps.settings.max_steps} model turns")
        run.ctx.step = len(run.steps) + 1
        request = build_request(run)
        run.offered = frozenset(spec.name for spec in request.tools)
        at, started = time.time(), time.perf_counter()
        try:
            response = await call_model(run, request)
        except (ContextOverflowError, ModelUnavailableError, ModelBackendError) as exc:
            run.failure = None if isinstance(exc, ContextOverflowError) else exc
            return Finish("error", str(exc))
        except ModelError as exc:
            return retry_output(run, "model", "the model output", str(exc))
        finally:
            run.ledger.model_seconds += time.perf_counter() - started  # failed and cancelled calls count too
        record_model_step(run, response, time.perf_counter() - started, at)
        if response.tool_call is not None:
            return ToolTurn(response.tool_call, response.raw)
        return FinalTurn(response.content or "", response.raw)


@dataclass(frozen=True, slots=True)
class ToolTurn:
    call: ToolCall
    raw: str = ""

    async def execute(self, run: Run) -> NextStep:
        step = run.steps[-1]
        step.call = self.call
        run.messages.append(prompting.assistant_turn(self.call, None, self.raw))
        if self.call.name not in run.offered:
            return refuse_unoffered(run, self.call)
        signature = self.call.signature()
        if signature in run.seen_calls:
            return repeated(run, self.call, signature)
        if stale_call(run, self.call) or doubled_call(run, self.call):
            return ModelTurn()
        decision = await run.deps.chain.before_tool(run.ctx, self.call)
        if isinstance(decision, Veto):
            return vetoed(run, self.call, decision)
        if decision is not self.call and decision.name not in {spec.name for spec in run.specs}:
            return vetoed(run, self.call, Veto(f"tool {decision.name!r} is not available in this run"))
        return await run_tool(run, decision, step, signature if decision is self.call else decision.signature())


async def run_tool(run: Run, call: ToolCall, step: Step, signature: str) -> NextStep:
    result, error, retry = await execute_tool(run, call, step)
    if retry:
        return retry_tool(run, call.name, f"Calling {call.name}", result)
    run.seen_calls[signature] = result
    if error:
        run.failed_calls.add(signature)
    else:
        run.plan.advance(result)
    run.tool_retries.pop(call.name, None)  # retry limits count consecutive failures
    await run.deps.chain.after_tool(run.ctx, call, result, error)
    if error and placeholder_call(run, call, result):
        return ModelTurn()
    run.messages.append(prompting.observation(run.ctx.task, call, result, error=error, plan=run.plan))
    return ModelTurn()


@dataclass(frozen=True, slots=True)
class FinalTurn:
    content: str
    raw: str = ""

    async def execute(self, run: Run) -> NextStep:
        run.messages.append(prompting.assistant_turn(None, self.content, self.raw))
        if any(check(run, self.content) for check in ANSWER_CHECKS):
            return ModelTurn()
        invented, latest, insisted = unsourced_numbers(run, self.content)
        if invented and insisted:
            # Sent back once already and the model insists on its own number: the tool's result wins.
            content = with_tool_value(self.content, invented, latest)
            if content != self.content:
                run.notice(
                    "final answer kept a number no tool returned; replaced by the tool's result",
                    numbers=invented,
                    result=latest,
                )
            return accept(run, content)
        if invented:
            # Arithmetic done in the model's head after tool use: a 0.5B model gets it wrong. Once, require a tool.
            run.forced, run.unsourced_sent = frozenset(spec.name for spec in run.specs), bool(latest)
            run.notice("final answer has numbers no tool returned; a tool call is required", numbers=invented)
            run.messages.append(prompting.unsourced_notice(run.ctx.task, invented, latest))
            return ModelTurn()
        return accept(run, self.content)


def missing_tool_check(run: Run, answer: str) -> bool:
    """A chain stopped one step early: the task names a tool that was never called. Once, force it."""
    missing = unused_named_tools(run)
    if missing:
        run.forced = frozenset(missing)
        run.notice("final answer before using a tool the task names; that tool is required next", tools=missing)
        run.messages.append(prompting.missing_tool_notice(run.ctx.task, missing))
    return bool(missing)


def unfinished_check(run: Run, answer: str) -> bool:
    """A chain stopped after a step: the answer is that step's result while some number of the task, or an item
    it lists beside one already looked up, went into no call."""
    pending, unnamed, result = unfinished_numbers(run, answer)
    if not (pending or unnamed):
        return False
    run.forced = frozenset(spec.name for spec in run.specs)
    run.notice("final answer repeats a tool result while the task is unfinished", numbers=pending, words=unnamed)
    run.unfinished_named = run.unfinished_named or bool(unnamed)
    steps = [(s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    waiting = open_results(steps)
    waiting = waiting if len(waiting) > 1 else []
    run.messages.append(prompting.unfinished_notice(run.ctx.task, pending, result, unnamed, waiting))
    return True


def uncombined_check(run: Run, answer: str) -> bool:
    """Results of one tool are fetched (both prices) but not combined, and the answer restates one or guesses."""
    uncombined = uncombined_results(run, answer)
    if uncombined:
        run.forced = frozenset(spec.name for spec in run.specs)
        run.notice("final answer repeats one of the results still to combine", results=uncombined)
        run.messages.append(prompting.unfinished_notice(run.ctx.task, [], uncombined[-1], (), uncombined))
    return bool(uncombined)


def made_up_check(run: Run, answer: str) -> bool:
    """The answer is a tool's result on numbers from nowhere ("100 + 200" for two prices): another tool must get
    real values first."""
    inputs, result, tools, items = made_up_inputs(run, answer)
    if inputs:
        run.forced = frozenset(tools)
        run.notice("final answer was computed from made-up inputs; another tool is required", numbers=inputs)
        run.messages.append(prompting.made_up_notice(run.ctx.task, inputs, result, tools, items))
    return bool(inputs)


# The checks a final answer goes through, in order; the first that sends it back wins.
ANSWER_CHECKS: tuple[Callable[[Run, str], bool], ...] = (
    missing_tool_check,
    unfinished_check,
    uncombined_check,
    made_up_check,
)


def accept(run: Run, content: str) -> NextStep:
    try:
        run.output = run.deps.parse_output(content)
    except ModelRetry as exc:
        return retry_output(run, "output", "The final answer", str(exc))
    return Finish("completed", None)


@dataclass(frozen=True, slots=True)
class Finish:
    status: RunStatus
    error: str | None

    async def execute(self, run: Run) -> NextStep:
        run.status, run.error = self.status, self.error
        return self


NextStep = ModelTurn | ToolTurn | FinalTurn | Finish


async def drive(run: Run) -> None:
    """Run steps until Finish. Cancellation and timeouts propagate; the caller keeps the partial state."""
    step: NextStep = ModelTurn()
    while not isinstance(step, Finish):
        step = await step.execute(run)
    await step.execute(run)


def repeated(run: Run, call: ToolCall, signature: str) -> NextStep:
    """A repeated identical call: tell the model and take that tool out of the next turn's grammar.
    A second repeat, or a repeat of a call that failed (or was refused), allows only a final answer: a small
    model that retries a failed call unchanged is usually calling a tool the task does not need
    ("calculator('capital(France)')")."""
    run.repeats += 1
    run.final_only = run.repeats >= 2 or signature in run.failed_calls
    run.excluded = frozenset({call.name})
    run.notice("repeated identical tool call; that tool is excluded from the next turn", call=signature)
    latest = next((s.result for s in reversed(run.steps) if s.result is not None and not s.tool_error), None)
    step = run.steps[-1]
    step.result, step.tool_error = run.seen_calls[signature], signature in run.failed_calls
    step.notes.append("repeated call: not executed again")
    run.messages.append(prompting.repeated_call_notice(run.ctx.task, call, run.seen_calls[signature], latest))
    return ModelTurn()


def vetoed(run: Run, call: ToolCall, veto: Veto) -> NextStep:
    """A refused call is remembered like a failed one, so asking again is caught as a repeat."""
    signature = call.signature()
    run.notice(f"tool call vetoed: {veto.reason}", call=signature)
    if veto.stop:
        return Finish("blocked", veto.reason)
    run.seen_calls[signature] = f"refused: {veto.reason}"
    run.failed_calls.add(signature)
    step = run.steps[-1]
    step.result, step.tool_error = run.seen_calls[signature], True
    run.messages.append(prompting.retry_message(run.ctx.task, f"Calling {call.name}", veto.reason))
    return ModelTurn()


def refuse_unoffered(run: Run, call: ToolCall) -> NextStep:
    """A tool this turn did not offer (hidden by a policy, excluded, or unknown) never runs, whoever chose it:
    a custom model or an `after_model_call` hook cannot bypass `filter_tools`."""
    offered = ", ".join(sorted(run.offered)) or "none"
    run.notice("the model called a tool that was not offered; refused", call=call.signature())
    return retry_output(
        run, "model", f"Calling {call.name}", f"tool {call.name!r} is not available (offered: {offered})"
    )


def unused_named_tools(run: Run) -> list[str]:
    """Tools the task names ("use the calculator") that the run has not called; checked once per run."""
    if run.forced_once or run.final_only:
        return []
    run.forced_once = True
    called = {step.call.name for step in run.steps if step.call is not None}
    return [name for name in prompting.named_tools(run.ctx.task, run.specs) if name not in called]


def unfinished_numbers(run: Run, answer: str) -> tuple[list[str], list[str], str]:
    """(the task's unused numbers, the items it lists that no call used, the last result) when the answer only
    repeats that result. Fires once, and once more after a new result when the first notice named items (each
    item of "3 monitors and 2 keyboards" is a lookup of its own, and the sum is one more step)."""
    checked = run.unfinished_results
    if len(checked) >= 2 or run.final_only or not run.deps.settings.check_unfinished:
        return [], [], ""
    done = good_steps(run)
    if not done:
        return [], [], ""
    result = done[-1].result or ""
    if checked and (result in checked or not run.unfinished_named):
        return [], [], ""
    # The model's own calls as well as what ran: a policy may have rewritten a number the model did use.
    proposed = [m.part.call.arguments for m in run.messages if isinstance(m.part, CallPart) and m.part.call]
    used = [*proposed, *(step.call.arguments for step in done if step.call)]
    if not repeats_result(run.ctx.task, answer, result):
        # An answer with a number no tool returned, while a listed item was never fetched, is a guess at it
        # ("39.95" for a keyboard and a mouse after the mouse alone): name the item rather than the arithmetic.
        results = [step.result or "" for step in done]
        unnamed = unused_words(run) if unsourced(run.ctx.task, answer, results, used) else []
        if unnamed:
            checked.append(result)
        return [], unnamed, result
    pending, unnamed = premature(run.ctx.task, answer, result, used), unused_words(run)
    if pending or unnamed:  # only a check that fired counts: another check may send an answer back first
        checked.append(result)
    return pending, unnamed, result


def unused_words(run: Run) -> list[str]:
    """The task's own content words (not the tools' docs, not an instruction verb) that no call or result has,
    standing where a used one stands: "3 monitors and 2 keyboards" after a lookup of monitors names keyboards."""
    return parallel_unused(run.ctx.task, _candidates(run), _used_text(run))


def _candidates(run: Run) -> list[str]:
    docs = " ".join(f"{spec.description} {' '.join(spec.parameters.get('properties', {}))}" for spec in run.specs)
    return task_words(run.ctx.task, docs, {})


def _used_text(run: Run) -> str:
    """The good calls' arguments and results, as one text to find the task's words in."""
    return " ".join(
        f"{json.dumps(s.call.arguments, ensure_ascii=False)} {s.result or ''}" for s in good_steps(run) if s.call
    )


def good_steps(run: Run) -> list[Step]:
    return [step for step in run.steps if step.call is not None and step.result is not None and not step.tool_error]


def unsourced_numbers(run: Run, answer: str) -> tuple[list[str], str, bool]:
    """(the answer's numbers that no tool returned, the latest result, whether this answer was sent back for
    that already). Before any good call, an answer with numbers to a task with numbers counts too (once): it was
    worked out without the tools. Typed outputs are not checked: a schema's numbers (a score, a count, an id) are
    often the model's to give."""
    settings = run.deps.settings
    if not settings.check_sources or not run.specs or settings.output_schema is not None:
        return [], "", False
    done = good_steps(run)
    if not done:
        if run.guess_checked or run.final_only:
            return [], "", False
        run.guess_checked = True
        return guessed(run.ctx.task, answer), "", False
    insisted = run.unsourced_sent
    if not insisted and (run.sources_checked or run.final_only):
        return [], "", False
    run.sources_checked = True
    calls = [step.call.arguments for step in done if step.call]
    results = [step.result or "" for step in done]
    return unsourced(run.ctx.task, answer, results, calls), results[-1], insisted


def made_up_inputs(run: Run, answer: str) -> tuple[list[str], str, list[str], list[str]]:
    """(made-up inputs, their result, the other tools to get values with, the task's items no call used yet) when
    the answer is the result of a call on numbers from nowhere. Fires only when an offered tool the run has not
    used could supply real values; once more after a new result (the model often fetches one item of two, then
    repeats its made-up total)."""
    settings = run.deps.settings
    done = good_steps(run)
    fired = run.made_up_at
    if not settings.check_sources or run.final_only or settings.output_schema is not None:
        return [], "", [], []
    if len(fired) >= 2 or (fired and fired[-1] == len(done)):
        return [], "", [], []
    steps = [(step.call.arguments, step.result or "") for step in done if step.call is not None]
    inputs, result = made_up(run.ctx.task, answer, steps)
    makers = {s.call.name for s in done if s.call is not None and (s.result or "").strip() == result}
    others = [spec.name for spec in run.specs if spec.name not in makers]
    if not inputs or not others:
        return [], "", [], []
    fired.append(len(done))
    return inputs, result, others, unused_items(run)


def unused_items(run: Run) -> list[str]:
    """The task's own content words that no call or result has (the candidates for values still to get)."""
    used = _used_text(run)
    return [word for word in _candidates(run) if not mentions(used, word)]


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
    source = done[index].call
    assert source is not None
    run.doubled_checked, run.forced = True, frozenset({source.name})
    value = (done[index].result or "").strip()
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {value} is used twice, but it is the value of one item only", True
    run.notice("tool call uses one result twice while a listed item is still to get; not run", call=call.signature())
    fixed = ToolCall(source.name, _with_item(run, source.arguments, items[0]))
    run.messages.append(prompting.doubled_notice(run.ctx.task, fixed, value, items[0]))
    return True


def uncombined_results(run: Run, answer: str) -> list[str]:
    """Once: the results of one tool still to combine (two looked-up prices that no call has used yet) when the
    answer restates only some of them ("1.2 + 1.2 = 2.4" for 329 and 1.2) or brings a number no tool returned
    (their sum worked out in the model's head)."""
    if run.combine_checked or run.final_only or not run.deps.settings.check_sources:
        return []
    done = [s for s in good_steps(run) if s.call is not None]
    if not done:
        return []
    steps = [(s.call.arguments, s.result or "") for s in done if s.call is not None]
    made = set(made_up_steps(run.ctx.task, steps))
    waiting = set(open_results(steps))
    last = done[-1].call.name if done[-1].call else ""
    same = [
        s.result or ""
        for i, s in enumerate(done)
        if s.call is not None and s.call.name == last and s.result in waiting and i not in made
    ]
    if len(same) < 2 or not listed_together(run.ctx.task, _candidates(run), _used_text(run)):
        return []
    calls = [arguments for arguments, _ in steps]
    guessed_sum = unsourced(run.ctx.task, answer, [result for _, result in steps], calls)
    if not (leaves_out(answer, same) or guessed_sum):
        return []
    run.combine_checked = True
    return same


def _with_item(run: Run, arguments: dict[str, Any], item: str) -> dict[str, Any]:
    """The arguments with the task word they name replaced by `item` (the call written out for the next item)."""
    words = [w for w in task_words(run.ctx.task, "", {}) if w != item]
    return {
        key: item if isinstance(value, str) and any(mentions(value, w) for w in words) else value
        for key, value in arguments.items()
    }


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
    words = task_words(run.ctx.task, spec.description, spec.parameters)
    run.notice("tool call argument copied from the tool's description", call=call.signature(), values=copied)
    fixed = ToolCall(call.name, with_value(call.arguments, copied, words[0])) if words else call
    run.messages.append(prompting.placeholder_notice(run.ctx.task, fixed, copied, words, error))
    return True


def stale_call(run: Run, call: ToolCall) -> bool:
    """Hold back, once, a call that takes an earlier call's input where that call's result belongs; the next turn
    must call the same tool (the model was mid-step)."""
    if run.stale_checked or not run.deps.settings.check_sources:
        return False
    earlier = [(s.call.name, s.call.arguments, s.result or "") for s in good_steps(run) if s.call is not None]
    taken, result = stale_inputs(call.arguments, earlier, call.name)
    if not taken:
        return False
    run.stale_checked, run.forced = True, frozenset({call.name})
    step = run.steps[-1]
    step.result, step.tool_error = f"not run: {' and '.join(taken)} should be the earlier result {result}", True
    run.notice("tool call reuses an earlier input instead of its result; not run", call=call.signature(), numbers=taken)
    fixed = ToolCall(call.name, with_result(call.arguments, taken, result))
    run.messages.append(prompting.stale_notice(run.ctx.task, fixed, taken, result))
    return True


def build_request(run: Run) -> ModelRequest:
    settings = run.deps.settings
    tools = () if run.final_only else tuple(s for s in run.specs if s.name not in run.excluded)
    forced, run.forced, run.excluded = run.forced, None, frozenset()
    if forced and not run.final_only:
        tools = tuple(s for s in run.specs if s.name in forced)
    return ModelRequest(
        messages=tuple(run.messages),
        tools=tools,
        output_schema=settings.output_schema,
        allow_final=not (forced and tools) and not (run.plan.done and run.plan.remaining and tools),
        max_tokens=settings.max_tokens,
        think=settings.think,
        constrain=bool(run.specs) or settings.output_schema is not None or settings.constrain_final,
    )


async def call_model(run: Run, request: ModelRequest) -> ModelResponse:
    """The request through the policy chain to the model the chain chose (`request.model`) or the run's own."""

    async def base(req: ModelRequest) -> ModelResponse:
        model = req.model or run.deps.model
        run.model_name = model.name
        try:
            response = await model.complete(req)
        except (ModelError, AssertionError):  # AssertionError: a test model failing its test, shown as it is
            raise
        except Exception as exc:  # a backend's own failure ends the run with a typed error, not a raw one
            raise ModelBackendError(f"model {model.name} failed: {type(exc).__name__}: {exc}") from exc
        return checked(response, f"model {model.name}")

    return checked(await run.deps.chain.model_turn(run.ctx, base)(request), "the model-turn hooks")


def checked(response: Any, source: str) -> ModelResponse:
    if not isinstance(response, ModelResponse):
        raise ModelBackendError(f"{source} returned {type(response).__name__}, not a ModelResponse")
    return response


def record_model_step(run: Run, response: ModelResponse, seconds: float, at: float) -> None:
    usage = response.usage
    run.usage.add(usage)
    run.steps.append(Step(index=run.ctx.step, usage=usage, model_seconds=seconds, content=response.content))
    if run.emit is no_sink:
        return
    run.emit(
        ModelCalled(
            run.ctx.run_id, run.ctx.step, usage, seconds, response.tool_call, response.content, run.model_name, at=at
        )
    )


async def execute_tool(run: Run, call: ToolCall, step: Step) -> tuple[str, bool, bool]:
    """(result text, error, retry). Exceptions never escape: the model sees them and carries on."""
    step.call = call
    at, started = time.time(), time.perf_counter()
    if run.emit is not no_sink:
        run.emit(ToolStarted(run.ctx.run_id, run.ctx.step, call, at=at))
    error = retry = False
    try:
        value = await run.deps.toolset.call_tool(call.name, call.arguments, run.ctx)
        result = prompting.format_result(value)
    except ModelRetry as exc:
        result, retry = str(exc), True
    except TimeoutError:
        timeout, _ = run.deps.toolset.tool_settings(call.name)
        result, error = f"timed out after {timeout}s", True
    except (Exception, SystemExit) as exc:  # a crashing tool (even sys.exit) must not end the run or the process
        result, error = f"{type(exc).__name__}: {exc}", True
    finally:
        seconds = time.perf_counter() - started
        run.ledger.tool_seconds += seconds  # an interrupted tool's time is the tool's, not the framework's
    step.result, step.tool_error, step.tool_seconds = result, error, seconds
    if run.emit is not no_sink:
        run.emit(ToolCalled(run.ctx.run_id, run.ctx.step, call, result, seconds, error or retry, at=at))
    return result, error, retry


def retry_tool(run: Run, name: str, what: str, message: str) -> NextStep:
    """A tool's arguments were rejected: bounded per tool by its own `max_retries`."""
    run.tool_retries[name] = count = run.tool_retries.get(name, 0) + 1
    return _retry(run, count, run.deps.toolset.tool_settings(name)[1], what, message)


def retry_output(run: Run, key: str, what: str, message: str) -> NextStep:
    """The model's output broke (unparseable, wrong output type, a tool not offered): bounded by `retries`."""
    run.output_retries[key] = count = run.output_retries.get(key, 0) + 1
    return _retry(run, count, run.deps.settings.retries, what, message)


def _retry(run: Run, count: int, limit: int, what: str, message: str) -> NextStep:
    if count > limit:
        return Finish("error", f"{what} failed {count} times: {message}")
    run.notice(f"retry: {what} failed: {message}", attempt=count)
    run.messages.append(prompting.retry_message(run.ctx.task, what, message))
    return ModelTurn()
