"""A failed call with a word copied from its tool's docs names the tool that fits the step better (fortieth stop;
independent14's cg34: "Convert 300 K to Fahrenheit and subtract 32 from it." called
`lookup(table="elements", key="symbol")`)."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from bench import toolbox

TASK = "Convert 300 K to Fahrenheit and subtract 32 from it."
COPIED = call("lookup", table="elements", key="symbol")


async def test_a_copied_word_on_the_wrong_tool_names_the_tool_that_fits() -> None:
    script = [COPIED, call("unit_convert", value=300, from_unit="K", to_unit="F")]
    script += [call("calculator", expression="80.33 - 32"), "48.33"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(["lookup", "unit_convert", "calculator"])).run(TASK)
    notice = str(model.requests[1].messages[-1].content)
    assert "unit_convert fits the task better" in notice and "convert" in notice
    assert [spec.name for spec in model.requests[1].tools] == ["unit_convert"]
    assert result.steps[1].result == "80.33"
    assert result.output == "48.33"
