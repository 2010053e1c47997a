"""The task's last calculation done again on its own result (issue #12).

compose28's ai13 ("What is a printer's price with a tenth of it added on?") ran `159 + 159 * 0.10` = 174.9, then
`174.9 + 174.9 * 0.10`: the same calculation with its result in place of the price. The same happens in the
model's head: 262144 (`64 * 4096`) after `64 * 64` = 4096 for "a webcam's price multiplied by itself" (ai15), and
183.6 after `45.9 * 2` for "A keyboard's price, doubled?" (compose27's ah04).

Only the shape is read here: an expression (or an answer's number) that is an earlier expression with its result
written where one or more of the tool results it took stood. Whether the computation was complete when that
happened (every number of the task used, no result left over) is the caller's question
(`agentcore.count_checks.last_calculation`).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from agentcore.tools.builtin.calculator import EQUALS
from agentcore.unfinished import BARE_NUMBER, leaves, rounds_to, values_in

# A task that asks for a step more than once ("add 10%, twice", "compounded") repeats it on purpose.
ASKS_AGAIN = re.compile(
    r"\b(?:again|twice|repeat\w*|compound\w*|in a row|each (?:year|month|week|day)|further|another)\b", re.IGNORECASE
)
_LONGEST = 400  # characters: a longer expression is no step of a small task (and nests past Python's recursion)
_MAX_EXPONENT = 64  # a power past this is no step of a small task; evaluating it only costs time
_MAX_SPOTS = 4  # places a result may have gone in: at most 15 ways to put the result back into them


def last_computation(steps: Sequence[tuple[Any, str]]) -> tuple[str, str, frozenset[float]] | None:
    """(the expression, its result, the earlier results it took) when the last (arguments, result) step computed
    an expression on one or more earlier steps' numeric results; None otherwise."""
    if len(steps) < 2:
        return None
    arguments, result = steps[-1]
    if not BARE_NUMBER.fullmatch(result.strip()):
        return None
    earlier = {v for _, text in steps[:-1] if BARE_NUMBER.fullmatch(text.strip()) for v in values_in(text)}
    for expression in (value for value in leaves(arguments) if isinstance(value, str)):
        tree = _parse(expression)
        if tree is None:
            continue
        taken = frozenset(round(abs(v), 12) for v in _constants(tree)) & earlier
        if taken:
            return expression, result.strip(), taken
    return None


def again_in_call(arguments: Any, expression: str, result: str, taken: frozenset[float]) -> bool:
    """Whether an expression of the call is `expression` with `result` written where one or more of the tool
    results it took (`taken`) stood, and nothing else changed."""
    before, value = _parse(expression), float(result)
    if before is None:
        return False
    for text in (leaf for leaf in leaves(arguments) if isinstance(leaf, str)):
        after = _parse(text)
        if after is not None and _swapped(before, after, value, taken) > 0:
            return True
    return False


def again_in_head(answer_number: str, expression: str, result: str, taken: frozenset[float]) -> str | None:
    """The expression with the result put back (`64 * 4096`) whose value the answer's one number writes, when
    there is one; None otherwise."""
    tree = _parse(expression)
    if tree is None:
        return None
    spots = [i for i, v in enumerate(_constants(tree)) if round(abs(v), 12) in taken][:_MAX_SPOTS]
    for size in range(1, len(spots) + 1):
        for chosen in combinations(spots, size):
            value = _evaluate(tree, {i: float(result) for i in chosen})
            if value is not None and rounds_to(value, answer_number):
                return _written(expression, {i: result for i in chosen})
    return None


def is_arithmetic(text: str) -> bool:
    """Whether `text` is an expression with at least one operation on numbers ("10 * (1 - 0.10)"); an equation
    chain is read by its first side, as the calculator reads it: "6 / 1 = 6" is arithmetic that ran (independent12's
    cd09 opened with it, before looking up the printer the task names)."""
    tree = _parse(EQUALS.split(text, maxsplit=1)[0])
    return tree is not None and not isinstance(tree, ast.Constant)


def _swapped(before: ast.expr, after: ast.expr, result: float, taken: frozenset[float]) -> int:
    """How many of `before`'s taken results `after` writes as the result; -1 where the two differ otherwise."""
    if isinstance(before, ast.Constant) and isinstance(after, ast.Constant):
        return _constant_swapped(before, after, result, taken)
    pairs: list[tuple[ast.expr, ast.expr]] = []
    if isinstance(before, ast.BinOp) and isinstance(after, ast.BinOp) and type(before.op) is type(after.op):
        pairs = [(before.left, after.left), (before.right, after.right)]
    elif isinstance(before, ast.UnaryOp) and isinstance(after, ast.UnaryOp) and type(before.op) is type(after.op):
        pairs = [(before.operand, after.operand)]
    counts = [_swapped(a, b, result, taken) for a, b in pairs]
    return -1 if not counts or -1 in counts else sum(counts)


def _constant_swapped(before: ast.Constant, after: ast.Constant, result: float, taken: frozenset[float]) -> int:
    a, b = _number(before), _number(after)
    if a is None or b is None:
        return -1
    if round(abs(a), 12) in taken and math.isclose(b, result, rel_tol=1e-9) and not math.isclose(a, b):
        return 1
    return 0 if math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) else -1


def _evaluate(node: ast.expr, put: dict[int, float]) -> float | None:
    """The value of an arithmetic tree with the constants at the `put` positions (in reading order) replaced."""
    counter = iter(range(1_000_000))
    try:
        return _value(node, put, counter)
    except (ArithmeticError, ValueError, TypeError):  # TypeError: a negative number to a fractional power
        return None


def _value(node: ast.expr, put: dict[int, float], counter: Iterator[int]) -> float:
    if isinstance(node, ast.Constant):
        index, number = next(counter), _number(node)
        if number is None:
            raise ValueError("not a number")
        return put.get(index, number)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _value(node.operand, put, counter)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        a, b = _value(node.left, put, counter), _value(node.right, put, counter)
        return _apply(node.op, a, b)
    raise ValueError("not arithmetic")


def _apply(op: ast.operator, a: float, b: float) -> float:
    if isinstance(op, ast.Add):
        return a + b
    if isinstance(op, ast.Sub):
        return a - b
    if isinstance(op, ast.Mult):
        return a * b
    if isinstance(op, ast.Div):
        return a / b
    if isinstance(op, ast.Pow) and abs(b) <= _MAX_EXPONENT:
        value = a**b
        if isinstance(value, complex):
            raise ValueError("a negative number to a fractional power")
        return float(value)
    raise ValueError("not an operation of the calculator")


def _written(expression: str, put: dict[int, str]) -> str:
    """The expression with the constants at the `put` positions (in reading order) written as the given text."""
    counter = iter(range(1_000_000))

    class Put(ast.NodeTransformer):
        def visit_Constant(self, constant: ast.Constant) -> ast.expr:
            index = next(counter)
            return ast.Name(put[index]) if index in put else constant

    return ast.unparse(Put().visit(ast.parse(expression, mode="eval")))


def _constants(tree: ast.expr) -> list[float]:
    """The tree's numbers in reading order (left to right), the order `_value` and `_written` count them in."""
    found: list[float] = []

    def walk(node: ast.expr) -> None:
        if isinstance(node, ast.Constant):
            number = _number(node)
            found.append(number if number is not None else math.nan)
        elif isinstance(node, ast.BinOp):
            walk(node.left)
            walk(node.right)
        elif isinstance(node, ast.UnaryOp):
            walk(node.operand)

    walk(tree)
    return found


def _number(node: ast.Constant) -> float | None:
    value = node.value
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        return float(value)
    except OverflowError:  # an int of hundreds of digits
        return None


def _parse(expression: str) -> ast.expr | None:
    """The expression as an arithmetic tree (numbers, + - * / ** and signs only); None for anything else."""
    if len(expression) > _LONGEST:
        return None
    try:
        tree = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # surrogates, NUL bytes, deep nesting
        return None
    allowed = (ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator, ast.unaryop)
    return tree if all(isinstance(node, allowed) for node in ast.walk(tree)) else None
