"""The conversion a task still asks for, written out (issue #12), and a failed call that wrote it in words.

`conversion_due` reads the task's units against an offered converter (agentcore.unit_names): "25 liters
converted to gallons, times 4" with no conversion to gallons yet is due as `unit_convert(25, "l", "gal")`. The
final-answer check (`answer_checks.conversion_check`) sends an answer given before it back.

`conversion_instead`: a small model that has not converted often writes the units into the arithmetic instead
("25 liters * 4", "3 liters * 10 gallons": compose30's ak06, compose32's am06). The calculator rejects the words,
the model repeats the call, and once only a final answer is allowed it answers with the expression. When such a
failed call holds the task's number and a unit word of the conversion due, the conversion runs in its place: it
is the step the words stand for, and the model goes on from its result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore.messages import ToolCall
from agentcore.run_reads import good_steps
from agentcore.unfinished import argument_values, numbers_in
from agentcore.unit_names import Converter, converter, named_units, unconverted

if TYPE_CHECKING:
    from agentcore.run_state import Run


def conversion_due(run: Run) -> tuple[ToolCall, str, float | None] | None:
    """The conversion still due, written out, the task's word for the unit it reaches, and the task's number it
    converts: from that number in its unit, or (None) from the latest result in the unit the last conversion
    reached."""
    found = _due(run)
    return None if found is None else found[:3]


def conversion_instead(run: Run, call: ToolCall) -> ToolCall | None:
    """The conversion due from the task's own number, when the failed `call` (of another tool) writes that number
    and a unit of the conversion's kind as words; None otherwise."""
    found = _due(run)
    if found is None or found[2] is None or found[0].name == call.name:
        return None
    conversion, _, number, shape = found
    spec = next(s for s in run.specs if s.name == conversion.name)
    if not spec.read_only:  # it runs unasked: only a tool without side effects may
        return None
    if number not in argument_values(call.arguments):
        return None
    wanted = {str(conversion.arguments[shape.source]), str(conversion.arguments[shape.target])}
    written = {n.unit for value in call.arguments.values() if isinstance(value, str) for n in named_units(value, shape)}
    return conversion if written & wanted else None


def _due(run: Run) -> tuple[ToolCall, str, float | None, Converter] | None:
    done = good_steps(run)
    for spec in run.specs:
        shape = converter(spec.parameters) if spec.name in run.offered else None
        if shape is None:
            continue
        calls = [s.call.arguments for s in done if s.call is not None and s.call.name == spec.name]
        due = unconverted(run.ctx.task, shape, calls)
        if due is None:
            continue
        latest = numbers_in(done[-1].result or "") if done and due.number is None else []
        number = latest[0] if len(latest) == 1 else due.number
        if number is not None:
            value = int(number) if number.is_integer() else number
            arguments = {shape.value: value, shape.source: due.source, shape.target: due.unit}
            return ToolCall(spec.name, arguments), due.word, due.number, shape
    return None
