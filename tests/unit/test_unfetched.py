"""One made-up number counts where the task names items a tool can fetch (agentcore.unfetched)."""

from __future__ import annotations

from typing import Literal

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

PRICES = {"notebook": "3.5", "pen": "1.2"}


@tool(read_only=True)
def lookup(table: Literal["capitals", "prices"], key: str) -> str:
    """Look up a key in a table: capitals (country -> capital), prices (product -> price in dollars)."""
    if table != "prices" or key.removesuffix("s") not in PRICES:
        raise ValueError(f"no {key!r} in {table}")
    return PRICES[key.removesuffix("s")]


def let_through(model: ScriptedModel) -> Agent[None, str]:
    """An agent that runs a first call made up or on the task's numbers alone (agentcore.fetch_first holds it by
    default), so that the answer check sees its result."""
    agent: Agent[None, str] = Agent(model, tools=[lookup, calculator])
    agent.fetch_first = False
    return agent


def notices(trace: list[dict[str, object]]) -> list[str]:
    return [str(e["message"]) for e in trace if e["kind"] == "notice"]


async def test_one_made_up_number_goes_back_when_the_tool_can_fetch_the_tasks_items() -> None:
    """compose11's j07: `3 + 2 * 5` for "3 notebooks and 2 pens", the pens' price made up."""
    made_up = [call("calculator", expression="3 + 2 * 5"), "13"]
    fetched = [
        call("lookup", table="prices", key="notebooks"),
        "3.5",
        call("lookup", table="prices", key="pens"),
        "1.2",
    ]
    model = ScriptedModel([*made_up, *fetched, call("calculator", expression="3 * 3.5 + 2 * 1.2"), "12.9"])
    result = await let_through(model).run("What do 3 notebooks and 2 pens cost in total?")
    assert "final answer was computed from made-up inputs; another tool is required" in notices(result.trace)
    sent_back = model.requests[2].messages[-1].content
    assert "(notebooks, pens) with lookup first" in sent_back
    # the counts went into no call that counts: the made-up one used nothing
    assert "3 * 3.5 and 2 * 1.2" in model.requests[6].messages[-1].content
    assert result.output == "12.9"


async def test_one_number_of_the_models_own_stands_where_the_tool_fetches_none_of_the_tasks_words() -> None:
    model = ScriptedModel([call("calculator", expression="3 * 3600"), "10800"])
    result = await Agent(model, tools=[lookup, calculator]).run("How many seconds are in 3 hours?")
    assert result.output == "10800" and not notices(result.trace)
    # two numbers from nowhere were the made-up check's case already; one is not, without items to fetch
    model = ScriptedModel([call("calculator", expression="2 * 2"), "4"])
    result = await Agent(model, tools=[calculator]).run("What is the price of a pen multiplied by itself?")
    assert result.output == "4"


async def test_a_tool_that_takes_any_text_names_no_item() -> None:
    @tool(read_only=True)
    def word_count(text: str) -> str:
        """Count the words in a text."""
        return str(len(text.split()))

    model = ScriptedModel([call("calculator", expression="3 * 60"), "180"])
    result = await Agent(model, tools=[word_count, calculator]).run("How many minutes are in 3 hours?")
    assert result.output == "180" and not notices(result.trace)


async def test_every_content_word_of_a_short_task_may_be_an_item() -> None:
    """compose17's o07: both content words are items; a share of the words once ruled the lookup a word counter."""
    fetched = [
        call("lookup", table="prices", key="notebooks"),
        "3.5",
        call("lookup", table="prices", key="pens"),
        "1.2",
    ]
    done = [call("calculator", expression="4 * 3.5 + 2 * 1.2"), "16.4"]
    model = ScriptedModel([call("calculator", expression="4 * 2 + 100"), "108", *fetched, *done])
    result = await let_through(model).run("How much for 4 notebooks and 2 pens?")
    assert "final answer was computed from made-up inputs; another tool is required" in notices(result.trace)
    assert "(notebooks, pens) with lookup first" in model.requests[2].messages[-1].content
    assert result.output == "16.4"


async def test_a_repeat_while_an_item_waits_runs_for_that_item() -> None:
    """compose13's b07: told to call a tool for pens next, the model looked the notebooks up again."""
    again = call("lookup", table="prices", key="notebooks")
    model = ScriptedModel([again, again, call("calculator", expression="3 * 1.2 + 2 * 3.5"), "10.6"])
    # the observation stays the plain one: named there, the next item led the model to the calculator (h08)
    result = await Agent(model, tools=[lookup, calculator]).run("What would 3 pens and 2 notebooks cost?")
    ran = [(s.call.arguments.get("key"), s.result) for s in result.steps if s.call is not None]
    assert ran[:2] == [("notebooks", "3.5"), ("pens", "1.2")]
    assert any("it ran for the item the task still names" in n for n in notices(result.trace))
    assert "If the result answers the task" in model.requests[1].messages[-1].content
    assert result.output == "10.6"


async def test_a_value_copied_from_the_docs_runs_as_the_first_item_of_the_task_that_works() -> None:
    """compose15's i07 and compose13's b07: `key="product -> price in dollars"`, even under the wrong table."""
    for table, key in (("prices", "product -> price in dollars"), ("capitals", "country -> capital")):
        model = ScriptedModel([call("lookup", table=table, key=key), call("calculator", expression="3 * 3.5"), "10.5"])
        result = await Agent(model, tools=[lookup, calculator]).run("What would 3 notebooks cost?")
        ran = [(s.call.arguments, s.result) for s in result.steps if s.call is not None]
        assert ran[0] == ({"table": "prices", "key": "notebooks"}, "3.5"), table
        assert result.output == "10.5"


async def test_a_repeat_of_a_tool_that_takes_any_text_is_a_repeat() -> None:
    @tool(read_only=True)
    def word_count(text: str) -> str:
        """Count the words in a text."""
        return str(len(text.split()))

    again = call("word_count", text="pens and notebooks")
    model = ScriptedModel([again, again, "3"])
    result = await Agent(model, tools=[word_count]).run("Count the words in 'pens and notebooks' for the word count.")
    assert [s.result for s in result.steps if s.call is not None] == ["3", "3"]
    assert not any("it ran for the item" in n for n in notices(result.trace))


async def test_a_sum_of_the_tasks_counts_goes_back_when_the_tool_can_fetch_the_tasks_items() -> None:
    """compose18's u07: `3 + 1` for "3 notebooks and a pen", no price fetched, no number made up."""
    made_up = [call("calculator", expression="3 + 1"), "3 + 1 = 4"]
    fetched = [call("lookup", table="prices", key="notebooks"), call("lookup", table="prices", key="pen")]
    model = ScriptedModel([*made_up, *fetched, call("calculator", expression="3 * 3.5 + 1.2"), "11.7"])
    result = await let_through(model).run("What would 3 notebooks and a pen set me back?")
    sent_back = model.requests[2].messages[-1].content
    assert "computed from the task's own numbers alone" in sent_back and "notebooks, pen" in sent_back
    assert result.output == "11.7"  # the 4 of `3 + 1` is no result left to combine


async def test_a_sum_of_the_tasks_own_numbers_stands_where_no_tool_fetches_them() -> None:
    model = ScriptedModel([call("calculator", expression="3 + 1"), "4"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is 3 plus 1?")
    assert result.output == "4" and not notices(result.trace)


async def test_a_day_count_on_the_tasks_dates_waits_for_the_item_fetched_after_it() -> None:
    """independent10's cc24: 75 days answered and sent back for the mug; its price answered next is one result of
    two to combine, the day count a real step and not a computation on the task's numbers alone."""
    from bench import toolbox

    task = "I buy one coffee mug every day. How much will I have spent on mugs from 2024-03-01 to 2024-05-15?"
    days = call("date_diff", start="2024-03-01", end="2024-05-15")
    mug = call("lookup", table="prices", key="coffee mug")
    model = ScriptedModel([days, "75", mug, "7.25", call("calculator", expression="75 * 7.25"), "543.75"])
    result = await Agent(model, tools=toolbox.agent_tools(["date_diff", "lookup", "calculator"])).run(task)
    assert "computed from the task's own numbers alone" in model.requests[2].messages[-1].content
    assert "75" in model.requests[4].messages[-1].content  # 7.25 went back with the days still to use
    assert result.output == "543.75"


TRIP = "Trip runs 2024-07-04 to 2024-07-18. Car rental is $45 per day and I also need 2 backpacks. What's the total?"
TRIP_START = [call("date_diff", start="2024-07-04", end="2024-07-18"), call("calculator", expression="45 + 2 * 14")]


async def test_an_item_no_call_looked_up_goes_back_after_a_computation_on_another_tools_result() -> None:
    """independent12's cd24: the days counted, `45 + 2 * 14` computed, and 73 answered with no backpack looked up;
    the last call named no item, so there was no lookup for another item to stand beside."""
    from bench import toolbox

    rest = [call("lookup", table="prices", key="backpack"), call("calculator", expression="45 * 14 + 2 * 49.5")]
    model = ScriptedModel([*TRIP_START, "73", *rest, "729"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "date_diff", "lookup"])).run(TRIP)
    notice = model.requests[3].messages[-1].content
    assert notice.startswith("Not done yet: 73 is only the result of the last step; the task still names backpacks")
    assert result.output == "729"


async def test_no_item_is_asked_for_where_the_lookup_accepts_none_of_the_tasks_words() -> None:
    """A lookup offered beside tools that answer alone: nothing the task names is in its tables."""
    from bench import toolbox

    task = "Between 2024-01-05 and 2024-03-01, how many hours is that, give or take?"
    script = [call("date_diff", start="2024-01-05", end="2024-03-01"), call("calculator", expression="56 * 24")]
    model = ScriptedModel([*script, "1344"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "date_diff", "lookup"])).run(task)
    assert result.output == "1344" and len(model.requests) == 3


async def test_a_word_a_call_took_is_not_an_item_to_look_up() -> None:
    """The desk of "my desk is tidy" went into the word count: text to count, not a desk to price."""
    from bench import toolbox

    task = "Count the words in 'my desk is tidy today' and add 3 to that count."
    script = [call("word_count", text="my desk is tidy today"), call("calculator", expression="5 + 3")]
    model = ScriptedModel([*script, "8"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "lookup", "word_count"])).run(task)
    assert result.output == "8" and len(model.requests) == 3


async def test_after_an_answer_went_back_for_an_item_each_lookup_is_followed_by_the_next_while_items_wait() -> None:
    """independent14's cg19: an answer after each of three lookups, each sent back, spent the eight turns. Once
    one went back for an item, a lookup while the task names other items the lookup accepts offers only the
    lookup next, and its repeat runs as the next item."""
    from bench import toolbox

    task = "I'm setting up 4 workstations, each with a monitor, a keyboard and a mouse. What's the total cost?"
    monitor, keyboard = call("lookup", table="prices", key="monitor"), call("lookup", table="prices", key="keyboard")
    script = [monitor, "215", keyboard, keyboard, "19.95", call("calculator", expression="4 * (215 + 45.9 + 19.95)")]
    model = ScriptedModel([*script, "1123.4"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "lookup"])).run(task)
    after_keyboard = model.requests[3]
    assert not after_keyboard.allow_final and [t.name for t in after_keyboard.tools] == ["lookup"]
    ran = [s.call.arguments["key"] for s in result.steps if s.call is not None and s.call.name == "lookup"]
    assert ran == ["monitor", "keyboard", "mouse"]
    assert result.output == "1123.4"
