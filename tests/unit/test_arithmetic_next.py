"""An answer that leaves only numbers of the task to combine with a result sends the model to the formula tool
(answer_checks._arithmetic_next)."""

from __future__ import annotations

import contextlib

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from bench import toolbox

TASK = "word count of 'to be or not to be that is the question' times 15?"
TEXT = "to be or not to be that is the question"


async def test_a_number_left_to_combine_offers_only_the_formula_tool() -> None:
    """independent12's cd12: told "the task still uses 15", the model counted the words again and reversed them."""
    script = [call("word_count", text=TEXT), "15", call("calculator", expression="10 * 15"), "150"]
    model = ScriptedModel(script)
    tools = toolbox.agent_tools(["calculator", "reverse_string", "word_count"])
    result = await Agent(model, tools=tools).run(TASK)
    assert [t.name for t in model.requests[2].tools] == ["calculator"]
    assert result.output == "150"


async def test_a_quantity_left_to_convert_keeps_every_tool() -> None:
    task = "What is the word count of 'one two three' plus 15 miles in km?"
    script = [call("word_count", text="one two three"), "3"]
    model = ScriptedModel([*script, call("unit_convert", value=15, from_unit="mi", to_unit="km"), "24.14"])
    tools = toolbox.agent_tools(["calculator", "unit_convert", "word_count"])
    with contextlib.suppress(AssertionError):  # the script ends where the checks want more
        await Agent(model, tools=tools).run(task)
    assert {t.name for t in model.requests[2].tools} >= {"unit_convert", "calculator"}
