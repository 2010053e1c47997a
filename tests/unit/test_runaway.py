"""An arithmetic argument in a decoding loop, cut to its repeated operation once (agentcore.runaway)."""

from __future__ import annotations

import pytest
from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.runaway import cut_short
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@pytest.mark.parametrize(
    ("expression", "fixed"),
    [
        ("5 * 2" + " * 2" * 80 + " * ", "5 * 2"),  # h16: cut by max_tokens on a dangling operator
        ("3 + 1.5" + " * 1.5" * 7, "3 + 1.5 * 1.5"),
        ("2 * 2 * 2 * 2 * 2", "2 * 2 * 2 * 2 * 2"),  # 2 to the 5th, written by hand
        ("5 * 2 * 3 * 2 * 3 * 2 * 3", "5 * 2 * 3 * 2 * 3 * 2 * 3"),  # no one operation repeated
    ],
)
def test_cut_short(expression: str, fixed: str) -> None:
    assert cut_short({"expression": expression}) == {"expression": fixed}


async def test_a_call_that_runs_on_runs_once_and_the_stale_check_then_reads_it() -> None:
    @tool(read_only=True)
    def to_liters(gallons: float) -> str:
        """Convert gallons to liters."""
        return str(round(gallons * 3.785412, 6))

    runaway = "5 * 2" + " * 2" * 60 + " *"
    script = [call("to_liters", gallons=2), call("calculator", expression=runaway)]
    model = ScriptedModel([*script, call("calculator", expression="5 * 7.570824"), "37.85412"])
    result = await Agent(model, tools=[to_liters, calculator]).run(
        "A jug holds 2 gallons. How many liters do 5 jugs hold?"
    )
    held = [s for s in result.steps if s.call is not None][1]
    assert held.call is not None and held.call.arguments == {"expression": "5 * 2"}
    assert held.result is not None and held.result.startswith("not run: 2 should be the earlier result 7.570824")
    assert result.output == "37.85412"
