"""A converter's result combined with a number the task writes in another unit of its kind (agentcore.mixed_units)."""

from __future__ import annotations

from agentcore import Agent
from agentcore.mixed_units import unconverted_term
from agentcore.testing import ScriptedModel, call
from agentcore.unit_names import converter
from bench import toolbox

TOOLS = toolbox.agent_tools(["unit_convert", "calculator"])
SHAPE = converter(TOOLS[0].parameters)
BABY = "Our daughter weighed 7 lb 8 oz at birth. What's that in grams?"
POUNDS = ({"value": 7, "from_unit": "lb", "to_unit": "g"}, "3175.14659")


def test_a_number_in_another_unit_beside_the_converted_one_is_found() -> None:
    assert SHAPE is not None
    assert unconverted_term({"expression": "3175.14659 + 8"}, BABY, SHAPE, [POUNDS]) == (8.0, "oz", "3175.14659", "g")
    ounces = ({"value": 8, "from_unit": "oz", "to_unit": "g"}, "226.796185")
    assert unconverted_term({"expression": "3175.14659 + 226.796185"}, BABY, SHAPE, [POUNDS, ounces]) is None
    count = "A parcel weighs 7 lb. What do 8 of them weigh in grams?"  # 8 has no unit: a count
    assert unconverted_term({"expression": "3175.14659 * 8"}, count, SHAPE, [POUNDS]) is None


async def test_the_call_is_held_and_the_conversion_shown() -> None:
    """independent1's ar36, as it ran, and on as the notice says."""
    script = [
        call("unit_convert", value=7, from_unit="lb", to_unit="g"),
        call("calculator", expression="3175.14659 + 8"),
    ]
    script += [call("unit_convert", value=8, from_unit="oz", to_unit="g")]
    script += [call("calculator", expression="3175.14659 + 226.796185"), "3401.942775"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=TOOLS).run(BABY)
    notice = model.requests[2].messages[-1].content
    assert notice.startswith("Not run: 8 is in oz and 3175.14659 is in g; convert 8 oz to g before combining them.")
    assert '{"tool": "unit_convert", "arguments": {"value": 8, "from_unit": "oz", "to_unit": "g"}}' in notice
    assert [t.name for t in model.requests[2].tools] == ["unit_convert"]
    assert result.output == "3401.942775"
