"""A value added to the result of a sum that already counts it: `899 + 1058` after `899 + 159` = 1058; and a count
multiplied into the result of a product that already took it: `3 * 6.803886` after `3 * 2.267962` = 6.803886.

compose16's l08 ("What is the combined price of a laptop and a printer?"): the model added both prices, then
added the laptop's price to that total again. The result of a sum stands for its terms; one of those terms beside
it counts an item twice. A term beside a product's result is a part added to its whole ("45.9 + 4.59" for "add
10% of it"), never judged; nor is a number the task writes ("add 5, then add 5 again").

compose25's af18 ("One bag of flour weighs 5 pounds. How many kilograms do 3 bags weigh?") multiplied the 3 bags
into 2.267962 kg, then into that product again. A product's result stands for its factors the same way; a factor
the task writes once is counted once ("multiply by 3, then by 3 again" writes it twice).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from agentcore.unfinished import BARE_NUMBER, leaves, numbers_in, plain, values_in

ADDED, MULTIPLIED = "added", "multiplied"


def counted_twice(arguments: Any, earlier: Sequence[tuple[Any, str]], task: str) -> tuple[str, str, str, str] | None:
    """(the value counted twice, the earlier sum's or product's result, its expression, ADDED or MULTIPLIED) when
    an expression of the call adds an earlier sum's bare-number result and one of that sum's own terms, or
    multiplies an earlier product's result by one of its factors that the task writes once; None otherwise."""
    given = values_in(task)
    once = {value for value, count in Counter(round(abs(n), 12) for n in numbers_in(task)).items() if count == 1}
    for text in (value for value in leaves(arguments) if isinstance(value, str)):
        for how, op, counts in ((ADDED, ast.Add, lambda t: t not in given), (MULTIPLIED, ast.Mult, once.__contains__)):
            found = _again(text, earlier, op, counts)
            if found is not None:
                return (*found, how)
    return None


def _again(
    text: str, earlier: Sequence[tuple[Any, str]], op: type[ast.operator], counts: Callable[[float], bool]
) -> tuple[str, str, str] | None:
    groups = [outer_terms(text, op)] if op is ast.Add else [outer_terms(term, op) for term in _addends(text)]
    for terms in groups:
        found = _counted_in(terms, earlier, op, counts)
        if found is not None:
            return found
    return None


def _addends(expression: str) -> list[str]:
    """The expression's outermost addends as texts (`3 * 21.75 + 50` -> "3 * 21.75", "50"); itself alone when it
    is no sum: a count multiplied in again inside a sum is one too ("3 * 21.75 + 50" after `3 * 7.25` = 21.75,
    for the change from 50: independent5's bx14)."""
    addends = outer_nodes(expression, ast.Add)
    return [ast.unparse(node) for node in addends] if addends else [expression]


def _counted_in(
    terms: list[float], earlier: Sequence[tuple[Any, str]], op: type[ast.operator], counts: Callable[[float], bool]
) -> tuple[str, str, str] | None:
    for inputs, result in reversed(earlier):
        total = _bare(result)
        if total is None or total not in terms:
            continue
        for expression in (value for value in leaves(inputs) if isinstance(value, str)):
            inner = set(outer_terms(expression, op))
            twice = [t for t in terms if t != total and t in inner and counts(t)]
            if twice:
                return plain(twice[0]), result.strip(), expression
    return None


def sum_terms(expression: str) -> list[float]:
    """The number terms of an expression's outermost sum (`899 + 159` -> 899, 159); [] for anything else."""
    return outer_terms(expression, ast.Add)


def outer_terms(expression: str, op: type[ast.operator]) -> list[float]:
    """The numbers an expression's outermost chain of `op` (ast.Add or ast.Mult) joins; [] for anything else."""
    return [
        round(abs(float(node.value)), 12)
        for node in outer_nodes(expression, op)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)
    ]


def outer_nodes(expression: str, op: type[ast.operator]) -> list[ast.expr]:
    """The operands an expression's outermost chain of `op` joins, in order; [] for anything else."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # surrogates, NUL bytes, deep nesting
        return []
    if not (isinstance(tree, ast.BinOp) and isinstance(tree.op, op)):
        return []
    nodes: list[ast.expr] = []
    stack: list[ast.expr] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, op):
            stack += [node.right, node.left]
        else:
            nodes.append(node)
    return nodes


def _bare(result: str) -> float | None:
    text = result.strip()
    return round(abs(float(text)), 12) if BARE_NUMBER.fullmatch(text) else None
