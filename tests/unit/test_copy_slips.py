"""A long number of the task copied with a zero too few or too many (agentcore.copy_slips, issue #18)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore import Agent
from agentcore.copy_slips import with_task_zeros
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

ROE = (
    "Calculate the company's return on equity given its net income of $2,000,000, shareholder's equity of "
    "$10,000,000, and dividends paid of $200,000."
)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        # BFCL multiple_128: one zero too few
        (
            {"income": 2000000, "equity": 1000000, "paid": 200000},
            {"income": 2000000, "equity": 10000000, "paid": 200000},
        ),
        ({"income": 2000000, "equity": 100000000}, {"income": 2000000, "equity": 10000000}),  # one too many
        # the task's own numbers, even in the wrong places, are the model's choice
        ({"income": 200000, "equity": 10000000}, {"income": 200000, "equity": 10000000}),
        ({"rate": 0.05, "flag": True, "name": "x"}, {"rate": 0.05, "flag": True, "name": "x"}),
    ],
)
def test_with_task_zeros(arguments: dict[str, Any], expected: dict[str, Any]) -> None:
    assert with_task_zeros(arguments, ROE) == expected


def test_the_task_number_already_taken_is_not_taken_twice() -> None:
    arguments = {"income": 2000000, "equity": 10000000, "other": 1000000}
    assert with_task_zeros(arguments, ROE) is arguments


def test_a_number_a_zero_away_from_two_of_the_task_is_left_alone() -> None:
    """100,000 is a tenth of 1,000,000 and ten times 10,000: which one is meant is a guess."""
    arguments = {"amount": 100000}
    assert with_task_zeros(arguments, "Move $10,000 or $1,000,000.") is arguments


def test_short_numbers_are_left_alone() -> None:
    """10 mm for 1 cm: a factor of ten in a short number is as likely a unit as a slip."""
    arguments = {"length": 150}
    assert with_task_zeros(arguments, "A board of 1500 mm.") is arguments


@tool
def calculate_return_on_equity(net_income: int, shareholder_equity: int, dividends_paid: int = 0) -> str:
    """Return on equity.

    Args:
        net_income: The company's net income.
        shareholder_equity: The company's total shareholder's equity.
        dividends_paid: The total dividends paid by the company.
    """
    return str((net_income - dividends_paid) / shareholder_equity)


async def test_the_loop_runs_the_task_number() -> None:
    slip = call("calculate_return_on_equity", net_income=2000000, shareholder_equity=1000000, dividends_paid=200000)
    model = ScriptedModel([slip, "0.18"])
    result = await Agent(model, tools=[calculate_return_on_equity]).run(ROE)
    assert result.steps[0].call is not None and result.steps[0].call.arguments["shareholder_equity"] == 10000000
    assert result.steps[0].result == "0.18" and result.output == "0.18"
