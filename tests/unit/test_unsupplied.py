"""A call whose required numbers no one gave is held back; the second such call leaves the run only an answer."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.grounding import unsupplied
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

CONVERT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "amount": {"type": "number"},
        "rate": {"type": "number", "description": "Exchange rate, 1.1 by default for EUR."},
        "digits": {"type": "integer"},
        "points": {"type": "array", "items": {"type": "number"}},
        "currency": {"type": "string"},
    },
    "required": ["amount", "points"],
}


@pytest.mark.parametrize(
    ("arguments", "given", "missing"),
    [
        ({"amount": 100, "points": []}, "Find the flight time from LA to Miami.", ["amount=100"]),
        ({"amount": 100, "points": []}, "Convert 100 dollars to euros.", []),
        ({"amount": 2500, "points": []}, "Convert 2,500 dollars.", []),  # thousands separator
        ({"amount": 12, "points": []}, "Convert a dozen dollars.", []),  # a number in words
        ({"amount": 0.15, "points": []}, "Take 15% of it.", []),  # a percentage as a calculator takes it
        ({"amount": -3, "points": []}, "Subtract 3.", []),  # the sign is the model's to choose
        ({"amount": 1, "points": [0, 1]}, "Convert a dollar.", []),  # 0 and 1 need no source
        ({"amount": 1.1, "points": []}, "Convert.", []),  # the tool's own docs give it
        ({"amount": 5, "points": [5, 7]}, "Start at 5.", ["points=7"]),  # inside a list too
        ({"amount": 5, "points": [], "digits": 3}, "Take 5.", []),  # optional arguments are not judged
        ({"amount": 5, "points": [], "currency": "7"}, "Take 5.", []),  # nor strings
        ({"amount": True, "points": []}, "Yes.", []),  # nor booleans
        ({"amount": 1200000, "points": []}, "Revenues of $1.2M.", []),  # a scaled number
        ({"amount": 7, "points": []}, "The air quality for the next week.", []),  # a calendar word's count
        ({"amount": 48, "points": []}, "Over two days.", []),  # worked out: 2 days * 24 hours
    ],
)
def test_unsupplied(arguments: dict[str, Any], given: str, missing: list[str]) -> None:
    assert unsupplied(arguments, CONVERT, "Convert currencies.", given) == missing


@tool
def range_of(velocity: float, angle: float) -> float:
    """Range of a projectile.

    Args:
        velocity: Launch speed in m/s.
        angle: Launch angle in degrees.
    """
    return velocity * angle


@tool
def speed_of(name: str) -> str:
    """The launch speed of a named rocket, in m/s."""
    return {"vega": "30"}[name]


TASK = "How far does the vega rocket fly when launched at 45 degrees?"


async def test_made_up_numbers_are_held_back_and_a_given_value_then_runs() -> None:
    model = ScriptedModel(
        [
            call("range_of", velocity=10, angle=45),  # 10 made up
            call("speed_of", name="vega"),
            call("range_of", velocity=30, angle=45),  # 30 is a result now
            "1350",
        ]
    )
    result = await Agent(model, tools=[range_of, speed_of]).run(TASK)
    assert result.output == "1350"
    notice = model.requests[1].messages[-1].content
    assert notice.startswith("Not run: velocity=10 is in neither the task nor any tool result; it was made up.")
    assert [s.call.name for s in result.steps if s.call] == ["range_of", "speed_of", "range_of"]
    assert result.steps[0].result == "not run: velocity=10 given by no one" and result.steps[0].tool_error
    assert [s.result for s in result.steps[1:3]] == ["30", "1350.0"]
    assert {spec.name for spec in model.requests[1].tools} == {"range_of", "speed_of"}  # other tools stay offered


async def test_a_second_made_up_call_leaves_only_an_answer() -> None:
    model = ScriptedModel(
        [
            call("range_of", velocity=10, angle=45),
            call("range_of", velocity=20, angle=45),
            "The launch speed is not given.",
        ]
    )
    result = await Agent(model, tools=[range_of]).run("How far does a rocket fly at 45 degrees?")
    assert result.output == "The launch speed is not given."
    assert all(s.tool_error for s in result.steps if s.call)  # neither call ran
    assert model.requests[2].tools == ()  # the third turn may only answer
    assert "Do not call range_of. Reply with the final_answer now" in model.requests[2].messages[-1].content


async def test_the_check_is_off_without_check_sources() -> None:
    model = ScriptedModel([call("range_of", velocity=10, angle=45), "450"])
    agent = Agent(model, tools=[range_of])
    agent.check_sources = False
    result = await agent.run("How far at 45 degrees?")
    assert result.steps[0].result == "450.0" and not result.steps[0].tool_error


def test_a_value_worked_out_from_two_given_numbers_is_not_made_up() -> None:
    assert unsupplied({"amount": 57.5, "points": []}, CONVERT, "", "Send 50 EUR plus 15%.") == []
    assert unsupplied({"amount": 12.5, "points": []}, CONVERT, "", "Split 50 among 4.") == []
    assert unsupplied({"amount": 13, "points": []}, CONVERT, "", "Split 50 among 4.") == ["amount=13"]


def test_a_web_address_on_a_host_no_one_named_is_made_up() -> None:
    schema = {"properties": {"url": {"type": "string"}, "proxy": {"type": "string"}}, "required": ["url"]}
    asked = "Which company owns the IP 8.8.8.8?"
    assert unsupplied({"url": "https://api.ipify.org/json"}, schema, "Sends a GET request.", asked) == [
        "url=https://api.ipify.org/json"
    ]
    assert unsupplied({"url": "https://www.ipify.org/x"}, schema, "", "Ask ipify.org about 8.8.8.8.") == []
    assert unsupplied({"url": "https://api.example.com"}, schema, "Base: https://api.example.com", asked) == []
    assert unsupplied({"url": "https://a.com", "proxy": "http://b.com"}, schema, "", "See https://a.com") == []


def test_an_email_address_no_one_wrote_is_made_up() -> None:
    schema = {"properties": {"address": {"type": "string"}, "cc": {"type": "string"}}, "required": ["address"]}
    asked = "Send Mom an email saying we should go out and play."
    assert unsupplied({"address": "mom@example.com"}, schema, "Sends mail.", asked) == ["address=mom@example.com"]
    assert unsupplied({"address": "Mom@Home.org"}, schema, "", "Mail mom@home.org a note.") == []
    assert unsupplied({"address": "a@b.io", "cc": "x@y.io"}, schema, "", "Mail a@b.io.") == []  # optional: not judged
