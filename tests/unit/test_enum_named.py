"""An enum value no one named gives way to the one other value the conversation names (agentcore.enum_named)."""

from __future__ import annotations

from typing import Literal

import pytest

from agentcore.agent import Agent
from agentcore.enum_named import choices, named_choices
from agentcore.events import Event, Notice
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

STOCK = {
    "type": "object",
    "properties": {
        "company": {"type": "string"},
        "detail_level": {"type": "string", "description": "Level of detail. Can be 'summary' or 'detailed'."},
        "market": {"type": "string", "enum": ["NASDAQ", "NYSE", "NYS", "any"], "default": "any"},
        "rating": {"type": "string", "enum": ["1", "2", "3"]},
    },
    "required": ["company", "detail_level"],
}


@pytest.mark.parametrize(
    ("arguments", "task", "fixed"),
    [
        ({"detail_level": "summary"}, "Give me detail information about Apple", {"detail_level": "detailed"}),
        ({"detail_level": "summary"}, "A summary of Apple's detailed figures", {"detail_level": "summary"}),  # named
        ({"detail_level": "summary"}, "Tell me about Apple", {"detail_level": "summary"}),  # no other named
        ({"market": "any"}, "Apple on the NYSE", {"market": "any"}),  # the default stays
        ({"market": "NASDAQ"}, "Apple on the NYSE", {"market": "NYSE"}),
        ({"rating": "2"}, "a 3 star hotel", {"rating": "2"}),  # values with digits are not judged
        ({"company": "summary"}, "detailed", {"company": "summary"}),  # a free string has no choices
        ({"market": "NYS"}, "Apple on the NASDAQ", {"market": "NYS"}),  # a code is not judged
    ],
)
def test_named_choices(arguments: dict[str, object], task: str, fixed: dict[str, object]) -> None:
    assert named_choices(arguments, STOCK, task) == fixed


EXPERIENCE = {
    "type": "object",
    "properties": {
        "kind": {
            "type": "string",
            "enum": ["Internship at Universitas Sebelas Maret (UNS)", "Education at Universitas Sebelas Maret (UNS)",
                     "Freelance at Pingfest"],
        }
    },
}  # fmt: skip


@pytest.mark.parametrize(
    ("value", "task", "fixed"),
    [
        # another choice names every word the chosen one names, and more ("education")
        ("Internship at Universitas Sebelas Maret (UNS)", "Adriel's education at Universitas Sebelas Maret (UNS)?",
         "Education at Universitas Sebelas Maret (UNS)"),
        # the chosen one is as well named as any, or better
        ("Internship at Universitas Sebelas Maret (UNS)", "Adriel's time at Universitas Sebelas Maret?",
         "Internship at Universitas Sebelas Maret (UNS)"),
        ("Freelance at Pingfest", "His freelance work at Pingfest", "Freelance at Pingfest"),
    ],
)  # fmt: skip
def test_a_choice_that_names_more_of_the_task_runs(value: str, task: str, fixed: str) -> None:
    assert named_choices({"kind": value}, EXPERIENCE, task) == {"kind": fixed}


def test_the_same_dict_comes_back_when_nothing_changes() -> None:
    arguments = {"detail_level": "summary"}
    assert named_choices(arguments, STOCK, "a summary") is arguments


def test_choices_are_an_enum_of_strings_or_the_docs_listed_values() -> None:
    properties = STOCK["properties"]
    assert isinstance(properties, dict)
    assert choices(properties["detail_level"]) == ("summary", "detailed")
    assert choices(properties["market"]) == ("NASDAQ", "NYSE", "NYS", "any")
    assert choices(properties["company"]) == ()
    assert choices({"type": "integer", "enum": [1, 2]}) == ()


@tool
def get_stock_info(company_name: str, detail_level: Literal["summary", "detailed"]) -> str:
    """Stock information about a company.

    Args:
        company_name: The company.
        detail_level: How much detail.
    """
    return f"{company_name}: {detail_level}"


async def test_the_loop_runs_the_named_value() -> None:
    model, events = ScriptedModel([call("get_stock_info", company_name="Apple", detail_level="summary"), "ok"]), []
    sink: list[Event] = events
    result = await Agent(model, tools=[get_stock_info]).run(
        "Give me detail information about Apple's stock.", on_event=sink.append
    )
    assert result.steps[0].call is not None and result.steps[0].call.arguments["detail_level"] == "detailed"
    assert any(isinstance(e, Notice) and "the one the conversation names" in e.message for e in events)
