"""A number of the task written twice where a fetched value belongs (agentcore.written_twice)."""

from __future__ import annotations

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.written_twice import with_unused_result
from bench import toolbox

TASK = "The shop said they'd knock off 12 bucks from the backpack price. So what do I end up paying?"
BACKPACK = [("lookup", {"table": "prices", "key": "backpack"}, "49.5")]


def test_the_extra_copy_runs_as_the_unused_result() -> None:
    assert with_unused_result({"expression": "12 - 12"}, TASK, BACKPACK, "calculator") == {"expression": "49.5 - 12"}


def test_copies_the_task_writes_or_no_unused_result_leave_it() -> None:
    twice = "I ran 12 km on Monday and 12 km on Tuesday, plus the backpack walk. Total?"
    for task, expression, earlier in [
        (twice, "12 + 12", BACKPACK),  # the task writes 12 twice
        (TASK, "12 - 12", []),  # nothing fetched yet
        (TASK, "49.5 - 12", BACKPACK),  # the result is in it
        (TASK, "12 - 12", [*BACKPACK, ("calculator", {"expression": "49.5 - 12"}, "37.5")]),  # 49.5 was used
    ]:
        arguments = {"expression": expression}
        assert with_unused_result(arguments, task, earlier, "calculator") is arguments


async def test_the_held_call_written_again_after_the_lookup_takes_the_price() -> None:
    """ca11 as it ran: the call held for the backpack first, the price looked up, the same call again."""
    tools = toolbox.agent_tools(["lookup", "calculator"])
    script = [call("calculator", expression="12 - 12"), call("lookup", table="prices", key="backpack")]
    script += [call("calculator", expression="12 - 12"), "37.5"]
    result = await Agent(ScriptedModel(script), tools=tools).run(TASK)
    assert [s.result for s in result.steps if s.call is not None][-1] == "37.5"
    assert result.output == "37.5"


def test_dates_and_squares_are_no_copy_of_a_fetched_value() -> None:
    task = "A square patio is 12 ft a side, booked for 2024-05-05; paving costs the tile price per sq ft."
    tiles = [("lookup", {"table": "prices", "key": "tile"}, "4.5")]
    for value in ("12 * 12", "2024-05-05"):
        arguments = {"expression": value}
        assert with_unused_result(arguments, task, tiles, "calculator") is arguments
