"""The run loop as a small typed state machine: ModelTurn -> ToolTurn -> ModelTurn ... -> Finish.

Each step is a short coroutine that returns the next step. `Run` holds the state (`agentcore.run_state`);
`RunDeps` is all the loop knows of its owner: the model, the toolset, the policy chain (the agent's own hooks are
its innermost policy), the settings and the output parser. The loop never sees the Agent. Nothing here blocks
the event loop: models and sync tools run in threads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from agentcore import comparisons, prompting
from agentcore.again import again_after_repeat
from agentcore.answer_checks import ANSWER_CHECKS, derivation, echoed_again, unsourced_numbers
from agentcore.call_forms import in_documented_form
from agentcore.count_checks import answer_after_total, counts_again, done_again_answer, total_answer
from agentcore.errors import ContextOverflowError, ModelBackendError, ModelError, ModelRetry, ModelUnavailableError
from agentcore.events import ModelCalled, ToolCalled, ToolStarted, no_sink
from agentcore.fetch_first import held_first
from agentcore.fit_checks import placeholder_call
from agentcore.loop_checks import (
    CALL_CHECKS,
    asked_only,
    items_left,
    stale_again,
    step_items,
    written_again,
)
from agentcore.loop_probes import listed_next, pending_instead, probed, probed_items, timed_outcomes
from agentcore.messages import ModelRequest, ModelResponse, ToolCall, Usage
from agentcore.moved_past import answer_moved_past
from agentcore.operand_order import in_task_order
from agentcore.percents import as_percent_fractions
from agentcore.policy import Veto
from agentcore.portions import of_results
from agentcore.result import RunStatus, Step
from agentcore.run_reads import (
    REPEATED,
    good_steps,
    items_after_failure,
    pending_again,
    results_since,
)
from agentcore.run_state import Run
from agentcore.stand_ins import names_for_results
from agentcore.text_results import text_result_answer
from agentcore.unfetchable import unfetchable_words
from agentcore.unfetched import unfetched_items
from agentcore.unfinished import (
    argument_values,
    plain,
    with_tool_value,
    without_working,
)
from agentcore.written_checks import lost_after_part


@dataclass(frozen=True, slots=True)
class ModelTurn:
    async def execute(self, run: Run) -> NextStep:
        if len(run.steps) >= run.deps.settings.max_steps:
            return at_limit(run)
        run.ctx.step = len(run.steps) + 1
        due = due_at_limit(run)
        if due is not None:
            return await run_due(run, due)
        last_turn(run)
        request = build_request(run)
        run.offered = frozenset(spec.name for spec in request.tools)
        at, started = time.time(), time.perf_counter()
        try:
            response = await call_model(run, request)
        except (ContextOverflowError, ModelUnavailableError, ModelBackendError) as exc:
            run.failure = None if isinstance(exc, ContextOverflowError) else exc
            return Finish("error", str(exc))
        except ModelError as exc:
            return at_limit(run) if run.last_turn else retry_output(run, "model", "the model output", str(exc))
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
        offered = self.call.name in run.offered
        again = stale_again(run, counts_again(run, self.call))
        call = in_documented_form(run, written_again(run, again)) if offered else self.call
        step.call = call
        run.messages.append(prompting.assistant_turn(call, None, self.raw if call is self.call else ""))
        if call.name not in run.offered:
            return at_limit(run) if run.last_turn else refuse_unoffered(run, call)
        signature = call.signature()
        instead = await pending_instead(run, call) if signature in run.seen_calls else None
        if instead is not None:
            run.notice("repeated read-only call; it ran for the item the task still names", call=signature)
            step.call, call, signature = instead, instead, instead.signature()
            run.messages[-1] = prompting.assistant_turn(call, None)
        written = written_in(run, call) if signature in run.failed_calls else None
        if written is not None:
            run.notice("repeated a failed call after new results; it ran with them written in", call=signature)
            step.call, call, signature = written, written, written.signature()
            run.messages[-1] = prompting.assistant_turn(call, None)
        if signature in run.seen_calls:
            return repeated(run, call, signature)
        if any(check(run, call) for check in CALL_CHECKS):
            return ModelTurn()
        if await held_first(run, call, lambda calls: timed_outcomes(run, calls)):
            return ModelTurn()
        return await _policed(run, step, call, signature)


async def _policed(run: Run, step: Step, call: ToolCall, signature: str) -> NextStep:
    """The checked call, less the optional arguments no one asked for (recorded as the call that ran), through
    the policies to the tool."""
    fixed = asked_only(run, call)
    if fixed is not call:
        step.call, call, signature = fixed, fixed, fixed.signature()
        run.messages[-1] = prompting.assistant_turn(fixed, None)
        if signature in run.seen_calls:  # written with an unasked value, the call had run without it
            return repeated(run, call, signature)
    decision = await run.deps.chain.before_tool(run.ctx, call)
    if isinstance(decision, Veto):
        return vetoed(run, call, decision)
    if decision is not call and decision.name not in {spec.name for spec in run.specs}:
        return vetoed(run, call, Veto(f"tool {decision.name!r} is not available in this run"))
    return await run_tool(run, decision, step, signature if decision is call else decision.signature())


_WHAT = {
    "named": "the values its names stand for",
    "conversion": "the conversion its unit words stand for",
    "cut": "its dangling operator left off",
}


async def run_tool(run: Run, call: ToolCall, step: Step, signature: str) -> NextStep:
    result, error, retry = await execute_tool(run, call, step)
    if retry:
        return retry_tool(run, call.name, f"Calling {call.name}", result)
    found, kind = await probed(run, call, result) if error else (None, "")
    if found is not None:  # the one other value that works runs in place of the failed call (agentcore.probe)
        found = in_order_as_named(run, call, found) if kind == "named" else found
        what = _WHAT.get(kind, f"the one other {kind} value that works")
        run.notice(f"a read-only call failed; it ran with {what}", call=signature)
        run.messages[-1] = prompting.assistant_turn(found, None)
        call, signature = found, found.signature()
        if kind == "named":  # its numbers were fetched by the probes: none is made up (agentcore.unfetched)
            run.resolved.add(signature)
        result, error, _ = await execute_tool(run, call, step)
    run.seen_calls[signature] = result
    if error:
        run.failed_calls.add(signature)
    else:
        run.plan.advance(result, call.arguments, items_left=items_left(run, call))
        answer_after_total(run, call)
    run.tool_retries.pop(call.name, None)  # retry limits count consecutive failures
    await run.deps.chain.after_tool(run.ctx, call, result, error)
    if error and placeholder_call(run, call, result):
        return ModelTurn()
    items = step_items(run) if not error else []
    if not error:
        await listed_next(run, call)
    run.messages.append(prompting.observation(run.ctx.task, call, result, error=error, plan=run.plan, items=items))
    return ModelTurn()


def in_order_as_named(run: Run, call: ToolCall, found: ToolCall) -> ToolCall:
    """The call with its names resolved, in the task's order: "cut by 29" written `29 * tablet_price` resolved to
    `29 * 329`, which ran as a product (compose26's ag04), runs as `329 - 29` (agentcore.operand_order). The
    numbers the names became are the results it is read against."""
    fetched = [plain(v) for v in argument_values(found.arguments) - argument_values(call.arguments)]
    # "5 + (headphones price)" for "plus a fifth of that again" resolved to `5 + (129.99)`: the portion's
    # denominator added in its place runs as the portion (agentcore.portions; independent5's bx25)
    arguments = of_results(in_task_order(found.arguments, run.ctx.task, fetched), run.ctx.task, fetched)
    arguments = as_percent_fractions(arguments, run.ctx.task, fetched)  # "10 * chair_price" for 10% of it
    return found if arguments is found.arguments else ToolCall(found.name, arguments)


@dataclass(frozen=True, slots=True)
class FinalTurn:
    content: str
    raw: str = ""

    async def execute(self, run: Run) -> NextStep:
        run.messages.append(prompting.assistant_turn(None, self.content, self.raw))
        run.probed_items = await probed_items(run, self.content)
        run.unfetchable = await unfetchable_words(run, lambda calls: timed_outcomes(run, calls))
        run.items_probed = run.items_probed or bool(run.probed_items)
        run.unfetched = await unfetched_items(run, self.content, lambda calls: timed_outcomes(run, calls))
        if any(check(run, self.content) for check in ANSWER_CHECKS):
            return ModelTurn()
        answer = self.content
        instead = echoed_again(run, answer) or answer_moved_past(run, answer) or done_again_answer(run, answer)
        instead = instead or total_answer(run, answer) or text_result_answer(run, answer)
        if instead is not None:
            return accept(run, instead)
        invented, latest, insisted = unsourced_numbers(run, self.content)
        # A result that answers the task by its shape wins at once, even over one more operation on it ("241",
        # 570 - 329, after `899 - 329` for "the gap in price between a laptop and a tablet": compose22's ac09).
        settled = bool(invented) and not insisted and settled_result(run, latest)
        worked = derivation(run, self.content) if invented and insisted else None
        if worked is not None:
            # Sent back once, and the number is one operation on known numbers ("59 * 2"): its arithmetic checks
            # out, where the tool's result would drop the operation.
            run.notice(
                "final answer kept a number no tool returned; it is one operation on known numbers", worked=worked
            )
            return accept(run, self.content)
        if invented and (insisted or settled):
            return with_result_instead(run, self.content, invented, latest)
        if invented:
            # Arithmetic done in the model's head after tool use: a 0.5B model gets it wrong. Once, require a tool.
            run.forced, run.unsourced_sent = frozenset(spec.name for spec in run.specs), bool(latest)
            run.notice("final answer has numbers no tool returned; a tool call is required", numbers=invented)
            run.messages.append(prompting.unsourced_notice(run.ctx.task, invented, latest))
            return ModelTurn()
        return accept(run, self.content)


def last_turn(run: Run) -> None:
    """The last turn max_steps allows, after a tool gave a result: only a final answer is offered, so the run
    ends with the model's answer from the results so far rather than a call it has no turn left to use (as
    smolagents answers at its step limit). A model that insists on a call still hits the limit."""
    settings = run.deps.settings
    answered = any(signature not in run.failed_calls for signature in run.seen_calls)  # a tool ran and returned
    if settings.answer_at_limit and len(run.steps) == settings.max_steps - 1 and not run.final_only and answered:
        run.final_only = run.last_turn = True
        run.notice("last model turn before max_steps: only a final answer is offered", max_steps=settings.max_steps)


def due_at_limit(run: Run) -> ToolCall | None:
    """The call a check wrote out that has not run, when the turn max_steps allows last is due: the model would
    be offered only an answer and answer without that step (independent8's ca22, "3 lb and 20 oz in kg", had
    `1.360777 + 0.56699` written out on the seventh turn and answered 0.56699 on the eighth)."""
    settings = run.deps.settings
    if not settings.answer_at_limit or len(run.steps) != settings.max_steps - 1 or run.final_only:
        return None
    for fix in (run.stale_fix, run.written_fix):
        if fix is not None and fix.name in {spec.name for spec in run.specs} and fix.signature() not in run.seen_calls:
            return fix
    return None


async def run_due(run: Run, call: ToolCall) -> NextStep:
    """The last turn: the loop runs the call written out, in place of a model turn, and answers with its result
    (the step the checks held due is the one the task ended on). A call that fails or is refused ends the run
    at max_steps, as a call on the last turn would."""
    run.stale_fix = run.written_fix = None
    run.offered = frozenset({call.name})
    # in the form its docs and the task give, as a model's call runs: a held step written out with the held call's
    # unit words ran `5.443108 lb + 1.133981 oz` here and failed (independent12's cd20, live at max_steps only)
    call = in_documented_form(run, call)
    run.steps.append(Step(index=run.ctx.step, usage=Usage(), model_seconds=0.0, call=call))
    run.steps[-1].notes.append("run by the loop: the call written out was due on the last turn")
    run.notice("last turn before max_steps with a call written out and not run; the loop runs it",
               call=call.signature())  # fmt: skip
    run.messages.append(prompting.assistant_turn(call, None))
    step = run.steps[-1]
    await _policed(run, step, call, call.signature())
    if step.result is None or step.tool_error:  # the call that ran may be a rewritten one: its step tells
        return at_limit(run)
    return accept(run, step.result.strip())


def at_limit(run: Run) -> Finish:
    return Finish("max_steps", f"stopped after max_steps={run.deps.settings.max_steps} model turns")


def settled_result(run: Run, latest: str) -> bool:
    """The latest result no call used answers the task by its shape: every step of the task's plan is done and
    this is the last one's result, or the task asks a comparison and this is the larger returned value minus the
    smaller (agentcore.comparisons.answered). An answer with a number of the model's own is then settled as if
    insisted on. Sent back with a call required instead, the model did the last step over again ("subtract 4"
    twice: compose17's o02; "- 1.2" twice: compose16's l09)."""
    plan, done = run.plan, [step for step in good_steps(run) if step.call is not None]
    if not latest or not done or (done[-1].result or "").strip() != latest.strip():
        return False
    if plan.active and not plan.remaining and plan.results[-1].strip() == latest.strip():
        return True
    last = done[-1].call
    results = [step.result or "" for step in done[:-1]]
    return last is not None and comparisons.answered(run.ctx.task, last.arguments, results)


def with_result_instead(run: Run, answer: str, invented: list[str], latest: str) -> NextStep:
    """Sent back once already and the model insists on its own number: the tool's result wins. That result may
    be a step of a task still unfinished ("5 parcels" after one's weight): the answer checks read it as the
    model's answer, once per run (a model that insists again on a number of its own gets the result accepted,
    where checks that may fire twice each would spend the run's turns)."""
    content = with_tool_value(answer, invented, latest)
    content = without_working(answer, invented, latest) if content == answer else content
    if content == answer:
        return accept(run, content)
    run.notice(
        "final answer kept a number no tool returned; replaced by the tool's result", numbers=invented, result=latest
    )
    if not run.replaced_checked:
        run.replaced_checked = True
        if any(check(run, content) for check in ANSWER_CHECKS):
            return ModelTurn()
    return accept(run, content)


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
    ("calculator('capital(France)')"), unless the task lists an item no call fetched yet: the first such repeat
    sends the model for it (`run_reads.items_after_failure`)."""
    step = run.steps[-1]
    if signature not in run.failed_calls and lost_after_part(run):  # the part is ready; the notice writes the rest
        step.result, step.tool_error = run.seen_calls[signature], False
        step.notes.append(REPEATED)
        return ModelTurn()
    run.repeats += 1
    if signature in run.failed_calls and refill(run, call, signature):
        return ModelTurn()
    if signature not in run.failed_calls and run.repeats < 2 and again_after_repeat(run):
        step.result, step.tool_error = run.seen_calls[signature], False
        step.notes.append(REPEATED)
        return ModelTurn()  # the tool stays offered: the same action is due on the task's other numbers
    run.final_only = run.repeats >= 2 or signature in run.failed_calls
    items, fetchers = items_after_failure(run, call) if run.repeats < 2 else ((), frozenset[str]())
    if items:  # an item is still to fetch: that is the next step, not an answer
        run.final_only, run.forced = False, fetchers
    run.excluded = frozenset({call.name})
    run.notice("repeated identical tool call; that tool is excluded from the next turn", call=signature)
    latest = next((s.result for s in reversed(run.steps) if s.result is not None and not s.tool_error), None)
    step.result, step.tool_error = run.seen_calls[signature], signature in run.failed_calls
    step.notes.append(REPEATED)
    pending = () if run.final_only else pending_again(run, signature)
    notice = prompting.repeated_call_notice(run.ctx.task, call, run.seen_calls[signature], latest, pending, items=items)
    run.messages.append(notice)
    return ModelTurn()


def written_in(run: Run, call: ToolCall) -> ToolCall | None:
    """A failed call written again, unchanged, after other tools returned numbers: its names written as those
    numbers (agentcore.stand_ins.names_for_results: "price - priceInBackpack" after a chair's and a backpack's
    prices, compose28's ai09), when every name gets one; None otherwise."""
    seen: dict[str, tuple[Any, str]] = {}
    for done, result in results_since(run, call.signature()):
        if done.name != call.name:
            seen.setdefault(done.signature(), (done.arguments, result))
    fetched = list(seen.values())
    arguments = {}
    for key, value in call.arguments.items():
        fixed = names_for_results(value, fetched) if isinstance(value, str) and fetched else None
        arguments[key] = fixed if fixed is not None else value
    return ToolCall(call.name, arguments) if arguments != call.arguments else None


def refill(run: Run, call: ToolCall, signature: str) -> bool:
    """A failed call repeated unchanged after other calls returned numbers ("price - price_in_dollars" first, then
    both prices looked up: compose20's aa09, compose28's ai09) was the model's plan from the start, not a tool the
    task does not need. Once, the tool stays offered and the notice lists the numbers to write in."""
    since = results_since(run, signature) if not run.refilled and run.repeats < 2 else []
    if not since:
        return False
    run.refilled = True
    step = run.steps[-1]
    step.result, step.tool_error = run.seen_calls[signature], True
    step.notes.append(REPEATED)
    run.notice("repeated a failed call after new results; asked to write them in", call=signature)
    run.messages.append(prompting.refill_notice(run.ctx.task, call, run.seen_calls[signature], since))
    return True


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
