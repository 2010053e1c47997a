"""One request, one action several times: after a status result ("done"), the task's numbers no call took are
for the same tool again (agentcore.again), not a chain's next step."""

from __future__ import annotations

import pytest

from agentcore.again import again, is_status
from agentcore.agent import Agent
from agentcore.messages import ToolCall, ToolSpec, Usage
from agentcore.result import Step
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

SIDES = "Compute the hypotenuse for two pairs of side lengths: 3 and 4, 5 and 12."
LOANS = "Check my loan eligibility for $500,000 at HSBC with income $100,000 and for $700,000 at Wells Fargo with income $120,000."  # noqa: E501
CIRCLES = "Find the area of a circle with a radius of 5 and the circumference of a circle with a diameter of 10."


@tool
def pythagoras(a: int, b: int) -> str:
    """Compute the hypotenuse of a right triangle and store it."""
    return "done"


@tool
def hypotenuse(a: int, b: int) -> str:
    """Compute the hypotenuse of a right triangle."""
    return str((a * a + b * b) ** 0.5)


def _spec(name: str, *parameters: str) -> ToolSpec:
    properties = {p: {"type": "integer"} for p in parameters}
    return ToolSpec(name, "", {"type": "object", "properties": properties})


def _step(name: str, result: str, **arguments: object) -> Step:
    return Step(0, Usage(), 0.0, call=ToolCall(name, dict(arguments)), result=result)


@pytest.mark.parametrize(
    ("result", "status"),
    [
        ("done", True),
        ('{"status": "booked"}', True),
        ("Booked successfully", True),
        ("logged", True),
        ("5.0", False),
        ("amiL", False),  # a word is a value: "Lima" reversed
        ("sunny", False),
        ("", False),
        ("done " * 20, False),  # long: a text to read
    ],
)
def test_a_status_is_a_short_result_of_status_words(result: str, status: bool) -> None:
    assert is_status(result) is status


def test_the_same_call_is_written_out_with_the_numbers_no_call_took() -> None:
    plan = again(SIDES, [_step("pythagoras", "done", a=3, b=4)], ["5", "12"], [_spec("pythagoras", "a", "b")])
    assert plan is not None
    assert (plan.tool, plan.numbers, plan.took) == ("pythagoras", ("5", "12"), ("3", "4"))
    assert plan.call == ToolCall("pythagoras", {"a": 5, "b": 12})


def test_the_words_after_the_next_number_stand_where_the_calls_words_stood() -> None:
    step = _step("loan_check", "done", bank="HSBC", amount=500000, income=100000)
    plan = again(LOANS, [step], ["700000", "120000"], [_spec("loan_check", "bank", "amount", "income")])
    assert plan is not None
    assert plan.call == ToolCall("loan_check", {"bank": "Wells Fargo", "amount": 700000, "income": 120000})


def test_a_text_the_task_gave_before_its_number_is_named_not_copied() -> None:
    task = "Check my loan at HSBC for $500,000 with income $100,000, and at Wells Fargo for $700,000 with $120,000."
    step = _step("loan_check", "done", bank="HSBC", amount=500000, income=100000)
    plan = again(task, [step], ["700000", "120000"], [_spec("loan_check", "bank", "amount", "income")])
    assert plan is not None
    assert plan.call is None and plan.texts == ("HSBC",)


@pytest.mark.parametrize(
    ("task", "arguments", "pending", "written"),
    [
        (  # one list holds the years the call took: each other year is an action of its own
            "Present value of $1000 a year at 5% for 10, 20 and 30 years.",
            {"payment": 1000, "rate": 0.05, "years": 10},
            ["20", "30"],
            {"payment": 1000, "rate": 0.05, "years": 20},
        ),
        (  # the words after each amount stand where the last call's did
            "Sales tax on $30.45 in Chicago, Illinois, $52.33 in Sacramento, California and $11.23 in Portland, OR.",
            {"amount": 30.45, "city": "Chicago", "state": "Illinois"},
            ["52.33", "11.23"],
            {"amount": 52.33, "city": "Sacramento", "state": "California"},
        ),
        (  # a number written as text stays text
            "Find the details of cases 28473 and 64725 with their history.",
            {"case_number": "28473", "include_history": True},
            ["64725"],
            {"case_number": "64725", "include_history": True},
        ),
    ],
)
def test_the_next_call_is_read_from_the_tasks_text(
    task: str, arguments: dict[str, object], pending: list[str], written: dict[str, object]
) -> None:
    step = _step("act", "done", **arguments)
    plan = again(task, [step], pending, [_spec("act", *arguments)])
    assert plan is not None and plan.call == ToolCall("act", written)


def test_a_number_whose_words_name_another_tools_parameter_goes_to_that_tool() -> None:
    specs = [_spec("circle_area", "radius"), _spec("circle_circumference", "diameter")]
    plan = again(CIRCLES, [_step("circle_area", "done", radius=5)], ["10"], specs)
    assert plan is not None
    assert plan.tool == "circle_circumference" and plan.call is None


@pytest.mark.parametrize(
    ("step", "pending"),
    [
        (_step("pythagoras", "5.0", a=3, b=4), ["5", "12"]),  # a value: the chain's check takes it
        (_step("pythagoras", "done", a=3, b=4), []),  # nothing left to use
        (_step("pythagoras", "done", a=7, b=9), ["5", "12"]),  # the call took none of the task's numbers
    ],
)
def test_no_plan_for_a_value_for_nothing_left_or_numbers_not_the_tasks(step: Step, pending: list[str]) -> None:
    assert again(SIDES, [step], pending, [_spec("pythagoras", "a", "b")]) is None


async def test_an_answer_after_a_status_goes_back_with_the_call_for_the_other_pair() -> None:
    model = ScriptedModel(
        [call("pythagoras", a=3, b=4), "The hypotenuse is 5.", call("pythagoras", a=5, b=12), "Both are stored."]
    )
    result = await Agent(model, tools=[pythagoras]).run(SIDES)
    assert [s.call.arguments for s in result.steps if s.call] == [{"a": 3, "b": 4}, {"a": 5, "b": 12}]
    notice = model.requests[2].messages[-1].content
    assert "the task still uses 5 and 12" in notice and '"a": 5, "b": 12' in notice
    assert not model.requests[2].allow_final  # a call is required next


async def test_a_repeat_after_a_status_keeps_the_tool_and_names_the_numbers() -> None:
    first = call("pythagoras", a=3, b=4)
    model = ScriptedModel([first, "5", first, call("pythagoras", a=5, b=12), "Both are stored."])
    result = await Agent(model, tools=[pythagoras]).run(SIDES)
    assert [s.call.arguments for s in result.steps if s.call and not s.notes] == [{"a": 3, "b": 4}, {"a": 5, "b": 12}]
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("You already made that call for 3 and 4") and "5 and 12" in notice
    assert "pythagoras" in [t.name for t in model.requests[3].tools]  # not taken out after the repeat


async def test_a_numeric_result_is_a_chains_step_and_gets_no_again_notice() -> None:
    model = ScriptedModel([call("hypotenuse", a=3, b=4), "5.0", call("hypotenuse", a=5, b=12), "13.0"])
    await Agent(model, tools=[hypotenuse]).run(SIDES)
    notice = model.requests[2].messages[-1].content
    assert "Not done yet" in notice and "for example" not in notice


@tool
def weather(location: str) -> str:
    """Get the current weather of a city and post it to the channel."""
    return "posted"


async def test_a_city_listed_beside_the_one_called_goes_back_after_a_status() -> None:
    script = [call("weather", location="Boston"), "Sunny.", call("weather", location="San Francisco"), "Both posted."]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[weather]).run(
        "What's the weather like in the two cities of Boston and San Francisco?"
    )
    assert [s.call.arguments for s in result.steps if s.call] == [{"location": "Boston"}, {"location": "San Francisco"}]
    notice = model.requests[2].messages[-1].content
    assert "the task still uses San Francisco" in notice and "in place of Boston" in notice


def test_the_power_of_a_unit_is_no_number_to_use_again() -> None:
    task = "Final velocity for an initial velocity of 20 m/s, acceleration of 5 m/s^2 and time of 6 seconds."
    step = _step("final_velocity", "done", initial_velocity=20, acceleration=5, time=6)
    assert again(task, [step], ["2"], [_spec("final_velocity", "initial_velocity", "acceleration", "time")]) is None


@tool
def interviewers(skill: str) -> str:
    """Retrieve the interviewers qualified in a skill. Note that the provided function is in Python 3 syntax."""
    return "done"


async def test_a_value_the_tools_docs_also_use_is_still_the_tasks_word() -> None:
    model = ScriptedModel([call("interviewers", skill="Python"), "done", call("interviewers", skill="Java"), "done"])
    result = await Agent(model, tools=[interviewers]).run("interviewers list for Python and Java")
    assert [s.call.arguments for s in result.steps if s.call] == [{"skill": "Python"}, {"skill": "Java"}]
    notice = model.requests[2].messages[-1].content
    assert "the task still uses Java" in notice and "in place of Python" in notice  # the task's own case


@tool
def battle_details(battle_name: str) -> str:
    """Details of a battle of European history."""
    return "done"


@tool
def treaty_info(treaty_name: str) -> str:
    """Information about a treaty of European history."""
    return "done"


WATERLOO = "Find an overview of the Battle of Waterloo and the signing of the Treaty of Tordesillas."


async def test_words_left_go_to_the_tool_the_task_names_next_not_the_same_again() -> None:
    script = [call("battle_details", battle_name="Battle of Waterloo"), "done"]
    script += [call("treaty_info", treaty_name="Tordesillas"), "done"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[battle_details, treaty_info]).run(WATERLOO)
    assert [s.call.name for s in result.steps if s.call] == ["battle_details", "treaty_info"]
    assert "the treaty (treaty_info)" in model.requests[2].messages[-1].content
    # "signing" stands beside the battle an earlier call took, not beside the treaty: no third call is asked for
    assert len(model.requests) == 4 and result.output == "done"
