"""A calculator tool: arithmetic evaluated on a whitelisted AST, never with eval().

Small models get arithmetic wrong, so this is the tool they need most. It accepts their common habits
(`x`, `×` and `÷` for operators, `^` for power) and refuses anything that is not plain arithmetic, with a
message the model can act on.

Every operation is bounded before it runs, so that no expression costs more than a few milliseconds of CPU:
a timeout cannot help here, because one big-integer operation holds the GIL (and so the event loop) until it
ends, and a worker thread cannot be killed. The bounds live in two places: `_check_binop` predicts the size of
each operator's result, and `_check_call` checks every argument of every function against its `_Function`
entry. Numbers are finite floats or integers of at most `MAX_RESULT_DIGITS` digits.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agentcore.tools.function import tool

MAX_EXPRESSION_CHARS = 500
MAX_RESULT_DIGITS = 1000  # integers beyond this are refused: `9**9**9` would take minutes and gigabytes
MAX_INT_BITS = math.ceil(MAX_RESULT_DIGITS * math.log2(10))
MAX_NDIGITS = MAX_RESULT_DIGITS  # round(5, -10**8) builds 10**(10**8) internally: 20 s of CPU

Number = int | float


@dataclass(frozen=True, slots=True)
class _Function:
    """An allowed function with its arity and its argument bounds, so that none can be added unbounded.

    `limits[i]` bounds argument i+1: None accepts any number (already finite and at most `MAX_RESULT_DIGITS`
    digits); an int N asks for a whole number between -N and N (counts and digit positions, which set the
    amount of work).
    """

    fn: Callable[..., Any]
    min_args: int = 1
    max_args: int = 1
    limits: tuple[int | None, ...] = ()


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_FUNCTIONS: dict[str, _Function] = {
    "sqrt": _Function(math.sqrt),
    "abs": _Function(abs),
    "round": _Function(round, max_args=2, limits=(None, MAX_NDIGITS)),
    "min": _Function(min, min_args=2, max_args=100),
    "max": _Function(max, min_args=2, max_args=100),
    "floor": _Function(math.floor),
    "ceil": _Function(math.ceil),
    "log": _Function(math.log, max_args=2),
    "exp": _Function(math.exp),
    "sin": _Function(math.sin),
    "cos": _Function(math.cos),
    "tan": _Function(math.tan),
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
    sides = _sides(text)
    if len(sides) > 1:
        return _first_side(expression, sides)
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ValueError(f"cannot parse {expression!r} as arithmetic; {_parse_hint(text)}") from None
    try:
        return _eval(tree.body)
    except ZeroDivisionError:
        raise ValueError("division by zero") from None
    except OverflowError:
        raise ValueError("the result is too large") from None
    except RecursionError:
        raise ValueError("the expression is nested too deeply") from None


# A small model writes out its working: "899 - 0.20 * 899 = 899 - 179.8 = 719.2", or "total = 3 * 85".
EQUALS = re.compile(r"(?<![<>=!])=(?!=)")


def _sides(text: str) -> list[str]:
    """The sides of an equation chain: split at each "=" outside brackets ("round(1.5, ndigits=1)" is one)."""
    sides, depth, start = [], 0, 0
    for match in re.finditer(r"[()]|" + EQUALS.pattern, text):
        depth += {"(": 1, ")": -1}.get(match.group(), 0)
        if match.group() == "=" and depth == 0:
            sides.append(text[start : match.start()])
            start = match.end()
    return [*sides, text[start:]]


def _first_side(expression: str, sides: Sequence[str]) -> Number:
    """The value of the first side of an equation chain that is arithmetic: what the model asked to compute;
    the sides after it are its own working, which may be wrong. A chain with no arithmetic side gets the first
    side's error."""
    errors: list[ValueError] = []
    for side in sides:
        try:
            return evaluate(side)
        except ValueError as error:
            errors.append(error)
    raise ValueError(f"{expression!r} is an equation; pass one side only. {errors[0]}")


# A small model writes the value it has not fetched yet ("6 * (price of printer)"): say where numbers come from.
_WORDS_HINT = "The calculator takes numbers only: get a missing value with another tool first."
_WORD = re.compile(r"[A-Za-z_]{2,}")


def _parse_hint(text: str) -> str:
    words = [w for w in _WORD.findall(text) if w not in _CONSTANTS and w not in _FUNCTIONS]
    return f"it has words ({' '.join(words[:6])}). {_WORDS_HINT}" if words else "check brackets and operators"


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
            raise ValueError(f"unknown name {node.id!r}; known constants are pi and e. {_WORDS_HINT}")
        return _CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        _check_binop(node.op, left, right)
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
    _check_call(name, args)
    try:
        return _checked(_FUNCTIONS[name].fn(*args))
    except TypeError:
        raise ValueError(f"{name}() got the wrong number of arguments ({len(args)})") from None
    except ValueError as exc:
        shown = ", ".join(_short(arg) for arg in args)
        raise ValueError(f"{name}({shown}): {exc}") from None


def _check_call(name: str, args: Sequence[Number]) -> None:
    """Refuse a call whose arguments would make it slow, before it runs: the one place every call passes."""
    spec = _FUNCTIONS[name]
    if not spec.min_args <= len(args) <= spec.max_args:
        wanted = str(spec.min_args) if spec.min_args == spec.max_args else f"{spec.min_args} to {spec.max_args}"
        raise ValueError(f"{name}() got the wrong number of arguments ({len(args)}); it takes {wanted}")
    for position, arg in enumerate(args, start=1):
        _checked(arg)  # every argument is a finite float or a bounded integer, whatever produced it
        limit = spec.limits[position - 1] if position <= len(spec.limits) else None
        if limit is not None and not (isinstance(arg, int) and abs(arg) <= limit):
            raise ValueError(
                f"{name}(): argument {position} must be a whole number from -{limit} to {limit}, not {_short(arg)}"
            )


def _check_binop(op: ast.operator, left: Number, right: Number) -> None:
    """Refuse a product or power whose result would be huge, before computing it. Sums grow by one bit and
    quotients never grow, so `_checked` on their result is enough."""
    if isinstance(op, ast.Pow):
        _check_power(left, right)
    elif isinstance(op, ast.Mult) and _bits(left) + _bits(right) > MAX_INT_BITS + 1:
        raise ValueError(f"the result would have more than {MAX_RESULT_DIGITS} digits")


def _check_power(base: Number, exponent: Number) -> None:
    if abs(base) <= 1 or exponent <= 0:
        return  # the result's magnitude is at most 1 (or a float, whose overflow is caught)
    if isinstance(exponent, int) and exponent.bit_length() > 64:
        raise ValueError(f"the exponent {_short(exponent)} is too large; at most {MAX_RESULT_DIGITS} digits allowed")
    digits = exponent * math.log10(abs(base))
    if digits > MAX_RESULT_DIGITS:
        raise ValueError(f"the result would have about {digits:.3g} digits; at most {MAX_RESULT_DIGITS} allowed")


def _checked(value: Any) -> Number:
    if isinstance(value, complex):
        raise ValueError("the result is not a real number")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("the result is not a finite number")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise ValueError(f"the result has more than {MAX_RESULT_DIGITS} digits")
    if not isinstance(value, int | float):
        raise ValueError(f"unexpected result {value!r}")
    return value


def _bits(value: Number) -> int:
    """An integer's size; a float's product with anything stays a float, whose overflow is caught."""
    return value.bit_length() if isinstance(value, int) else 0


def _short(value: Number) -> str:
    """A number as shown in an error message: long integers are abbreviated, not printed in full."""
    text = format_number(value)
    return text if len(text) <= 30 else f"{text[:12]}...({len(text)} digits)"
