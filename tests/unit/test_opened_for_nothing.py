"""An opening calculation whose result went nowhere leaves the task's numbers unused (run_reads.opened_for_nothing)."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

TASK = "Take a desk's price and knock 10 percent off it."


class Opening(Agent[None, str]):
    fetch_first = False  # the opening calculation runs, as it does where no tool fetches the task's items


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product in dollars."""
    return {"desk": "240"}[key]


async def test_the_numbers_of_a_calculation_before_the_lookup_are_still_to_use() -> None:
    """compose29's aj14: `10 * (1 - 0.10)` = 9 before the desk's price, then 240 answered."""
    script = [call("calculator", expression="10 * (1 - 0.10)"), call("lookup", key="desk"), "240"]
    model = ScriptedModel([*script, call("calculator", expression="240 - 240 * 0.10"), "216"])
    result = await Opening(model, tools=[lookup, calculator]).run(TASK)
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not done yet: 240 is only the result of the last step, and the task still uses 10.")
    assert result.output == "216"


async def test_an_opening_calculation_a_later_call_took_counts() -> None:
    """`0.10 * 10` = 1 taken into `240 - 240 * 0.1 * 1`: its numbers were used; the answer stands."""
    script = [call("calculator", expression="0.10 * 10"), call("lookup", key="desk")]
    model = ScriptedModel([*script, call("calculator", expression="240 - 24 * 1"), "216"])
    result = await Opening(model, tools=[lookup, calculator]).run(TASK)
    assert result.output == "216" and len(model.requests) == 4
