"""A day or a year of a date the date tool took, used as an operand, is held as a stale input
(`unfinished.date_parts`, `loop_checks.stale_call`); several inputs one result stood for get no call written out."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@tool(read_only=True)
def date_diff(start: str, end: str) -> str:
    """Count the days between two dates (YYYY-MM-DD)."""
    return {("2024-06-01", "2024-06-21"): "20", ("2025-08-02", "2025-08-16"): "14"}[start, end]


async def run(task: str, dates: dict[str, str], wrong: str, right: str, answer: str) -> tuple[str, str]:
    model = ScriptedModel(
        [call("date_diff", **dates), call("calculator", expression=wrong), call("calculator", expression=right), answer]
    )
    result = await Agent(model, tools=[date_diff, calculator]).run(task)
    return model.requests[2].messages[-1].content, str(result.output)


async def test_the_days_of_a_date_in_words_are_no_operands() -> None:
    """independent5's bx17: `14 + 2 + 2025 + 16 * 95` for "from the 2nd of August 2025 to the 16th ..."."""
    task = "From the 2nd of August 2025 to the 16th of August 2025 at 95 dollars a night: the bill?"
    dates = {"start": "2025-08-02", "end": "2025-08-16"}
    notice, output = await run(task, dates, "14 + 2 + 2025 + 16 * 95", "14 * 95", "1330")
    assert notice.startswith("Not run: 2 and 16 and 2025 was the input of an earlier step, whose result is 14.")
    assert notice.endswith("Call calculator for the next step with 14 and 95.")  # no call written out
    assert output == "1330"


async def test_several_inputs_one_result_stood_for_get_no_call_written_out() -> None:
    """independent1's ar28: `1 + 21 + 2024 + 0.5` was written out as `20 + 20 + 20 + 0.5`, and run."""
    task = "Days from 2024-06-01 to 2024-06-21, plus half of itself?"
    dates = {"start": "2024-06-01", "end": "2024-06-21"}
    notice, output = await run(task, dates, "1 + 21 + 2024 + 0.5", "20 + 20 * 0.5", "30")
    assert "20 + 20 + 20" not in notice and "Call calculator for the next step with 20" in notice
    assert output == "30"
