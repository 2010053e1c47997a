"""A percentage of the task written as a whole number into a rate argument runs as its fraction
(`agentcore.rates`)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.rates import as_fractions, percentages
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


def test_percentages() -> None:
    assert percentages("7% a year, 3.5 percent fees, 12 per cent tax, 2024 and v1.5%") == [
        Decimal("7"),
        Decimal("3.5"),
        Decimal("12"),
    ]


def _params(name: str, description: str = "", kind: str = "number") -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: {"type": kind, "description": description}, "years": {"type": "integer"}},
    }


TASK = "What is the profit on $5000 over 5 years at an annual return of 7%?"


@pytest.mark.parametrize(
    ("name", "description", "kind", "expected"),
    [
        ("annual_return", "The annual return rate of the investment.", "number", 0.07),
        ("discount_rate", "", "number", 0.07),
        ("growth", "The growth, in decimal form. Example, 5% is 0.05.", "number", 0.07),
        ("annualRate", "", "number", 0.07),  # camelCase names are read by their parts
        ("annual_rate", "The interest rate for a year as a percentage.", "number", 7),  # the docs say percent
        ("rate_pct", "", "number", 7),
        ("threshold", "The value at which the alert fires.", "number", 7),  # no rate named
        ("annual_return", "", "integer", 7),  # an integer argument cannot take a fraction
    ],
)
def test_as_fractions(name: str, description: str, kind: str, expected: float) -> None:
    fixed = as_fractions({name: 7, "years": 5}, _params(name, description, kind), TASK)
    assert fixed == {name: expected, "years": 5}


def test_values_that_are_no_percentage_of_the_task_run_as_written() -> None:
    arguments = {"annual_return": 0.07, "years": 5}
    assert as_fractions(arguments, _params("annual_return"), TASK) is arguments
    assert as_fractions({"annual_return": 5}, _params("annual_return"), TASK) == {"annual_return": 5}  # 5 years
    assert as_fractions({"annual_return": 7}, _params("annual_return"), "Return 7 units.") == {"annual_return": 7}


@tool
def predict_profit(investment_amount: float, annual_return: float, years: int) -> str:
    """Predicts the profit of an investment.

    Args:
        investment_amount: The amount invested.
        annual_return: The annual return rate of the investment.
        years: How long it is held.
    """
    return f"{investment_amount * ((1 + annual_return) ** years - 1):.2f}"


async def test_the_loop_runs_the_fraction_and_shows_it() -> None:
    model = ScriptedModel([call("predict_profit", investment_amount=5000, annual_return=7, years=5), "2012.76"])
    agent = Agent(model, tools=[predict_profit])
    result = await agent.run(TASK)
    assert result.steps[0].call is not None and result.steps[0].call.arguments["annual_return"] == 0.07
    assert result.steps[0].result == "2012.76"
    assert '"annual_return": 0.07' in str(model.requests[1].messages)
