"""A count of portions in a whole, asked "how many" and written as a product of two quantities of one kind."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.fit_counts import as_fit_count
from agentcore.testing import ScriptedModel, call
from bench import toolbox

GLASSES = "How many 330 ml glasses can I fill from a 2 gallon jug?"
SHOTS = "A 5 lb bag of coffee beans, 18 g per espresso shot. How many shots is that?"


@pytest.mark.parametrize(
    ("expression", "task", "converted", "runs"),
    [
        ("0.087177 * 2", GLASSES, [("0.087177", "gal")], "2 / 0.087177"),  # independent12's cd32
        ("2267.96185 * 18", SHOTS, [("2267.96185", "g")], "2267.96185 / 18"),  # independent10's cc34
        ("2267.96185 / 18", SHOTS, [("2267.96185", "g")], "2267.96185 / 18"),  # already a quotient
        ("2267.96185 * 3", SHOTS, [("2267.96185", "g")], "2267.96185 * 3"),  # 3 has no unit
        ("0.087177 * 2", GLASSES, [("0.087177", "kg")], "0.087177 * 2"),  # a mass times a volume: not one kind
        ("9 * 7", "How many tiles cover a 9 m by 7 m floor?", [], "9 * 7"),  # two lengths: an area
        ("20 * 5", "How many cups of tea at 20 C and 5 C?", [], "20 * 5"),  # temperatures: no quotient means it
        ("250 * 2", "How many bottles of 250 ml fill 2 l?", [], "250 * 2"),  # two units: which is larger?
        ("2267.96185 * 2", "How many grams are 2 bags of 5 lb?", [("2267.96185", "g")], "2267.96185 * 2"),
        ("1000 * 5", "How many grams are in 5 kg?", [("5000", "g"), ("1000", "g")], "1000 * 5"),  # a unit asked
        ("5000 * 30", "How many shots of 30 g does 5 kg make?", [("5000", "g")], "5000 / 30"),
        ("5000 * 30", "How many more grams than 30 g is 5 kg?", [("5000", "g")], "5000 * 30"),  # a difference
    ],
)
def test_as_fit_count(expression: str, task: str, converted: list[tuple[str, str]], runs: str) -> None:
    assert as_fit_count({"expression": expression}, task, converted) == {"expression": runs}


async def test_a_product_of_a_bag_and_a_shot_runs_as_the_shots_the_bag_holds() -> None:
    """independent10's cc34 through the loop: the call is rewritten before it runs, and the answer is its result."""
    script = [
        call("unit_convert", value=5, from_unit="lb", to_unit="g"),
        call("calculator", expression="2267.96185 * 18"),
    ]
    model = ScriptedModel([*script, "125.9978806"])
    result = await Agent(model, tools=toolbox.agent_tools(["calculator", "unit_convert"])).run(SHOTS)
    ran = [s.call.arguments for s in result.steps if s.call is not None and not s.tool_error]
    assert ran[-1] == {"expression": "2267.96185 / 18"}
    assert result.output == "125.9978806"
