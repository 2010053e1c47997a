"""A unit factor of the model's own carried onto the converter's result goes (agentcore.unit_steps)."""

from __future__ import annotations

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.unit_steps import without_unit_step
from bench import toolbox  # the benchmark's converter: its docs make the loop ask for the conversion

PLANKS = "A plank is 3 feet long. How many centimeters are 7 planks?"
OPENING = ("calculator", {"expression": "3 * 7 * 1000"}, "21000")
CONVERTED = ("unit_convert", {"value": 3, "from_unit": "ft", "to_unit": "cm"}, "91.44")


def test_the_factor_beside_the_converted_number_goes() -> None:
    """compose35's ap16: `91.44 * 7 * 1000` after `3 * 7 * 1000` and 3 ft = 91.44 cm."""
    fixed = without_unit_step({"expression": "91.44 * 7 * 1000"}, "calculator", [OPENING, CONVERTED], PLANKS)
    assert fixed == {"expression": "91.44 * 7"}


def test_a_factor_that_stood_beside_no_converted_number_stays() -> None:
    arguments = {"expression": "91.44 * 7 * 1000"}
    assert without_unit_step(arguments, "calculator", [CONVERTED], PLANKS) is arguments  # never beside the 3
    other = ("calculator", {"expression": "7 * 1000"}, "7000")
    assert without_unit_step(arguments, "calculator", [other, CONVERTED], PLANKS) is arguments
    circle = "A round table has a radius of 3 feet. What is its area in square centimeters?"
    pi = [("calculator", {"expression": "3 * 3 * 3.14159"}, "28.27431"), CONVERTED]
    kept = {"expression": "3.14159 * 91.44 * 91.44"}
    assert without_unit_step(kept, "calculator", pi, circle) is kept  # pi is no unit factor
    task = "A plank is 3 feet long. How many centimeters are 7 planks, times 1000?"
    assert without_unit_step(arguments, "calculator", [OPENING, CONVERTED], task) is arguments  # the task's own


async def test_the_loop_runs_the_conversion_once() -> None:
    """As it ran: sent to convert after answering 21000, and on after answering 91.44 with the 7 unused."""
    script = [call("calculator", expression="3 * 7 * 1000"), "21000"]
    script += [call("unit_convert", value=3, from_unit="ft", to_unit="cm"), "91.44"]
    model = ScriptedModel([*script, call("calculator", expression="91.44 * 7 * 1000"), "640.08"])
    result = await Agent(model, tools=toolbox.agent_tools(["unit_convert", "calculator"])).run(PLANKS)
    ran = [s.call.arguments for s in result.steps if s.call is not None]
    assert ran[-1] == {"expression": "91.44 * 7"} and result.steps[-2].result == "640.08"
    assert result.output == "640.08"
