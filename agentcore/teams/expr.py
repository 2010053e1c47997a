"""Edge conditions: a small, safe expression language over the team's state. Nothing is ever `eval`-ed.

    when: "verdict != 'approve' and len(drafts) < 3"

Python's parser reads the text into a syntax tree, and only these forms are accepted; everything else (calls
to anything but the functions below, attributes, lambdas, comprehensions, ...) is refused when the file loads:
- names: state keys (checked against the state schema by the validator);
- constants: strings, numbers, true/false/none (also True/False/None);
- `and`, `or`, `not`; comparisons `== != < <= > >= in not in`; arithmetic `+ - * / %`; lists `[a, b]`;
- indexing `x[0]`, `x['key']`;
- functions: len, lower, upper, strip, str, int, float, abs, min, max, contains(text, part), startswith(text, part).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MAX_LENGTH = 500

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len,
    "lower": lambda s: str(s).lower(),
    "upper": lambda s: str(s).upper(),
    "strip": lambda s: str(s).strip(),
    "str": str,
    "int": int,
    "float": float,
    "abs": abs,
    "min": min,
    "max": max,
    "contains": lambda text, part: str(part).lower() in str(text).lower(),
    "startswith": lambda text, part: str(text).strip().lower().startswith(str(part).lower()),
}
_CONSTANTS = {"true": True, "false": False, "none": None, "null": None}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}


class ExpressionError(ValueError):
    """The text is not an expression of the condition language; the message says what is allowed."""


class ConditionFailed(RuntimeError):
    """A condition could not be evaluated on the state at run time (a type mismatch, say)."""


@dataclass(frozen=True, slots=True)
class Condition:
    text: str
    tree: ast.expr
    names: frozenset[str]

    def __call__(self, state: Mapping[str, Any]) -> bool:
        try:
            return bool(_eval(self.tree, state))
        except ConditionFailed:
            raise
        except Exception as exc:
            raise ConditionFailed(f"condition {self.text!r} failed on the state: {type(exc).__name__}: {exc}") from exc


def parse(text: str) -> Condition:
    """Parse and check a condition. Raises ExpressionError naming the first form that is not allowed."""
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"the condition has {len(text)} characters; at most {MAX_LENGTH}")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ExpressionError(f"not an expression: {exc.msg} (column {exc.offset})") from None
    except ValueError as exc:  # a NUL byte or a lone surrogate
        raise ExpressionError(f"not an expression: {exc}") from None
    names: set[str] = set()
    _check(tree, names)
    return Condition(text, tree, frozenset(names))


_CHILDREN: dict[type[ast.AST], Callable[[Any], list[ast.AST] | None]] = {
    ast.Call: lambda n: list(n.args) if _allowed_call(n) else None,
    ast.BoolOp: lambda n: list(n.values),
    ast.UnaryOp: lambda n: [n.operand] if isinstance(n.op, (ast.Not, ast.USub)) else None,
    ast.Compare: lambda n: [n.left, *n.comparators] if all(type(op) in _COMPARE for op in n.ops) else None,
    ast.BinOp: lambda n: [n.left, n.right] if type(n.op) in _BINARY else None,
    ast.List: lambda n: list(n.elts),
    ast.Tuple: lambda n: list(n.elts),
    ast.Subscript: lambda n: None if isinstance(n.slice, ast.Slice) else [n.value, n.slice],
}


def _allowed_call(node: ast.Call) -> bool:
    if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
        raise ExpressionError(f"only these functions may be called: {', '.join(FUNCTIONS)}")
    return True


def _check(node: ast.AST, names: set[str]) -> None:
    if isinstance(node, ast.Name):
        if node.id not in _CONSTANTS:
            names.add(node.id)
        return
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, (str, int, float, bool, type(None))):
            raise ExpressionError(f"constant {node.value!r} is not allowed")
        return
    rule = _CHILDREN.get(type(node))
    children = rule(node) if rule is not None else None
    if children is None:
        raise ExpressionError(
            f"'{type(node).__name__}' is not allowed; use state keys, constants, and/or/not, comparisons,"
            " + - * / %, [lists], x[i] and the functions " + ", ".join(FUNCTIONS)
        )
    for child in children:
        _check(child, names)


def _eval(node: ast.AST, state: Mapping[str, Any]) -> Any:  # noqa: C901, PLR0911 (one case per form)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in state:
            return state[node.id]
        lowered = node.id.lower()
        if lowered in _CONSTANTS:
            return _CONSTANTS[lowered]
        raise ConditionFailed(f"state has no key {node.id!r}")
    if isinstance(node, ast.BoolOp):
        values = (_eval(v, state) for v in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, state)
        return (not value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.Compare):
        left = _eval(node.left, state)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _eval(right_node, state)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_eval(node.left, state), _eval(node.right, state))
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_eval(e, state) for e in node.elts]
    if isinstance(node, ast.Subscript):
        return _eval(node.value, state)[_eval(node.slice, state)]
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)  # _check allowed nothing else
    return FUNCTIONS[node.func.id](*(_eval(a, state) for a in node.args))
