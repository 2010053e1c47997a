"""The form a checked call runs in: each argument as its docs and the task give it (`in_documented_form`), read
by the loop before the call checks of `agentcore.loop_checks` (split from there: those hold calls back, these
rewrite one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentcore import enum_tails
from agentcore.asked_units import asked_unit, with_time_factor
from agentcore.bare_counts import item_values, with_each_count, with_item_values, with_missing_count, with_own_values
from agentcore.comparisons import as_difference
from agentcore.copy_slips import with_task_zeros
from agentcore.date_slips import on_task_dates
from agentcore.dates import in_documented_layout
from agentcore.doc_codes import coded_arguments, named_again, with_named_codes
from agentcore.fit_counts import as_fit_count, asks_how_many
from agentcore.formats import from_examples
from agentcore.grounding import invented_optional
from agentcore.messages import ToolCall, ToolSpec
from agentcore.named_flags import asked_flags
from agentcore.named_operation import as_distance, as_gap, as_named_operation, as_task_operation
from agentcore.operand_order import in_task_order
from agentcore.percents import as_percent_fractions
from agentcore.place_forms import example_form_places
from agentcore.places import real_places
from agentcore.portions import of_results
from agentcore.powers import without_unasked_powers
from agentcore.quotes import as_quoted
from agentcore.rate_sums import as_products
from agentcore.rates import as_fractions
from agentcore.relative_dates import on_asked_day
from agentcore.roles import in_named_places
from agentcore.run_reads import good_steps, spoken_text
from agentcore.runaway import cut_short
from agentcore.said_order import in_said_order
from agentcore.separators import without_separators
from agentcore.stand_ins import with_results
from agentcore.step_order import current_step_only
from agentcore.task_data import USER_TASK, data_only, in_user_words
from agentcore.times import as_task_time, in_documented_time
from agentcore.tool_fit import tool_docs
from agentcore.tool_order import computes
from agentcore.unfinished import BARE_NUMBER, leaves, values_in
from agentcore.ungiven import undated_optional
from agentcore.unit_names import as_named, converter, without_unit_words
from agentcore.unit_steps import without_unit_step
from agentcore.url_templates import from_templates, without_sentence_end
from agentcore.written_twice import with_unused_result

if TYPE_CHECKING:
    from agentcore.result import Step
    from agentcore.run_state import Run


def _without_invented(run: Run, spec: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` less the optional ones whose numbers no one gave (`grounding.invented_optional`), and the
    optional dates and times of a conversation that gives none (`ungiven.undated_optional`)."""
    spoken = spoken_text(run)
    invented = invented_optional(arguments, spec.parameters, spec.description, spoken)
    invented += undated_optional(arguments, spec.parameters, spoken)
    return {k: v for k, v in arguments.items() if k not in invented} if invented else arguments


def _with_named_codes(run: Run, spec: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` with each number documented as "N for NAME" set to the one the conversation names
    (agentcore.doc_codes), less an optional free string that names again the place such a number stands for; the
    conversation is read only for a tool that has such an argument."""
    coded = coded_arguments(spec.parameters)
    if not coded:
        return arguments
    fixed = with_named_codes(arguments, coded, spoken_text(run))
    again = named_again(fixed, spec.parameters)  # "Bangkok" as the district beside province_id=1
    return {k: v for k, v in fixed.items() if k not in again} if again else fixed


def _unit_words_out(spec: ToolSpec, arguments: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """A formula tool's arguments with the unit words after results left out (unit_names.without_unit_words)."""
    if not computes(spec):
        return arguments
    returned = {round(value, 9) for result in results for value in values_in(result)}
    fixed = {
        key: without_unit_words(value, returned) if isinstance(value, str) else value
        for key, value in arguments.items()
    }
    return fixed if fixed != arguments else arguments


def _one_step(run: Run, arguments: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """An expression that also does a later step of the plan, out of the task's order, as its own step only
    (agentcore.step_order)."""
    step = run.plan.current
    if step is None or run.plan.fetching:
        return arguments
    later = run.plan.steps[run.plan.done + 1 :]
    fixed = {k: current_step_only(v, step, results, later) if isinstance(v, str) else v for k, v in arguments.items()}
    return fixed if fixed != arguments else arguments


def _as_named(run: Run, spec: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
    """A converter's call from the unit the task writes its number in to the unit it asks for (unit_names)."""
    shape = converter(spec.parameters)
    if shape is None:
        return arguments
    done = [s.call.arguments for s in good_steps(run) if s.call is not None and s.call.name == spec.name]
    converted = {float(v) for a in done for v in [a.get(shape.value)] if isinstance(v, int | float)}
    return as_named(arguments, shape, run.ctx.task, converted)


def _converted(run: Run, done: list[Step]) -> list[tuple[str, str]]:
    """Each conversion's (result, the unit it is in): a converter's call and its target unit (unit_names)."""
    shapes = {spec.name: converter(spec.parameters) for spec in run.specs}
    return [
        ((step.result or "").strip(), str(step.call.arguments.get(shape.target)))
        for step in done
        if step.call is not None and (shape := shapes.get(step.call.name)) is not None
    ]


def _time_factors(run: Run, done: list[Step], arguments: dict[str, Any]) -> dict[str, Any]:
    """Arithmetic on a count of one unit of time, converted with a factor that is not the one to the unit the task
    asks for, goes with that factor (`2 * 60` for the minutes in 2 days runs as `2 * 1440`; asked_units)."""
    specs = {spec.name: spec for spec in run.specs}
    fixed = arguments
    for step in done:
        spec = specs.get(step.call.name) if step.call is not None else None
        units = asked_unit(run.ctx.task, tool_docs(spec)) if spec is not None else None
        result = (step.result or "").strip()
        if units is None or not BARE_NUMBER.fullmatch(result):
            continue
        fixed = {
            key: with_time_factor(value, result, units[1], units[0], run.ctx.task) if isinstance(value, str) else value
            for key, value in fixed.items()
        }
    return fixed if fixed != arguments else arguments


# Forms read off the task and the docs alone, in order: the day asked about, then the flags named, then dates and
# times in their documented layouts and the task's one time, then values in the arguments the task names them for,
# then web addresses from their docs' templates (which read those values) and without the sentence's end.
_TASK_FORMS: tuple[Callable[[dict[str, Any], dict[str, Any], str], dict[str, Any]], ...] = (
    on_asked_day,
    asked_flags,
    in_documented_layout,
    on_task_dates,
    in_said_order,
    without_separators,
    in_documented_time,
    as_task_time,
    in_named_places,
    from_templates,
    without_sentence_end,
)


def _in_task_forms(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` through each of `_TASK_FORMS`; the same dict when none changes anything."""
    for form in _TASK_FORMS:
        arguments = form(arguments, parameters, task)
    return arguments


def in_documented_form(run: Run, call: ToolCall) -> ToolCall:
    """The call to run, in the form its docs and the task give: a percentage of the task written as a whole number into
    a rate argument goes as its fraction (`annual_return=7` for "7%" runs as 0.07; agentcore.rates), and a city alone
    that the argument's docs give as an example with its state goes as the example ("New York" -> "New York, NY";
    agentcore.formats) and a state its city is not in goes as the city's own ("San Francisco, TX" -> "San Francisco,
    CA"; agentcore.places), and an enum value that only starts the task's word goes as the value that word names
    (`from_unit="m"` for "5 miles" runs as "mi"; agentcore.enum_tails), and a portion the task names added as its bare
    fraction goes as that portion of the result ("85 + 0.5" for "plus half of it" runs as "85 + 85 * 0.5";
    agentcore.portions) and a percentage multiplied as a whole number goes as its fraction ("10 * 85" for "10% of the
    chair's price" runs as "0.1 * 85"; agentcore.percents), and two results added where the task asks how much one
    exceeds the other go as their difference ("899 + 329" runs as "899 - 329"; agentcore.comparisons), and the task's
    divisor or amount taken away written first goes second ("3 / 899" for "divided by 3"; agentcore.operand_order), and
    a rate of the task added to a count goes times it ("95 + 7" for 7 nights at "$95 a night"; agentcore.rate_sums), and
    a near copy of a text the task quotes goes as that text (one "la" lost from 'la la ... bye'; agentcore.quotes), as
    does the first untaken of two quoted texts run together, and a date goes in the layout its docs name ("2022/08/16"
    -> "08-16-2022"; agentcore.dates) and on the day the task asks about against a today it states ("tomorrow? today is
    2023.10.1"; agentcore.relative_dates), and the task's own date copied with another day of its month goes as the
    task's ("1995-05-01" for "the 5th of May 1995"; agentcore.date_slips), and a flat expression of the task's numbers
    in its order goes with the parentheses its back-reference asks for ("86420 - 39875 * 13" for "subtract 39,875, and
    multiply what's left by 13"; agentcore.said_order), and the whole task copied into a text tool's argument goes as
    the data it marks off after a colon or an arrow (agentcore.task_data), in the user's words where the model read
    spelled quantities as digits, and a number the task writes with thousands separators goes into an expression without
    them ("73,415 + 28,906"; agentcore.separators), and a yes-or-no argument the task names unnegated goes as yes ("a
    unisex salon"; agentcore.named_flags), and a time the task does not write, where it writes one, goes as that time
    (`time="14:30"` for "at 13:30"; agentcore.times), and an optional argument whose numbers no one gave is left out
    (`start_date="2021-06-15"`; grounding.invented_optional), and two values go to the arguments the task names them for
    (`db_name` and `table` swapped back; agentcore.roles), and a converter goes between the units the task names ("25
    pounds in kilograms"; agentcore.unit_names), and an earlier call, its text or a name written into arithmetic in
    place of its result goes as that result (agentcore.stand_ins), and a power of a result the task never asks for goes
    as the result ("3 * 8.75**2" for 3 usb cables; agentcore.powers), and a count of an item written alone into a sum
    that leaves out the item's fetched value goes times that value ("6 + 3 * 7.25" runs as "6 * 1.2 + 3 * 7.25";
    agentcore.bare_counts) and counts multiplied by each other's values go with their own ("3 * 64 + 2 * 45.9" for 3
    keyboards and 2 webcams), and a count of "each of my 5 kids" added to the values each of them gets goes times their
    sum, and an expression that also does a later step of the plan against precedence goes as its own step (step_order),
    and a count of days converted with the wrong factor goes with the right one (`2 * 60` for minutes; asked_units), and
    a unit factor of the model's own carried onto the converter's result that replaced it goes (`91.44 * 7 * 1000` after
    `3 * 7 * 1000` and 3 ft in cm; unit_steps), and an argument that runs on in a decoding loop goes with its repeated
    operation once (agentcore.runaway), and a long number of the task copied with a zero too few or too many goes as the
    task writes it (agentcore.copy_slips), and a number of the task written twice where the one unused result belongs
    goes as that result ("12 - 12" after the backpack's 49.5; agentcore.written_twice), and two results added where the
    task only multiplies them (or the other way round) go with the task's operation, as does a result and a number the
    task writes after "add ... to" or "multiplied by", and a result and the number a task asks how far it lies above or
    below go as their difference (agentcore.named_operation), and a product of two quantities of one kind, where the
    task asks how many things, goes as the whole over the portion (agentcore.fit_counts), and a sum of a result and a
    number of the task, where the task asks how much is short or left, as their difference
    (agentcore.named_operation)."""
    spec = next((spec for spec in run.specs if spec.name == call.name), None)
    if spec is None:
        return call
    done = [step for step in good_steps(run) if step.call is not None]
    results = [step.result or "" for step in done]
    earlier = [(step.call.name, step.call.arguments, step.result or "") for step in done if step.call is not None]
    written = with_task_zeros(cut_short(_unit_words_out(spec, call.arguments, results)), run.ctx.task)
    arguments = {key: with_results(value, call.name, earlier) for key, value in written.items()}
    arguments = with_unused_result(arguments, run.ctx.task, earlier, call.name)
    items = [(given, result) for name, given, result in earlier if name != call.name]
    arguments = without_unasked_powers(arguments, run.ctx.task, results, item_values(run.ctx.task, items))
    arguments = _with_counted_items(arguments, run.ctx.task, items)
    arguments = _one_step(run, arguments if arguments != call.arguments else call.arguments, results)
    texts = [leaf for _, given, _ in earlier for leaf in leaves(given) if isinstance(leaf, str)]
    arguments = as_fractions(as_quoted(arguments, run.ctx.task, texts), spec.parameters, run.ctx.task)
    arguments = as_percent_fractions(of_results(arguments, run.ctx.task, results), run.ctx.task, results)
    arguments = as_named_operation(as_difference(arguments, run.ctx.task, results), run.ctx.task, results)
    arguments = as_distance(as_task_operation(arguments, run.ctx.task, results), run.ctx.task, results)
    converted = _converted(run, done) if asks_how_many(run.ctx.task) else []  # read only where it can matter
    arguments = as_gap(as_fit_count(arguments, run.ctx.task, converted), run.ctx.task, results)
    arguments = as_products(in_task_order(arguments, run.ctx.task, results), run.ctx.task, results, earlier)
    arguments = real_places(from_examples(arguments, spec.parameters), spec.parameters)
    arguments = example_form_places(arguments, spec.parameters)
    arguments = enum_tails.meant(arguments, spec.parameters, run.ctx.task)
    arguments = _time_factors(run, done, _as_named(run, spec, arguments))
    arguments = without_unit_step(arguments, call.name, earlier, run.ctx.task)
    arguments = _as_given(run, spec, arguments)
    if arguments is call.arguments:
        return call
    fixed = ToolCall(name=call.name, arguments=arguments)
    run.notice(
        "tool call written in the form its docs and the task give", call=call.signature(), fixed=fixed.signature()
    )
    return fixed


def _with_counted_items(arguments: dict[str, Any], task: str, items: list[tuple[Any, str]]) -> dict[str, Any]:
    """Counts and fetched item values written into arithmetic as the task counts them (agentcore.bare_counts)."""
    for form in (with_item_values, with_own_values, with_missing_count, with_each_count):
        arguments = {key: form(value, task, items) for key, value in arguments.items()}
    return arguments


def _as_given(run: Run, spec: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
    """The forms read off the task alone, a text tool's data as the user gave it, no invented optional values,
    and the docs' codes for the values the task names."""
    task = run.ctx.task
    arguments = data_only(_in_task_forms(arguments, spec.parameters, task), spec, task)
    arguments = in_user_words(arguments, spec, task, run.ctx.metadata.get(USER_TASK, task))
    return _with_named_codes(run, spec, _without_invented(run, spec, arguments))
