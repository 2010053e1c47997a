"""A calculator tool: arithmetic evaluated on a whitelisted AST, never with eval().

Small models get arithmetic wrong, so this is the tool they need most. It accepts their common habits
(`x`, `×` and `÷` for operators, `^` for power) and refuses anything that is not plain arithmetic, with a
message the model can act on. Guards keep a single call cheap: a length cap, a cap on the size of integer
results (checked before a power is computed) and finite floats only.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from agentcore.tools.function import tool

MAX_EXPRESSION_CHARS = 500
MAX_RESULT_DIGITS = 1000  # integers beyond this are refused: `9**9**9` would take minutes and gigabytes

Number = int | float

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt,
    "abs": abs,
    "round": round,
    "min": min,
    "max": max,
    "floor": math.floor,
    "ceil": math.ceil,
    "log": math.log,
    "exp": math.exp,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
}
_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e}
# "x" is a multiplication sign only between two operands, so "exp" and "max" keep theirs.
_TIMES_X = re.compile(r"(?<=[\d.)\s])(?<!\b0)[xX](?=\s*[\d.(])")


@tool(timeout=5.0)
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression and return the result.

    Supports + - * / // % ** (or ^), parentheses, pi, e and sqrt, abs, round, min, max, floor, ceil, log, exp,
    sin, cos, tan. Write numbers without thousands separators: 1234, not 1,234.

    Args:
        expression: The arithmetic expression to evaluate.
    """
    return format_number(evaluate(expression))


def evaluate(expression: str) -> Number:
    """The value of `expression`. Raises ValueError with a message meant for the model."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise ValueError(f"expression is too long ({len(expression)} characters, at most {MAX_EXPRESSION_CHARS})")
    text = _normalise(expression)
    if not text:
        raise ValueError("expression is empty; pass an arithmetic expression such as 2 * (3 + 4)")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ValueError(f"cannot parse {expression!r} as arithmetic; check brackets and operators") from None
    try:
        return _eval(tree.body)
    except ZeroDivisionError:
        raise ValueError("division by zero") from None
    except OverflowError:
        raise ValueError("the result is too large") from None
    except RecursionError:
        raise ValueError("the expression is nested too deeply") from None


def format_number(value: Number) -> str:
    """Integers as integers; floats with up to 10 significant digits, so 0.1 + 0.2 prints 0.3."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:  # exact as a float
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def _normalise(expression: str) -> str:
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("−", "-").replace("^", "**")
    return _TIMES_X.sub("*", text)


def _eval(node: ast.expr) -> Number:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise ValueError(f"only numbers are allowed, not {node.value!r}")
        return _checked(node.value)
    if isinstance(node, ast.Name):
        if node.id not in _CONSTANTS:
            raise ValueError(f"unknown name {node.id!r}; known constants are pi and e")
        return _CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            _check_power(left, right)
        return _checked(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.Call):
        return _call(node)
    if isinstance(node, ast.Tuple):
        raise ValueError("commas are only allowed between function arguments; write 1234, not 1,234")
    raise ValueError(f"{type(node).__name__} is not allowed; use numbers, operators and the listed functions")


def _call(node: ast.Call) -> Number:
    if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
        known = ", ".join(_FUNCTIONS)
        raise ValueError(f"unknown function {ast.unparse(node.func)!r}; known functions are {known}")
    if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
        raise ValueError(f"{node.func.id}() takes plain positional arguments only")
    name = node.func.id
    args = [_eval(arg) for arg in node.args]
    if name == "round" and len(args) == 2 and not isinstance(args[1], int):
        raise ValueError("round(x, n): n must be a whole number")
    try:
        return _checked(_FUNCTIONS[name](*args))
    except TypeError:
        raise ValueError(f"{name}() got the wrong number of arguments ({len(args)})") from None
    except ValueError as exc:
        shown = ", ".join(format_number(arg) for arg in args)
        raise ValueError(f"{name}({shown}): {exc}") from None


def _check_power(base: Number, exponent: Number) -> None:
    """Refuse a power whose result would be huge, before computing it."""
    if abs(base) <= 1 or exponent <= 0:
        return
    digits = exponent * math.log10(abs(base))
    if digits > MAX_RESULT_DIGITS:
        raise ValueError(f"the result would have about {digits:.3g} digits; at most {MAX_RESULT_DIGITS} allowed")


def _checked(value: Any) -> Number:
    if isinstance(value, complex):
        raise ValueError("the result is not a real number")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("the result is not a finite number")
    if isinstance(value, int) and value.bit_length() > MAX_RESULT_DIGITS * 3.33:
        raise ValueError(f"the result has more than {MAX_RESULT_DIGITS} digits")
    if not isinstance(value, int | float):
        raise ValueError(f"unexpected result {value!r}")
    return value
