"""A failed read-only call runs with the one other enum value that works (agentcore.probe)."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import pytest

from agentcore import Agent, probe
from agentcore.messages import ToolCall, ToolSpec
from agentcore.policy import Policy, Veto
from agentcore.probe import MAX_PROBES, alternatives
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import make_tool

TABLES = {"capitals": {"japan": "Tokyo"}, "prices": {"laptop": "899", "pen": "1.2"}, "sizes": {"pen": "small"}}
WRITES: list[str] = []


def lookup(table: Literal["capitals", "prices", "sizes"], key: str) -> str:
    """Look a key up in a table."""
    if key not in TABLES[table]:
        raise ValueError(f"no {key!r} in {table}")
    return TABLES[table][key]


def remember(table: Literal["capitals", "prices", "sizes"], key: str) -> str:
    """Store a key in a table (a side effect)."""
    WRITES.append(f"{table}:{key}")
    if table != "prices":
        raise ValueError(f"{table} is read-only")
    return "stored"


READ_ONLY = make_tool(lookup, read_only=True)


def test_alternatives_change_one_enum_argument_of_a_read_only_tool() -> None:
    failed = ToolCall("lookup", {"table": "capitals", "key": "laptop"})
    assert alternatives(failed, READ_ONLY.spec()) == [
        ToolCall("lookup", {"table": "prices", "key": "laptop"}),
        ToolCall("lookup", {"table": "sizes", "key": "laptop"}),
    ]
    assert alternatives(failed, make_tool(lookup).spec()) == []  # may have side effects: never tried
    many = {"type": "object", "properties": {"n": {"enum": list(range(MAX_PROBES + 2))}}}
    assert alternatives(ToolCall("t", {"n": 0}), ToolSpec("t", "", many, read_only=True)) == []


async def test_the_one_value_that_works_runs_in_place_of_the_failed_call() -> None:
    model = ScriptedModel([call("lookup", table="capitals", key="laptop"), "899"])
    result = await Agent(model, tools=[READ_ONLY]).run("What does a laptop cost?")
    ran = [(s.call, s.result, s.tool_error) for s in result.steps if s.call is not None]
    assert ran == [(ToolCall("lookup", {"table": "prices", "key": "laptop"}), "899", False)]
    shown = model.requests[1].messages
    assert shown[-2].content == '{"tool": "lookup", "arguments": {"table": "prices", "key": "laptop"}}'
    assert shown[-1].content.startswith("Result of lookup:\n899")
    assert any(e["kind"] == "notice" and "other enum value" in e["message"] for e in result.trace)


async def test_several_values_that_work_change_nothing() -> None:
    model = ScriptedModel([call("lookup", table="capitals", key="pen"), "I do not know"])
    result = await Agent(model, tools=[READ_ONLY]).run("What about the pen?")
    assert [s.tool_error for s in result.steps if s.call is not None] == [True]  # prices and sizes both have it
    assert "no 'pen' in capitals" in model.requests[1].messages[-1].content


async def test_tools_with_side_effects_are_never_probed() -> None:
    WRITES.clear()
    model = ScriptedModel([call("remember", table="capitals", key="x"), "failed"])
    await Agent(model, tools=[make_tool(remember)]).run("Store x.")
    assert WRITES == ["capitals:x"]


class VetoPrices(Policy):
    async def before_tool_call(self, ctx: Any, call: ToolCall) -> ToolCall | Veto | None:
        return Veto("no prices") if call.arguments.get("table") == "prices" else None


async def test_a_policy_can_veto_the_value_that_works() -> None:
    model = ScriptedModel([call("lookup", table="capitals", key="laptop"), "unknown"])
    result = await Agent(model, tools=[READ_ONLY], policies=[VetoPrices()]).run("What does a laptop cost?")
    assert [(s.call, s.tool_error) for s in result.steps if s.call is not None] == [
        (ToolCall("lookup", {"table": "capitals", "key": "laptop"}), True)
    ]


async def test_probes_past_the_time_budget_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    async def slow_lookup(table: Literal["capitals", "prices", "sizes"], key: str) -> str:
        """Look a key up in a table, slowly for all but capitals."""
        if table != "capitals":
            await asyncio.sleep(5)
        return lookup(table, key)

    monkeypatch.setattr(probe, "PROBE_SECONDS", 0.05)
    model = ScriptedModel([call("slow_lookup", table="capitals", key="laptop"), "unknown"])
    result = await Agent(model, tools=[make_tool(slow_lookup, read_only=True)]).run("What does a laptop cost?")
    assert [s.tool_error for s in result.steps if s.call is not None] == [True]


# --- word arguments ---------------------------------------------------------------------------------------------

NAMED = "ValueError: no 'price of laptop' in prices"


def keys(calls: list[ToolCall]) -> list[str]:
    return [c.arguments["key"] for c in calls]


def test_word_alternatives_are_shorter_runs_of_the_value_then_the_tasks_content_words() -> None:
    failed = ToolCall("lookup", {"table": "prices", "key": "price of laptop"})
    own, asked = probe.word_alternatives(failed, READ_ONLY.spec(), "What does the desk lamp cost?", NAMED)
    # "of" starts or ends no run; "the", "does" and "what" are filler; "desk lamp" is a pair of the task
    assert keys(own) == ["price", "laptop"]
    assert keys(asked) == ["desk", "lamp", "cost", "desk lamp", "lamp cost"]
    assert {c.arguments["table"] for c in [*own, *asked]} == {"prices"}


@pytest.mark.parametrize(
    ("key", "error", "why"),
    [
        ("price of laptop", "ValueError: the table is locked", "the error does not name the value"),
        ("6 * laptop", "ValueError: no '6 * laptop' in prices", "not a value of words: an expression"),
    ],
)
def test_no_word_alternatives_unless_the_error_names_a_value_of_words(key: str, error: str, why: str) -> None:
    failed = ToolCall("lookup", {"table": "prices", "key": key})
    assert probe.word_alternatives(failed, READ_ONLY.spec(), "What does a laptop cost?", error) == ([], []), why


def test_no_word_alternatives_for_tools_with_side_effects_or_too_many_words() -> None:
    failed = ToolCall("lookup", {"table": "prices", "key": "price of laptop"})
    assert probe.word_alternatives(failed, make_tool(lookup).spec(), "laptop", NAMED) == ([], [])
    long_task = " ".join(f"word{chr(97 + i)}" for i in range(26)).replace("word", "item")
    own, asked = probe.word_alternatives(failed, READ_ONLY.spec(), long_task, NAMED)
    assert keys(own) == ["price", "laptop"] and asked == []  # the task's 51 runs are too many to try


async def test_the_one_word_that_works_runs_in_place_of_a_description() -> None:
    model = ScriptedModel([call("lookup", table="prices", key="price of laptop"), "899"])
    result = await Agent(model, tools=[READ_ONLY]).run("What does a laptop cost?")
    ran = [(s.call, s.result, s.tool_error) for s in result.steps if s.call is not None]
    assert ran == [(ToolCall("lookup", {"table": "prices", "key": "laptop"}), "899", False)]
    assert any(e["kind"] == "notice" and "other word value" in e["message"] for e in result.trace)


async def test_an_identifier_of_words_runs_as_the_one_word_of_it_that_works() -> None:
    """compose17's o10: `key="laptop_price"` failed, and was repeated, where "laptop" works."""
    model = ScriptedModel([call("lookup", table="prices", key="laptop_price"), "899"])
    result = await Agent(model, tools=[READ_ONLY]).run("Look up a laptop price.")
    ran = [(s.call, s.result) for s in result.steps if s.call is not None]
    assert ran == [(ToolCall("lookup", {"table": "prices", "key": "laptop"}), "899")]


async def test_a_result_pasted_as_a_key_runs_as_the_one_task_word_that_works() -> None:
    """`key="80"` after the calculator returned 80: a number where a name belongs, tried with the task's words."""
    failed = ToolCall("lookup", {"table": "prices", "key": "80"})
    task = "Find the price of a laptop after a 20% discount."
    own, asked = probe.word_alternatives(failed, READ_ONLY.spec(), task, "ValueError: no '80' in prices")
    assert own == [] and "laptop" in keys(asked) and "80" not in keys(asked)  # a number has no runs of words
    assert probe.word_alternatives(failed, READ_ONLY.spec(), task, "ValueError: the table is locked") == ([], [])
    model = ScriptedModel([call("lookup", table="prices", key="80"), "899"])
    result = await Agent(model, tools=[READ_ONLY]).run("Find the price of a laptop.")
    assert [s.call for s in result.steps if s.call is not None] == [
        ToolCall("lookup", {"table": "prices", "key": "laptop"})
    ]


async def test_a_placeholder_runs_as_the_task_word_that_works_and_of_two_the_first_named() -> None:
    model = ScriptedModel([call("lookup", table="prices", key="product"), "1.2"])
    result = await Agent(model, tools=[READ_ONLY]).run("How much is a pen with a small discount?")
    assert [s.call for s in result.steps if s.call is not None] == [
        ToolCall("lookup", {"table": "prices", "key": "pen"})
    ]
    # a wordy answer goes back while the pen is still to fetch (agentcore.answer_checks.unfinished_numbers)
    model = ScriptedModel([call("lookup", table="prices", key="product"), *["I do not know"] * 4])
    result = await Agent(model, tools=[READ_ONLY]).run("Is a laptop dearer than a pen?")
    first = ToolCall("lookup", {"table": "prices", "key": "laptop"})  # both work: the task's first item runs
    assert next((s.call, s.tool_error) for s in result.steps if s.call is not None) == (first, False)
    assert probe.chosen([ToolCall("f", {"k": "pen"}), ToolCall("f", {"k": "laptop"})]) is None  # no task: none


def test_of_nested_keys_that_work_the_widest_is_chosen_and_of_others_none() -> None:
    def key(value: str) -> ToolCall:
        return ToolCall("lookup", {"table": "prices", "key": value})

    assert probe.chosen([key("desk"), key("desk lamp"), key("lamp")]) == key("desk lamp")
    assert probe.chosen([key("desk"), key("lamp")]) is None  # neither holds the other
    assert probe.chosen([key("desk")]) == key("desk")
    assert probe.chosen([]) is None
    assert probe.chosen([key("pen"), key("pencil")]) is None  # a run of whole words only


async def test_a_description_runs_as_its_own_item_before_the_tasks_other_items() -> None:
    """`key="laptop cheaper"` for "By how much is a pen cheaper than a laptop?": its own word "laptop" works, so
    the task's "pen" (which works too) is not a rival; "desk lamp" runs for "price of desk lamp", not "desk"."""
    tables = {**TABLES, "prices": {**TABLES["prices"], "desk": "150", "desk lamp": "32.4"}}

    def shop(table: Literal["capitals", "prices", "sizes"], key: str) -> str:
        """Look a key up in a table."""
        if key not in tables[table]:
            raise ValueError(f"no {key!r} in {table}")
        return tables[table][key]

    tool = make_tool(shop, read_only=True)
    for task, key, expected in [
        ("By how much is a pen cheaper than a laptop?", "laptop cheaper", "laptop"),
        ("What is the price of a desk lamp plus twice that?", "price of desk lamp", "desk lamp"),
    ]:
        model = ScriptedModel([call("shop", table="prices", key=key), *["done"] * 4])  # wordy answers go back
        result = await Agent(model, tools=[tool]).run(task)
        assert [s.call.arguments["key"] for s in result.steps if s.call is not None] == [expected], task


# --- items the last read-only tool accepts (the unfinished check) ------------------------------------------------


def test_item_alternatives_are_the_tasks_other_words_that_share_none_with_a_used_value() -> None:
    done = ToolCall("lookup", {"table": "prices", "key": "laptop"})
    task = "How much more does a laptop cost than a pen?"
    assert keys(probe.item_alternatives(done, READ_ONLY.spec(), task, ["prices", "laptop"])) == ["more", "cost", "pen"]
    # an item used in the singular is not named again in the plural the task writes
    plural = "What do 3 monitors and 2 keyboards cost?"
    done = ToolCall("lookup", {"table": "prices", "key": "monitors"})
    assert "keyboards" not in keys(probe.item_alternatives(done, READ_ONLY.spec(), plural, ["keyboard", "monitors"]))
    # a value the model did not take from the task: nothing to go on
    guessed = ToolCall("lookup", {"table": "prices", "key": "notebook"})
    assert probe.item_alternatives(guessed, READ_ONLY.spec(), task, ["notebook"]) == []


async def test_an_answer_that_repeats_one_item_is_sent_back_naming_the_other() -> None:
    def subtract(a: float, b: float) -> float:
        """a - b."""
        return a - b

    turns = [call("lookup", table="prices", key="laptop"), "899", call("lookup", table="prices", key="pen"), "1.2"]
    model = ScriptedModel([*turns, call("subtract", a=899, b=1.2), "897.8"])
    result = await Agent(model, tools=[READ_ONLY, subtract]).run("How much more does a laptop cost than a pen?")
    assert "pen" in model.requests[2].messages[-1].content
    # the second item's result alone is sent back too: the two results are still to be combined
    assert "899, 1.2 are not combined" in model.requests[4].messages[-1].content
    assert result.output == "897.8"
    assert [s.call.name for s in result.steps if s.call is not None] == ["lookup", "lookup", "subtract"]
    # the same answer to a task with one item is accepted at once
    model = ScriptedModel([call("lookup", table="prices", key="laptop"), "899"])
    assert (await Agent(model, tools=[READ_ONLY]).run("How much does a laptop cost?")).output == "899"


async def test_a_tool_that_takes_any_word_names_no_item() -> None:
    """word_count works on every word of the task: that it took one says nothing (x05 counted twice)."""

    def word_count(text: str) -> int:
        """Count the words of a text."""
        return len(text.split())

    model = ScriptedModel([call("word_count", text="small models need good tools"), "5"])
    tools = [make_tool(word_count, read_only=True)]
    result = await Agent(model, tools=tools).run("Count the words in 'small models need good tools'.")
    assert result.output == "5" and len(model.requests) == 2
