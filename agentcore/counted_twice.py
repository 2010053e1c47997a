"""A value added to the result of a sum that already counts it: `899 + 1058` after `899 + 159` = 1058.

compose16's l08 ("What is the combined price of a laptop and a printer?"): the model added both prices, then
added the laptop's price to that total again. The result of a sum stands for its terms; one of those terms beside
it counts an item twice. A term beside a product's result is a part added to its whole ("45.9 + 4.59" for "add
10% of it"), never judged; nor is a number the task writes ("add 5, then add 5 again").
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import BARE_NUMBER, leaves, plain, values_in


def counted_twice(arguments: Any, earlier: Sequence[tuple[Any, str]], task: str) -> tuple[str, str, str] | None:
    """(the value counted twice, the earlier sum's result, that sum's expression) when an expression of the call
    adds an earlier sum's bare-number result and one of that sum's own terms; None otherwise."""
    given = values_in(task)
    for text in (value for value in leaves(arguments) if isinstance(value, str)):
        terms = sum_terms(text)
        for inputs, result in reversed(earlier):
            total = _bare(result)
            if total is None or total not in terms:
                continue
            for expression in (value for value in leaves(inputs) if isinstance(value, str)):
                inner = set(sum_terms(expression))
                twice = [t for t in terms if t != total and t in inner and t not in given]
                if twice:
                    return plain(twice[0]), result.strip(), expression
    return None


def sum_terms(expression: str) -> list[float]:
    """The number terms of an expression's outermost sum (`899 + 159` -> 899, 159); [] for anything else."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # surrogates, NUL bytes, deep nesting
        return []
    if not (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Add)):
        return []
    terms: list[float] = []
    stack: list[ast.expr] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            stack += [node.right, node.left]
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)
        ):
            terms.append(round(abs(float(node.value)), 12))
    return terms


def _bare(result: str) -> float | None:
    text = result.strip()
    return round(abs(float(text)), 12) if BARE_NUMBER.fullmatch(text) else None
