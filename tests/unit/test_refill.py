"""A failed call repeated unchanged after new numbers came in is sent back once with them (agentcore.loop.refill)."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

TASK = "By how much does a monitor's price exceed a webcam's?"
NAMES = call("calculator", expression="price - price_in_dollars - tax")  # three names for two prices
LOOKUPS = [call("lookup", key="monitor"), call("lookup", key="webcam")]


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product in dollars."""
    return {"monitor": "215", "webcam": "64"}[key]


def notices(trace: list[dict[str, object]]) -> list[str]:
    return [str(e["message"]) for e in trace if e["kind"] == "notice"]


async def test_a_failed_call_repeated_after_lookups_gets_the_numbers_to_write_in() -> None:
    """compose20's aa09 wrote its first plan, `price - price_in_dollars`, again after both lookups; here a name
    more than the numbers fetched leaves it as written, and the notice lists them."""
    model = ScriptedModel([NAMES, *LOOKUPS, NAMES, call("calculator", expression="215 - 64"), "151"])
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    notice = model.requests[4].messages[-1].content
    assert notice.startswith("You already called calculator with these arguments, and it failed:")
    assert "Since then: lookup(monitor) = 215; lookup(webcam) = 64." in notice
    assert [t.name for t in model.requests[4].tools] == ["lookup", "calculator"]
    assert result.output == "151"


async def test_a_second_repeat_allows_only_an_answer() -> None:
    model = ScriptedModel([NAMES, *LOOKUPS, NAMES, NAMES, "151"])
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert model.requests[5].allow_final and not model.requests[5].tools
    assert notices(result.trace).count("repeated a failed call after new results; asked to write them in") == 1


async def test_a_failed_call_repeated_at_once_allows_only_an_answer() -> None:
    """Nothing new came in: the model is retrying a call the task does not need."""
    model = ScriptedModel([*LOOKUPS, NAMES, NAMES, "151"])
    await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert not model.requests[4].tools


async def test_names_in_the_order_the_numbers_were_fetched() -> None:
    """compose20's aa09: `price - price_in_dollars`, again after a monitor's price and a webcam's."""
    names = call("calculator", expression="price - price_in_dollars")
    model = ScriptedModel([names, *LOOKUPS, names, "151"])
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert result.steps[3].result == "151" and result.output == "151"
