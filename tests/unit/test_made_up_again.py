"""A call that takes a made-up call's numbers again, after real values were fetched (loop_checks.made_up_again_call)."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

PRICES = {"laptop": "899", "printer": "159"}


@tool(read_only=True)
def lookup(key: str) -> str:
    """Price of a product in dollars."""
    return PRICES[key]


def let_through(model: ScriptedModel) -> Agent[None, str]:
    agent: Agent[None, str] = Agent(model, tools=[lookup, calculator])
    agent.fetch_first = False
    return agent


TASK = "What is the combined price of a laptop and a printer?"
# The made-up call runs first, as it does where nothing held it back (`Agent.fetch_first`, agentcore.fetch_first).
MADE_UP = [call("calculator", expression="2 * (100 + 50)"), call("lookup", key="laptop"), call("lookup", key="printer")]


async def test_made_up_numbers_taken_again_after_the_lookups_are_held_back() -> None:
    """compose16's l08: `100 + 50 + 159` after `2 * (100 + 50)` and both lookups."""
    again = call("calculator", expression="100 + 50 + 159")
    model = ScriptedModel([*MADE_UP, again, call("calculator", expression="899 + 159"), "1058"])
    result = await let_through(model).run(TASK)
    held = model.requests[4]
    assert held.messages[-1].content.startswith("Not run: 50 and 100 were made up earlier; no tool returned them.")
    assert "values the tools returned (899, 159)" in held.messages[-1].content
    assert [t.name for t in held.tools] == ["calculator"] and not held.allow_final
    assert result.output == "1058"
    assert [s.result for s in result.steps if s.call is not None][3].startswith("not run: 50 and 100")


async def test_one_made_up_number_again_runs() -> None:
    # one number of the made-up call again beside real values: a constant of the model's own, maybe
    model = ScriptedModel([*MADE_UP, call("calculator", expression="899 + 159 + 50"), "1108"])
    assert (await let_through(model).run(TASK)).output == "1108"
