"""A first call on numbers from nowhere waits for the items the task names (agentcore.fetch_first)."""

from __future__ import annotations

import contextlib
from typing import Literal

import pytest
from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from bench import toolbox

PRICES = {"notebook": "3.5", "pen": "1.2"}
TASK = "What do 3 notebooks and 2 pens cost in total?"


@tool(read_only=True)
def lookup(table: Literal["capitals", "prices"], key: str) -> str:
    """Look up a key in a table: capitals (country -> capital), prices (product -> price in dollars)."""
    if table != "prices" or key.removesuffix("s") not in PRICES:
        raise ValueError(f"no {key!r} in {table}")
    return PRICES[key.removesuffix("s")]


FETCHED = [call("lookup", table="prices", key="notebooks"), call("lookup", table="prices", key="pens")]
DONE = [call("calculator", expression="3 * 3.5 + 2 * 1.2"), "12.9"]


def agent(model: ScriptedModel, tools: list[object] | None = None, max_steps: int = 8) -> Agent[None, str]:
    return Agent(model, tools=tools or [lookup, calculator], max_steps=max_steps)


def notices(trace: list[dict[str, object]]) -> list[str]:
    return [str(e["message"]) for e in trace if e["kind"] == "notice"]


async def test_a_first_call_on_a_made_up_price_is_held_and_the_items_named() -> None:
    """compose11's j07: `3 + 2 * 5`, the pens' price made up, before any lookup."""
    model = ScriptedModel([call("calculator", expression="3 + 2 * 5"), *FETCHED, *DONE])
    result = await agent(model).run(TASK)
    held = model.requests[1]
    assert held.messages == model.requests[0].messages  # taken back: the made-up 5 is nowhere in the conversation
    assert [t.name for t in held.tools] == ["lookup"] and not held.allow_final
    assert result.steps[0].result == "not run: 5 would be made up"
    assert result.output == "12.9" and len(model.requests) == 5  # no made-up answer to send back


async def test_a_constant_of_the_models_own_runs_where_no_tool_fetches_what_the_task_names() -> None:
    model = ScriptedModel([call("calculator", expression="3 * 60"), "180"])
    result = await agent(model).run("How many minutes are in 3 hours?")
    assert result.output == "180" and not notices(result.trace)


async def test_the_tasks_own_numbers_alone_wait_for_its_items() -> None:
    """independent1's ar24: `4 * (1 + 0.20) - 10` before the lamps were looked up, and never looked them up."""
    model = ScriptedModel([call("calculator", expression="3 + 2"), *FETCHED, *DONE])
    result = await agent(model).run(TASK)
    assert result.steps[0].result == "not run: the task's items come first"
    assert model.requests[1].messages == model.requests[0].messages
    assert [t.name for t in model.requests[1].tools] == ["lookup"]
    assert result.output == "12.9"


async def test_an_equation_on_the_tasks_numbers_alone_waits_for_its_items_too() -> None:
    """independent12's cd09: `6 / 1 = 6` before the printer was looked up; the calculator reads its first side."""
    model = ScriptedModel([call("calculator", expression="3 / 1 = 3"), *FETCHED, *DONE])
    result = await agent(model).run(TASK)
    assert result.steps[0].result == "not run: the task's items come first"
    assert result.output == "12.9"


async def test_a_first_step_the_task_writes_out_runs() -> None:
    """A task written as steps may start with the calculation (agentcore.steps): it is not held."""
    model = ScriptedModel([call("calculator", expression="3 + 2"), "5", *FETCHED, *DONE])
    result = await agent(model).run("Add 3 and 2, then look up the price of notebooks.")
    assert result.steps[0].result == "5"


async def test_a_made_up_call_after_a_lookup_runs() -> None:
    """Only a first call is held: after a lookup, the answer checks judge what the run did."""
    script = [FETCHED[0], call("calculator", expression="3 * 3.5 + 2 * 5"), "20.5", FETCHED[1], *DONE]
    result = await agent(ScriptedModel(script), max_steps=6).run(TASK)
    assert result.steps[1].result == "20.5"
    assert not any(n.startswith("a call computes") for n in notices(result.trace))


async def test_fetch_first_is_on_by_default_and_can_be_turned_off() -> None:
    model = ScriptedModel([call("calculator", expression="3 + 2 * 5"), *FETCHED, *DONE])
    assert (await Agent(model, tools=[lookup, calculator]).run(TASK)).steps[0].result == "not run: 5 would be made up"
    model = ScriptedModel([call("calculator", expression="3 + 2 * 5"), "13", *FETCHED, *DONE])
    off = Agent(model, tools=[lookup, calculator])
    off.fetch_first = False
    result = await off.run(TASK)
    assert result.steps[0].result == "13"
    assert "final answer was computed from made-up inputs; another tool is required" in notices(result.trace)


async def test_a_held_number_taken_again_while_an_item_waits_is_held_once_more() -> None:
    """compose17's o07: `4 * 2 + 10` held, the notebooks looked up, then `4 * 2 + 10` again (here `4 + 2 * 10`:
    `4 * 2` is now caught as two items' counts multiplied, agentcore.bare_counts)."""
    made_up = call("calculator", expression="4 + 2 * 10")
    script = [made_up, FETCHED[0], made_up, FETCHED[1], call("calculator", expression="4 * 3.5 + 2 * 1.2"), "16.4"]
    model = ScriptedModel(script)
    result = await agent(model).run("How much for 4 notebooks and 2 pens?")
    again = model.requests[3]
    assert again.messages == model.requests[2].messages and [t.name for t in again.tools] == ["lookup"]
    assert "10" not in "".join(m.content or "" for m in again.messages)
    assert result.output == "16.4"
    assert (
        notices(result.trace).count("a call computes with made-up numbers; the task's items are to be fetched first")
        == 2
    )


async def test_the_tasks_numbers_in_a_held_call_are_still_to_use() -> None:
    """compose dev m09: `3 * 1.5 * 2.5` held, the backpack looked up, 49.5 answered: the 3 went into no call."""

    @tool(read_only=True)
    def price(item: str) -> str:
        """The price of an item in dollars."""
        return {"backpack": "49.5"}[item]

    script = [call("calculator", expression="3 * 1.5 * 2.5"), call("price", item="backpack"), "49.5"]
    script += [call("calculator", expression="49.5 / 3"), "16.5"]
    model = ScriptedModel(script)
    result = await agent(model, [price, calculator]).run("The price of a backpack divided among 3 friends?")
    assert "the task still uses 3" in model.requests[3].messages[-1].content
    assert result.output == "16.5"


async def test_the_whole_of_a_part_the_task_names_is_no_made_up_number() -> None:
    """compose19's a13: in `price - (price / 5)` for "minus a fifth of it", the 5 is the task's."""
    script = [call("calculator", expression="3 / 5"), "0.6", FETCHED[0], call("calculator", expression="3 * 3.5 / 5")]
    model = ScriptedModel([*script, "2.1"])
    result = await agent(model).run("What is a fifth of the price of 3 notebooks?")
    assert result.steps[0].result == "not run: the task's items come first"  # no 5 made up


async def test_two_held_numbers_taken_again_are_held_once_more() -> None:
    """The limit counts held calls, not held numbers: `100 + 200`, a lookup, then `100 + 200` again."""
    made_up = call("calculator", expression="100 + 200")
    script = [made_up, FETCHED[0], made_up, FETCHED[1], *DONE]
    model = ScriptedModel(script)
    result = await agent(model).run(TASK)
    assert result.steps[2].result == "not run: 100 and 200 would be made up"
    assert result.output == "12.9"


async def test_a_new_made_up_number_while_an_item_waits_is_held_once_more() -> None:
    """compose11's j07 on the real model: `3 + 2 * 5` held, the notebooks looked up, then `3.5 + 2 * 100`."""
    script = [call("calculator", expression="3 + 2 * 5"), FETCHED[0], call("calculator", expression="3.5 + 2 * 100")]
    model = ScriptedModel([*script, FETCHED[1], *DONE])
    result = await agent(model).run(TASK)
    assert result.steps[2].result == "not run: 100 would be made up"
    assert [t.name for t in model.requests[3].tools] == ["lookup"] and result.output == "12.9"


async def test_a_calculation_on_known_numbers_while_an_item_waits_is_held_once_more() -> None:
    """independent10's cc23: the first call held, one item looked up, then `3 * 7.25 + 1 + 0.05 * 7.25` computed
    and answered with the cables never looked up. Held, the turn asks again with only the lookup."""
    script = [call("calculator", expression="3 + 2 * 5"), FETCHED[0], call("calculator", expression="3 * 3.5 + 2")]
    model = ScriptedModel([*script, FETCHED[1], *DONE])
    result = await agent(model).run(TASK)
    assert result.steps[2].result == "not run: the task's items come first"
    assert model.requests[3].messages == model.requests[2].messages  # taken back
    assert [t.name for t in model.requests[3].tools] == ["lookup"] and result.output == "12.9"


async def test_a_calculation_under_the_tasks_own_steps_runs_before_a_later_steps_item() -> None:
    task = "Look up the price of a notebook and multiply it by 3, then add the price of a pen."
    script = [call("calculator", expression="3 + 2"), FETCHED[0], call("calculator", expression="3.5 * 3")]
    model = ScriptedModel([*script, FETCHED[1], call("calculator", expression="10.5 + 1.2"), "11.7"])
    result = await agent(model).run(task)
    assert [s.result for s in result.steps if s.call is not None][2] == "10.5"


async def test_a_long_task_in_a_users_own_voice_is_probed_for_its_items() -> None:
    """independent1's ar14 in this test's table: 26 content words and pairs, 54 probes over two tables, more than
    a placeholder's guess may try (unfetched.MAX_FETCH_PROBES)."""
    task = (
        "I've only got fifty dollars on me today. If I grab 3 notebooks and 2 pens at the shop near work,"
        " how much change should I get back?"
    )
    done = [call("calculator", expression="50 - (3 * 3.5 + 2 * 1.2)"), "37.1"]
    model = ScriptedModel([call("calculator", expression="50 - 10"), *FETCHED, *done])
    result = await agent(model).run(task)
    assert result.steps[0].result == "not run: 10 would be made up"
    assert result.output == "37.1"


@tool(read_only=True)
def word_count(text: str) -> str:
    """Count the words in a text."""
    return str(len(text.split()))


@pytest.mark.parametrize(
    ("task", "opening", "quote", "held", "done"),
    [
        (  # independent5's bx22: `0.15 + 4` before the slogan was counted, and answered 4.15
            'A banner costs $0.15 per word plus a flat $4. My slogan is "Fresh bread every morning". The cost?',
            "0.15 + 4",
            "Fresh bread every morning",
            "the task's items come first",
            ("4 * 0.15 + 4", "4.6"),
        ),
        (  # independent1's ar18: `8 + 10 + 10 + ...` for "8 cents a word" and a quoted poem, a made-up count
            "I'm paid 8 cents a word. How many cents for 'Roses are red, violets are blue'?",
            "8 * 10",
            "Roses are red, violets are blue",
            "10 would be made up",
            ("6 * 8", "48"),
        ),
    ],
)
async def test_a_first_calculation_waits_for_the_quoted_text_another_tool_takes(
    task: str, opening: str, quote: str, held: str, done: tuple[str, str]
) -> None:
    model = ScriptedModel(
        [
            call("calculator", expression=opening),
            call("word_count", text=quote),
            call("calculator", expression=done[0]),
            done[1],
        ]
    )
    result = await agent(model, [word_count, calculator]).run(task)
    assert result.steps[0].result == f"not run: {held}"
    assert model.requests[1].messages == model.requests[0].messages  # taken back
    assert [t.name for t in model.requests[1].tools] == ["word_count"]
    assert result.output == done[1]


async def test_without_a_quote_the_tasks_numbers_run_beside_a_text_tool() -> None:
    model = ScriptedModel([call("calculator", expression="0.15 * 20 + 4"), "7"])
    result = await agent(model, [word_count, calculator]).run("A banner costs $0.15 per word for 20 words plus $4.")
    assert result.output == "7" and not notices(result.trace)


async def test_a_first_step_that_names_an_item_waits_for_it() -> None:
    """independent1's ar23: "Printer price: double it, knock off 18, ..." opened with `2 * 18 - 18`."""
    task = "The pen price: double it, knock off 1, and split what's left 2 ways."
    done = [call("calculator", expression="(2 * 1.2 - 1) / 2"), "0.7"]
    model = ScriptedModel(
        [call("calculator", expression="2 * 1 - 1"), call("lookup", table="prices", key="pen"), *done]
    )
    result = await agent(model).run(task)
    assert result.steps[0].result == "not run: the task's items come first"
    assert result.output == "0.7"


async def test_a_first_calculation_across_two_units_of_one_kind_waits_for_the_converter() -> None:
    """independent10's cc32: `20 * 500 / 1000` for 20 US gallons in 500 ml bottles, the model's own factor."""
    task = "My fish tank holds 20 US gallons. How many 500 ml bottles of water would fill it?"
    script = [
        call("calculator", expression="20 * 500 / 1000"),
        call("unit_convert", value=20, from_unit="gal", to_unit="ml"),
        call("calculator", expression="75708.23568 / 500"),
        "151.4164714",
    ]
    model = ScriptedModel(script)
    tools = toolbox.agent_tools(["calculator", "unit_convert"])
    result = await Agent(model, tools=tools).run(task)
    assert result.steps[0].result is not None and result.steps[0].result.startswith("not run")
    assert [t.name for t in model.requests[1].tools] == ["unit_convert"]
    assert model.requests[1].messages == model.requests[0].messages
    assert result.output == "151.4164714"


async def test_a_first_calculation_on_one_unit_runs() -> None:
    model = ScriptedModel([call("calculator", expression="3.5 * 60"), "210"])
    tools = toolbox.agent_tools(["calculator", "unit_convert"])
    result = await Agent(model, tools=tools).run("How many minutes are in 3.5 hours?")
    assert result.output == "210" and not result.steps[0].tool_error


FENCE = "Fencing costs $12 a meter and I need 150 ft of it. Price?"


async def test_a_first_lookup_of_a_unit_the_task_writes_waits_for_the_converter() -> None:
    """independent12's cd35: `lookup("prices", "ft")`, twice, and the repeat notice's words for an answer."""
    script = [call("lookup", table="prices", key="ft"), call("unit_convert", value=150, from_unit="ft", to_unit="m")]
    script += [call("calculator", expression="45.72 * 12"), "548.64"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "lookup", "unit_convert"])).run(FENCE)
    assert result.steps[0].result == "not run: the task's items come first"
    assert [t.name for t in model.requests[1].tools] == ["unit_convert"]
    assert result.output == "548.64"


async def test_an_argument_that_takes_a_unit_runs() -> None:
    @tool
    def fence_price(length: float, unit: str) -> str:
        """Price a fence.

        Args:
            length: The fence's length.
            unit: The length's unit of measure.
        """
        return "548.64"

    model = ScriptedModel([call("fence_price", length=150, unit="ft"), "548.64"])
    tools = [fence_price, *toolbox.agent_tools(["unit_convert"])]
    with contextlib.suppress(AssertionError):  # the script ends where the answer checks want more
        await Agent(model, tools=tools).run(FENCE)
    assert "Result of fence_price" in str(model.requests[1].messages[-1].content)  # it ran
