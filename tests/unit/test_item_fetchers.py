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


SYMBOLS = (
    "Chemistry homework: look up the symbols for carbon, hydrogen and oxygen, write them on one line separated by"
    " spaces, count the words in that line, and multiply the count by 11."
)


async def test_a_step_of_three_items_is_not_done_by_the_first_lookup() -> None:
    """independent14's cg24: sent on to "write them on one line" after carbon's C, the model multiplied C by 11."""
    script = [call("lookup", table="elements", key=k) for k in ("carbon", "hydrogen", "oxygen")]
    script += [call("word_count", text="C H O"), call("calculator", expression="3 * 11"), "33"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(TOOLS), max_steps=8).run(SYMBOLS)
    after_carbon = str(model.requests[1].messages[-1].content)
    assert "Step 1 of 3 is not done yet" in after_carbon and "call a tool for hydrogen" in after_carbon
    assert [spec.name for spec in model.requests[1].tools] == ["lookup"]
    after_oxygen = str(model.requests[3].messages[-1].content)
    # writing the symbols on one line is no tool's step: it goes with the word count (agentcore.steps)
    assert "That was step 1 of 3. Next step: write them on one line separated by spaces, count" in after_oxygen
    assert result.output == "33"


async def test_a_call_whose_tool_shares_no_word_with_the_step_is_held_for_the_tool_that_does() -> None:
    """independent14's cg24, live: told to count the words of the line, the model called `C + H + O`."""
    script = [call("lookup", table="elements", key=k) for k in ("carbon", "hydrogen", "oxygen")]
    script += [call("calculator", expression="C + H + O"), call("word_count", text="C H O")]
    script += [call("calculator", expression="3 * 11"), "33"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(TOOLS), max_steps=8).run(SYMBOLS)
    notice = str(model.requests[4].messages[-1].content)
    assert "word_count fits this step better than calculator" in notice and "C, H, O" in notice
    assert [spec.name for spec in model.requests[4].tools] == ["word_count"]
    assert result.steps[3].result == "not run: word_count fits the step better"
    # the symbols went into the counted line: only the count is carried into "multiply the count by 11"
    assert "The result to use is 3." in str(model.requests[5].messages[-1].content)
    assert result.output == "33"
