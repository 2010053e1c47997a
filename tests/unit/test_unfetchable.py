"""Listed words the item tool rejects are not sent to be fetched (agentcore.unfetchable)."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

PRICES = {"printer": "159", "chair": "85", "desk": "240"}


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product."""
    if key not in PRICES:
        raise ValueError(f"no {key!r} in prices")
    return PRICES[key]


@tool(read_only=False)
def order(key: str) -> str:
    """Order a product (not read-only: never probed)."""
    return f"ordered {key}"


async def test_a_word_the_lookup_rejects_is_no_item_to_fetch() -> None:
    """independent5's bx05: told "Call a tool for work next", the model looked the printer up again."""
    task = "Could you find the price of the printer and work out what 15 of them would cost?"
    model = ScriptedModel([call("lookup", key="printer"), "159", call("calculator", expression="159 * 15"), "2385"])
    result = await Agent(model, tools=[lookup, calculator]).run(task)
    notice = model.requests[2].messages[-1].content
    assert "work" not in notice.split("Task:")[0]
    assert notice.endswith("Call a tool for the next step with 159 and 15.")
    assert result.output == "2385"


async def test_an_item_the_lookup_holds_is_still_named_in_the_singular_or_plural() -> None:
    done = [call("calculator", expression="2 * 85 + 3 * 240"), "890"]
    model = ScriptedModel([call("lookup", key="chair"), "85", call("lookup", key="desk"), *done])
    result = await Agent(model, tools=[lookup, calculator]).run("What do 2 chairs and 3 desks cost?")
    assert model.requests[2].messages[-1].content.endswith("Call a tool for desks next.")  # "desk" is held
    assert result.output == "890"


async def test_a_tool_with_side_effects_is_never_probed_and_the_words_stay() -> None:
    model = ScriptedModel([call("order", key="printer"), "ordered printer", "done"])
    result = await Agent(model, tools=[order, calculator]).run("Order the printer and work out what 15 would cost")
    assert not [step for step in result.steps if step.call is not None and step.call.name == "order"][1:]
