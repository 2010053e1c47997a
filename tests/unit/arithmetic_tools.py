"""A calculator tool over the built-in evaluator, shared by unit tests of the repairs to arithmetic calls."""

from __future__ import annotations

from agentcore.tools.builtin.calculator import evaluate, format_number
from agentcore.tools.function import tool


@tool(read_only=True)
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    return format_number(evaluate(expression))
