"""A yes-or-no argument the task names, unnegated, is set; a negated or unnamed one keeps the model's `false`."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.named_flags import asked_flags
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

FLAGS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "is_unisex": {"type": "boolean"},
        "has_garage": {"type": "boolean"},
        "available_for_pet": {"type": "boolean"},
    },
}


@pytest.mark.parametrize(
    ("task", "arguments", "expected"),
    [
        ("Search for a unisex hair salon located in Emeryville, CA?", {"is_unisex": False}, {"is_unisex": True}),
        ("A house with a garage, please.", {"has_garage": False}, {"has_garage": True}),
        ("A cleaner available on Friday who is fine with pets.", {"available_for_pet": False},
         {"available_for_pet": True}),
        # negated within a few words before a mention
        ("Find me a hair stylist in Fremont, and it shouldn't be unisex?", {"is_unisex": False},
         {"is_unisex": False}),
        ("I'm not concerned about having a garage.", {"has_garage": False}, {"has_garage": False}),
        ("A cleaner available on March 25 that does not have pets.", {"available_for_pet": False},
         {"available_for_pet": False}),
        # not named (or only in part), or not false: the model's own
        ("Find me a salon in Fremont.", {"is_unisex": False}, {"is_unisex": False}),
        ("A cleaner available on Friday.", {"available_for_pet": False}, {"available_for_pet": False}),
        ("A unisex salon.", {"is_unisex": True, "city": "unisex"}, {"is_unisex": True, "city": "unisex"}),
    ],
)  # fmt: skip
def test_asked_flags(task: str, arguments: dict[str, Any], expected: dict[str, Any]) -> None:
    assert asked_flags(arguments, FLAGS, task) == expected


def test_nothing_changed_is_the_same_dict() -> None:
    arguments = {"city": "Fremont", "is_unisex": False}
    assert asked_flags(arguments, FLAGS, "A salon in Fremont.") is arguments


@tool
def find_salon(city: str, is_unisex: bool = False) -> str:
    """Finds a hair salon.

    Args:
        city: The city.
        is_unisex: Whether the salon serves everyone.
    """
    return f"a {'unisex ' if is_unisex else ''}salon in {city}"


async def test_the_call_runs_with_the_flag_the_task_names() -> None:
    model = ScriptedModel([call("find_salon", city="Emeryville", is_unisex=False), "Found one."])
    result = await Agent(model, tools=[find_salon]).run("Search for a unisex hair salon located in Emeryville.")
    assert result.steps[0].result == "a unisex salon in Emeryville"
