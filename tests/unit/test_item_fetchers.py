"""The tool that fetches the task's items is the one asked for the item still to get (thirty-ninth stop;
independent14's cg20: "Look up the capital of Argentina, count how many words its name has, and multiply that by
the price of a coffee mug")."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from bench import toolbox

TOOLS = ["calculator", "lookup", "word_count"]
CAPITAL = call("lookup", table="capitals", key="Argentina")
COUNT = call("word_count", text="Buenos Aires")
MUG = call("lookup", table="prices", key="coffee mug")
PRODUCT = call("calculator", expression="2 * 7.25")


async def test_a_repeated_lookup_while_the_step_needs_an_item_runs_for_the_item() -> None:
    task = (
        "Look up the capital of Argentina, count how many words its name has, and multiply that by the price of a"
        " coffee mug."
    )
    model = ScriptedModel([CAPITAL, COUNT, CAPITAL, PRODUCT, "14.5"])
    result = await Agent(model, tools=toolbox.agent_tools(TOOLS), max_steps=8).run(task)
    # the repeat ran with the coffee mug as its key; it failed in the capitals, and the probe found its table
    assert result.steps[2].call == MUG and result.steps[2].result == "7.25"
    assert result.output == "14.5"


async def test_a_result_used_twice_asks_the_item_tool_for_the_item() -> None:
    task = "The number of words in the name of the capital of Argentina times the price of a coffee mug?"
    model = ScriptedModel([CAPITAL, COUNT, call("calculator", expression="2 * 2"), MUG, PRODUCT, "14.5"])
    result = await Agent(model, tools=toolbox.agent_tools(TOOLS), max_steps=8).run(task)
    notice = model.requests[3].messages[-1].content
    # the word count gave the 2 used twice, but only the lookup fetches items; the table stays a table
    assert "Call lookup for coffee mug first" in notice and '"table": "capitals", "key": "coffee mug"' in notice
    assert [spec.name for spec in model.requests[3].tools] == ["lookup"]
    assert result.output == "14.5"
