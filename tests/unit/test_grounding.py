"""Arguments copied from a tool's own description (`lookup(key="product")`) go back once with the task's words."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.grounding import (
    counted_items,
    invented_optional,
    listed_together,
    parallel_unused,
    placeholders,
    task_words,
)
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

DOC = "Look up a key in a table: capitals (country -> capital), prices (product -> price in dollars)."
SCHEMA = {"properties": {"table": {"enum": ["capitals", "prices"]}, "key": {"type": "string"}}}


@pytest.mark.parametrize(
    ("arguments", "task", "results", "copied"),
    [
        ({"table": "prices", "key": "product"}, "What do 3 monitors and 2 keyboards cost?", [], ["product"]),
        ({"table": "prices", "key": "Country"}, "What is the capital of Peru?", [], ["Country"]),
        ({"table": "prices", "key": "monitor"}, "What do 3 monitors and 2 keyboards cost?", [], []),  # the task's
        ({"table": "prices", "key": "price"}, "Look up the tablet's price.", [], []),  # the task writes it too
        ({"table": "capitals", "key": "capital"}, "Reverse it.", ["capital"], []),  # an earlier result has it
        ({"table": "prices", "key": "printer"}, "What does a printer cost?", [], []),  # not in the docs
        ({"table": "capitals", "key": "country -> capital"}, "What would 3 pens cost?", [], ["country -> capital"]),
    ],
)
def test_placeholders(arguments: dict[str, str], task: str, results: list[str], copied: list[str]) -> None:
    assert placeholders(arguments, DOC, SCHEMA, task, results) == copied


def test_task_words_leave_out_function_words_and_the_docs_own() -> None:
    assert task_words("What do 3 monitors and 2 keyboards cost?", DOC, SCHEMA) == ["monitors", "keyboards"]
    assert task_words("Count the words in 'a b c'.", DOC, SCHEMA) == ["a b c"]  # quoted material as written


def test_a_comparative_before_than_is_no_task_word_but_an_item_there_is() -> None:
    assert task_words("By how much is a webcam cheaper than a monitor?", DOC, SCHEMA) == ["webcam", "monitor"]
    assert task_words("Is a laptop than a tablet?", DOC, SCHEMA) == ["laptop", "tablet"]  # an article: an item
    assert task_words("What would 3 backpacks and a webcam set me back?", DOC, SCHEMA) == [
        "backpacks",
        "webcam",
        "back",
    ]
    assert task_words("Do 2 pens weigh more than a laptop?", DOC, SCHEMA) == ["pens", "laptop"]


@tool
def lookup(table: Literal["capitals", "prices"], key: str) -> str:
    """Look up a key in a table: capitals (country -> capital), prices (product -> price in dollars).

    Args:
        table: capitals or prices.
        key: The country or product name.
    """
    rows = {"monitor": "199", "keyboard": "70"}
    return rows[key.rstrip("s")]


async def test_a_failed_placeholder_call_gets_the_task_words_and_the_call_written_out() -> None:
    model = ScriptedModel(
        [call("lookup", table="prices", key="product"), call("lookup", table="prices", key="monitors"), "199"]
    )
    result = await Agent(model, tools=[lookup]).run("What does a monitor cost?")
    notice = model.requests[1].messages[-1].content
    assert notice.startswith("Error from lookup: KeyError: 'product'\n")
    assert '"product" is a word from the description of lookup, not a value from the task.' in notice
    assert notice.endswith(
        'task names (monitor), for example: {"tool": "lookup", "arguments": {"table": "prices", "key": "monitor"}}'
    )
    assert [t.name for t in model.requests[1].tools] == ["lookup"] and not model.requests[1].allow_final
    assert result.output == "199"


async def test_a_placeholder_call_that_works_is_left_alone() -> None:
    # Docs often list valid values themselves ("table: capitals or prices"): only a failed call is questioned.
    model = ScriptedModel([call("lookup", table="prices", key="monitor"), "199"])
    result = await Agent(model, tools=[lookup]).run("What does a monitor cost?")
    assert result.output == "199" and len(model.requests) == 2


async def test_only_the_first_failed_placeholder_call_gets_the_notice() -> None:
    model = ScriptedModel(
        [call("lookup", table="prices", key="product"), call("lookup", table="prices", key="country"), "none"]
    )
    await Agent(model, tools=[lookup]).run("What does a monitor cost?")
    assert model.requests[2].messages[-1].content.startswith("Error from lookup(")  # the plain error


def test_quantities_are_no_values_and_items_joined_by_and_are_parallel() -> None:
    task = "What is the total price of one keyboard and one mouse?"
    assert task_words(task, DOC, SCHEMA) == ["keyboard", "mouse"]
    assert parallel_unused("What do a keyboard and a mouse cost?", ["keyboard", "mouse"], "keyboard 45.9") == ["mouse"]
    assert (
        parallel_unused("Reverse the keyboard's name, then say hello to mouse", ["keyboard", "mouse"], "keyboard") == []
    )


def test_listed_together_needs_two_used_items_of_one_list() -> None:
    words = ["monitors", "keyboards"]
    assert listed_together("What do 3 monitors and 2 keyboards cost?", words, "monitor 215 keyboard 45.9")
    assert not listed_together("What do 3 monitors and 2 keyboards cost?", words, "monitor 215")
    assert not listed_together("Reverse the keyboard name and greet the mouse", ["keyboard", "mouse"], "mouse")


def test_counted_items_pair_each_count_with_its_items_result() -> None:
    steps = [({"key": "keyboard"}, "45.9"), ({"key": "desk lamp"}, "32.4")]
    task = "What do 3 keyboards and 2 desk lamps cost?"
    assert counted_items(task, ["3", "2"], steps) == ["3 * 45.9", "2 * 32.4"]
    assert counted_items(task, ["3", "2"], steps[:1]) == []  # a count without its item: no pairs at all
    assert counted_items("Convert 5 miles and add 3.", ["3"], [({"value": 5}, "8.04672")]) == []


PROJECT = {
    "type": "object",
    "properties": {
        "project_name": {"type": "string"},
        "start_date": {"type": "string", "description": "The start date, YYYY-MM-DD."},
        "format": {"type": "string", "enum": ["2D", "3D"]},
    },
    "required": ["project_name"],
}


@pytest.mark.parametrize(
    ("arguments", "given", "invented"),
    [
        (
            {"project_name": "car-rental", "start_date": "2021-06-15"},
            "details of the 'car-rental' project",
            ["start_date"],
        ),
        (
            {"project_name": "car-rental", "start_date": "2021-06-15"},
            "the 'car-rental' project since June 15, 2021",
            [],
        ),
        ({"project_name": "car-rental", "start_date": "yesterday"}, "the 'car-rental' project", []),  # no numbers
        # a date written with dots gives its parts (forty-fourth stop)
        (
            {"project_name": "car-rental", "start_date": "2023-10-01"},
            "the 'car-rental' project on 2023.10.1. Thanks",
            [],
        ),
        (
            {"project_name": "car-rental", "start_date": "2023-10-01"},
            "the 'car-rental' project, 2023.5 hours",
            ["start_date"],
        ),
        ({"project_name": "x-2000", "format": "3D"}, "the project", []),  # required, or an enum value
    ],
)
def test_invented_optional(arguments: dict[str, object], given: str, invented: list[str]) -> None:
    assert invented_optional(arguments, PROJECT, "Project details.", given) == invented


def test_two_items_compared_by_than_stand_together() -> None:
    assert parallel_unused("How much cheaper is a pen than a notebook?", ["pen", "notebook"], "pen 1.2") == ["notebook"]
    task = "How much more does a tablet cost than a keyboard?"
    assert parallel_unused(task, ["tablet", "keyboard"], "tablet 329") == ["keyboard"]


def test_a_total_that_things_come_to_names_no_item() -> None:
    """compose22's ac07 named "chairs come" as an item no call had used, after the chairs were looked up."""
    assert task_words("How much would 2 desks and 4 chairs come to?", "", {}) == ["desks", "chairs"]


@pytest.mark.parametrize(
    ("task", "words", "used", "unused"),
    [
        ("Take the price of headphones and knock 20 percent off it.", ["headphones", "knock"], "headphones", []),
        ("The cost of a monitor, less 35?", ["monitor", "less"], "monitor 215", []),
        ("What do 3 monitors and 2 keyboards cost?", ["monitors", "keyboards"], "monitors 215", ["keyboards"]),
        ("What do a pixel and a phone 15 cost?", ["pixel", "phone"], "pixel", ["phone"]),  # a name with its number
        # a verb and its object (independent1's ar05), beside lists whose second item is followed by its verb
        ("Look up the printer and knock the $35 deposit off its price.", ["printer", "knock"], "printer 159", []),
        ("What do 2 chairs and a desk cost?", ["chairs", "desk"], "chairs 85", ["desk"]),
        ("Get the price of a pen and the price of a mug.", ["pen", "mug"], "pen 1.2", ["mug"]),
    ],
)
def test_a_word_taking_a_number_or_an_object_is_an_operation_not_an_item(
    task: str, words: list[str], used: str, unused: list[str]
) -> None:
    assert parallel_unused(task, words, used) == unused
