"""Results fetched but not combined, and the answer restating one (agentcore.uncombined)."""

from __future__ import annotations

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from bench import toolbox

MUGS = "I buy one coffee mug every day. How much will I have spent on mugs over the days from 2024-03-01 to 2024-05-15?"
FETCHED = [
    call("date_diff", start="2024-03-01", end="2024-05-15"),
    call("lookup", table="prices", key="coffee mug"),
]


async def test_two_fetchers_results_are_to_combine_and_a_formula_tool_comes_next() -> None:
    """independent10's cc24: 75 days and a mug's 7.25, answered 7.25."""
    model = ScriptedModel([*FETCHED, "7.25", call("calculator", expression="75 * 7.25"), "543.75"])
    tools = toolbox.agent_tools(["calculator", "date_diff", "lookup"])
    result = await Agent(model, tools=tools).run(MUGS)
    assert result.output == "543.75"
    assert [t.name for t in model.requests[3].tools] == ["calculator"]
    notice = model.requests[3].messages[-1].content
    assert "75" in notice and "7.25" in notice


async def test_one_fetchers_result_beside_a_calculation_it_fed_is_no_pair() -> None:
    model = ScriptedModel([FETCHED[1], call("calculator", expression="7.25 * 3"), "21.75"])
    tools = toolbox.agent_tools(["calculator", "date_diff", "lookup"])
    result = await Agent(model, tools=tools).run("What do 3 coffee mugs cost?")
    assert result.output == "21.75" and len(model.requests) == 3


async def test_the_count_of_the_results_a_call_just_combined_is_no_number_still_to_use() -> None:
    """independent10's cc21: "multiply the two counts together" ran `29 * 28`, was told 2 was unused, ran `812 * 2`."""
    task = (
        "Count the days from 2024-02-01 to 2024-03-01, count the days from 2023-02-01 to 2023-03-01, and multiply"
        " the two counts together."
    )
    script = [
        call("date_diff", start="2024-02-01", end="2024-03-01"),
        call("date_diff", start="2023-02-01", end="2023-03-01"),
        call("calculator", expression="29 * 28"),
        "812",
    ]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "date_diff"])).run(task)
    assert result.output == "812" and len(model.requests) == 4


INTRO = (
    "My intro is 'Climate change affects every region of our planet' and my conclusion is 'We must act now to"
    " protect it'. Together, what percent of my 50-word limit do they use?"
)
COUNTED = [
    call("word_count", text="Climate change affects every region of our planet"),
    call("word_count", text="We must act now to protect it"),
]


async def test_two_counts_of_one_tool_asked_together_are_to_combine() -> None:
    """independent12's cd21: the two word counts, and 70% answered for the second one alone."""
    model = ScriptedModel([*COUNTED, "70.0%", call("calculator", expression="(8 + 7) / 50 * 100"), "30"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "word_count"])).run(INTRO)
    assert model.requests[3].messages[-1].content.startswith("Not done yet: the results 8, 7 are not combined yet")
    assert result.output == "30"


async def test_a_count_left_beside_its_sibling_that_a_calculation_took_is_to_combine() -> None:
    """cd21 again: `7 / 50` took the second count and left the first, and 14% was answered."""
    script = [*COUNTED, call("calculator", expression="7 / 50"), "14.0%"]
    model = ScriptedModel([*script, call("calculator", expression="(8 + 7) / 50 * 100"), "30"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "word_count"])).run(INTRO)
    assert "8" in model.requests[4].messages[-1].content.split("\n")[0]
    assert result.output == "30"
