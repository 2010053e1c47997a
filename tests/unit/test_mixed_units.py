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


def test_a_number_joined_to_a_quantity_has_its_unit() -> None:
    """independent1's ar34: the 9 of "14 miles on Saturday and 9 on Sunday" is miles too."""
    assert SHAPE is not None
    task = "Cycled 14 miles on Saturday and 9 on Sunday. What's the weekend total in kilometres?"
    miles = ({"value": 14, "from_unit": "mi", "to_unit": "km"}, "22.530816")
    assert unconverted_term({"expression": "22.530816 + 9"}, task, SHAPE, [miles]) == (9.0, "mi", "22.530816", "km")
    plus = "What is 25 pounds in kilograms, plus 3?"  # an operation on the quantity, not another one
    pounds = ({"value": 25, "from_unit": "lb", "to_unit": "kg"}, "11.339809")
    assert unconverted_term({"expression": "11.339809 + 3"}, plus, SHAPE, [pounds]) is None
    other = "Cycled 14 miles on Saturday. Add 9 to the total in kilometres."  # another sentence: a plain number
    assert unconverted_term({"expression": "22.530816 + 9"}, other, SHAPE, [miles]) is None


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


async def test_a_quantity_the_task_states_converts_whatever_came_before() -> None:
    """independent1's ar04: `350 * 2` first, then the conversion of 350 F had been held as a stale input."""
    task = "What's 350 degrees Fahrenheit in Celsius, and what's double that?"
    script = [call("calculator", expression="350 * 2"), call("unit_convert", value=350, from_unit="F", to_unit="C")]
    script += [call("calculator", expression="176.666667 * 2"), "353.333334"]
    result = await Agent(ScriptedModel(script), tools=TOOLS).run(task)
    assert [s.result for s in result.steps if s.call is not None][1:] == ["176.666667", "353.333334"]
    assert result.output == "353.333334"


# ar36's run up to the ounces converted (the sum held in between), and the held step done
HELD_THEN_CONVERTED = [
    call("unit_convert", value=7, from_unit="lb", to_unit="g"),
    call("calculator", expression="3175.14659 + 8"),
    call("unit_convert", value=8, from_unit="oz", to_unit="g"),
]
SUMMED = [call("calculator", expression="3175.14659 + 226.796185"), "3401.942775"]


async def test_the_conversion_answered_alone_sends_the_model_back_to_the_held_step() -> None:
    """independent1's ar36 as it went on: 8 oz converted, and 226.796185 answered."""
    model = ScriptedModel([*HELD_THEN_CONVERTED, "226.796185", *SUMMED])
    result = await Agent(model, tools=TOOLS).run(BABY)
    notice = model.requests[4].messages[-1].content
    assert notice.startswith("Not done yet: 226.796185 is only the conversion; the step it was for is still to do.")
    assert '{"tool": "calculator", "arguments": {"expression": "3175.14659 + 226.796185"}}' in notice
    assert result.output == "3401.942775"


async def test_an_earlier_result_answered_after_the_conversion_goes_back_to_the_held_step_too() -> None:
    """ar36 in another run: the pounds' 3175.14659 answered after 8 oz in g."""
    result = await Agent(ScriptedModel([*HELD_THEN_CONVERTED, "3175.14659", *SUMMED]), tools=TOOLS).run(BABY)
    assert result.output == "3401.942775"


async def test_the_held_step_due_on_the_last_turn_is_run_by_the_loop() -> None:
    """The held step written out on the turn before the last that max_steps allows (independent8's ca22): the
    loop runs it in place of a turn that offers only an answer, and answers with its result."""
    model = ScriptedModel([*HELD_THEN_CONVERTED, "226.796185"])
    result = await Agent(model, tools=TOOLS, max_steps=5).run(BABY)
    assert len(model.requests) == 4  # no fifth model turn
    last = result.steps[-1]
    assert last.call is not None and last.call.arguments == {"expression": "3175.14659 + 226.796185"}
    assert last.usage.calls == 0 and last.notes
    assert (result.status, result.output) == ("completed", "3401.942775")


async def test_with_turns_left_the_model_makes_the_held_step_itself() -> None:
    model = ScriptedModel([*HELD_THEN_CONVERTED, "226.796185", *SUMMED])
    result = await Agent(model, tools=TOOLS, max_steps=6).run(BABY)
    assert len(model.requests) == 6 and not result.steps[-2].notes
    assert result.output == "3401.942775"


async def test_the_done_conversion_repeated_after_the_hold_runs_as_the_one_it_showed() -> None:
    """independent12's cd20: told "12 is in lb", the model converted the 40 oz again."""
    task = "I bought a 12 lb turkey and 40 oz of potatoes. How many kilograms is that altogether?"
    ounces = call("unit_convert", value=40, from_unit="oz", to_unit="kg")
    script = [ounces, call("calculator", expression="12 + 1.133981"), ounces]
    script += [call("calculator", expression="5.443108 + 1.133981"), "6.577089"]
    result = await Agent(ScriptedModel(script), tools=toolbox.agent_tools(["calculator", "unit_convert"])).run(task)
    ran = [(s.call.name, s.result) for s in result.steps if s.call is not None and s.result is not None]
    assert ran[2] == ("unit_convert", "5.443108")
    assert result.output == "6.577089"


async def test_the_held_step_with_unit_words_runs_on_the_last_turn_in_its_documented_form() -> None:
    """independent12's cd20, live at max_steps only: the held `12 lb + 1.133981 oz` was written out with its unit
    words, and the loop ran it on the last turn without the rewrites a model's call gets: it failed."""
    held = [
        call("unit_convert", value=7, from_unit="lb", to_unit="g"),
        call("calculator", expression="3175.14659 g + 8 oz"),
        call("unit_convert", value=8, from_unit="oz", to_unit="g"),
    ]
    model = ScriptedModel([*held, "226.796185"])
    result = await Agent(model, tools=TOOLS, max_steps=5).run(BABY)
    last = result.steps[-1]
    assert last.call is not None and last.call.arguments == {"expression": "3175.14659 + 226.796185"}
    assert (result.status, result.output) == ("completed", "3401.942775")
