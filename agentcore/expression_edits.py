"""Edits of an arithmetic expression the checks rewrite: one term left out of its outermost sum or product, and
the factors or divisor of the model's own that no known number gives. Moved out of `agentcore.unfinished`, which
reads the numbers of tasks, answers and results."""

from __future__ import annotations

import ast

from agentcore.unfinished import numbers_in, plain


def without_term(expression: str, number: str) -> str | None:
    """`expression` with the term `number` left out of its outermost sum or product ("3 * 4 * R" -> "4 * R",
    "7 + 2 * R" -> "2 * R"), or None when the number is no such term or nothing would be left."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # surrogates, NUL bytes, deep nesting
        return None
    if not isinstance(tree, ast.BinOp) or not isinstance(tree.op, ast.Add | ast.Mult):
        return None
    kind, terms = type(tree.op), []
    stack: list[ast.expr] = [tree]
    while stack:  # the flattened chain, in order: (a * b) * c -> a, b, c
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, kind):
            stack += [node.right, node.left]
        else:
            terms.append(node)
    value = float(number)
    index = next((i for i, t in enumerate(terms) if isinstance(t, ast.Constant) and t.value == value), None)
    if index is None or len(terms) < 2:
        return None
    kept = [ast.unparse(t) for i, t in enumerate(terms) if i != index]
    return (" * " if kind is ast.Mult else " + ").join(kept)


def without_made_up_factors(expression: str, known: set[float]) -> str:
    """`expression` less the factors of its outermost product that are in none of the `known` numbers, while two
    terms are left: a stale call's own conversion ("3 * 7 * 1080" for 7 bags of 3 pounds in ounces, after the
    conversion returned 48) goes once the result takes the input's place ("48 * 7"), and so does an outermost
    made-up divisor ("3 * 15 / 2" for 3 ropes of 15 feet, the halving invented: "3 * 4.572")."""
    expression = _without_made_up_divisor(expression, known)
    for number in numbers_in(expression):
        if round(abs(number), 12) in known:
            continue
        fewer = without_term(expression, plain(number))
        if fewer is not None and ("*" in fewer or "+" in fewer):
            expression = fewer
    return expression


def _without_made_up_divisor(expression: str, known: set[float]) -> str:
    """`expression` less an outermost `/ c` whose c, and whose 1/c ("half" gives 0.5 for `/ 2`), is no known
    number, while an operation is left on its left."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # surrogates, NUL bytes, deep nesting
        return expression
    if not (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Div) and isinstance(tree.left, ast.BinOp)):
        return expression
    divisor = tree.right
    if not isinstance(divisor, ast.Constant) or not isinstance(divisor.value, int | float) or not divisor.value:
        return expression
    value = abs(float(divisor.value))
    if round(value, 12) in known or round(1 / value, 12) in known:
        return expression
    return ast.unparse(tree.left)
