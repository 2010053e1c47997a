"""A task names a tool by its name, or word by word ("Reverse the digit string" for reverse_string): answered
before that tool ran, the run goes back to it once."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.messages import ToolSpec
from agentcore.prompting import named_tools
from agentcore.testing import ScriptedModel, call
from bench import toolbox

SPECS = [ToolSpec(name=n, description="", parameters={}) for n in ("calculator", "reverse_string", "word_count")]


@pytest.mark.parametrize(
    ("task", "named"),
    [
        ("Reverse the digit string 4071 and give me the resulting number minus 250.", ["reverse_string"]),
        ("Count the words in 'a b c' and multiply that count by 3.", ["word_count"]),
        ("Use the calculator for 3 * 4.", ["calculator"]),
        ("Reverse 'abc'.", []),  # one part of two: not spelled out
        ("What is 3 * 4?", []),
    ],
)
def test_named_tools(task: str, named: list[str]) -> None:
    assert named_tools(task, SPECS) == named


async def test_an_answer_before_the_tool_the_task_spells_out_goes_back_to_it() -> None:
    """independent14's cg12: `4071 - 250` answered 3821, the digits never reversed."""
    task = "Reverse the digit string 4071 and give me the resulting number minus 250."
    script = [call("calculator", expression="4071 - 250"), "3821", call("reverse_string", text="4071")]
    model = ScriptedModel([*script, call("calculator", expression="1704 - 250"), "1454"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "reverse_string"])).run(task)
    assert [t.name for t in model.requests[2].tools] == ["reverse_string"]
    assert result.output == "1454"
