"""What a small model writes into an arithmetic argument in place of a result it already has (issue #12):
- the earlier call itself: `calculator("date_diff(2024-06-01, 2024-06-02) * 86400")`;
- the text an earlier call counted: `"a journey of a thousand miles ... step * 2 ** 2"` after `word_count` on it;
- its inputs joined by an operator: `"2024-07-04 + 2024-09-01"` after `date_diff` on the two dates gave 59
  (compose11's j05, where the stale check then read the dates' digits as five numbers);
- a name for the one value fetched so far: `"price + (price / 2)"` after `lookup` gave 64, `"D * D - D"` after
  `date_diff` gave 44.

Each stands for that call's result, so the argument goes with the result written in (`with_results`); words
that only describe a result written after it ("6 * 32.4 price in dollars") go. Only
results of other tools, and only a result that is one number, are written in: a calculator's own earlier
expressions are the stale check's business (`agentcore.unfinished.stale_inputs`). A name goes in only when one
number was fetched and the expression uses one name, or when that one name is written once for each number fetched
("price - price" after the prices of a printer and a webcam: compose12's e08), in the order they were fetched:
"price_a + price_b" stays as written. Only a failed call written again after the numbers came in reads such
names one for each number (`names_for_results`): the model wrote its plan before it had them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.named import named_runs
from agentcore.unfinished import ARITHMETIC, BARE_NUMBER

_OPERATOR = re.compile(r"[-+*/]")
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*\()")
# Constants and the multiplication sign a calculator reads itself ("6 x 7").
_READ_BY_CALCULATORS = frozenset({"pi", "e", "x", "X"})
MIN_TEXT = 8  # a shorter input ("pen") may be a word of the expression's own


def with_results(value: Any, tool: str, earlier: Sequence[tuple[str, Any, str]]) -> Any:
    """`value` with each stand-in for an earlier result (of a tool other than `tool`) replaced by that result;
    the same object when it has none or is no arithmetic."""
    if not isinstance(value, str) or not _OPERATOR.search(value):
        return value
    numbers = [(name, arguments, result.strip()) for name, arguments, result in earlier if name != tool]
    numbers = [(name, arguments, result) for name, arguments, result in numbers if BARE_NUMBER.fullmatch(result)]
    fixed = value
    for name, arguments, result in numbers:
        fixed = re.sub(rf"\b{re.escape(name)}\s*\([^()]*\)", result, fixed)
        for text in _texts(arguments):
            # "4 coffee mugs" after lookup("coffee mugs") = 7.25 is four of them: `4 * 7.25` (compose25's af07)
            fixed = re.sub(rf"(?<![\w.])(\d+(?:\.\d+)?)\s+{re.escape(text)}", rf"\1 * {result}", fixed)
            fixed = fixed.replace(text, result)
        fixed = _joined_inputs(fixed, arguments, result)
    fixed = _undescribed(fixed, {result for _, _, result in numbers})
    written = {m.group() for m in re.finditer(r"\d+(?:\.\d+)?", fixed)}
    if not written & {result for _, _, result in numbers}:
        # a name beside a value already written is another thing: af07's "backpacks" after the mugs' 7.25
        fixed = _named(fixed, [result for _, _, result in numbers])
    return fixed if fixed != value else value


# A number and the words after it up to the next operator or bracket: "32.4 price in dollars".
_DESCRIBED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)((?:\s+[A-Za-z]+)+)(?=\s*(?:[-+*/)]|$))")


def _undescribed(expression: str, results: set[str]) -> str:
    """A result followed by words that describe it, as the result alone: "6 * 32.4 price in dollars" after the
    lookup gave 32.4 (independent8's ca07 copied the table's "price in dollars" into three calls)."""
    fixed = _DESCRIBED.sub(lambda m: m.group(1) if m.group(1) in results else m.group(0), expression)
    return fixed if ARITHMETIC.fullmatch(fixed) else expression  # "top 10 hiking trails - e-bike" is a text


def _named(expression: str, results: list[str]) -> str:
    """One name for the one number fetched, in each place; or one name written once for each of several numbers
    fetched ("price - price" after two prices), in the order they were fetched."""
    found = [name for name in _NAME.findall(expression) if name not in _READ_BY_CALCULATORS]
    values = list(dict.fromkeys(results))
    if len(set(found)) != 1 or not (len(values) == 1 or len(found) == len(values)):
        return expression
    name, left = found[0], iter(values * len(found) if len(values) == 1 else values)
    return _NAME.sub(lambda m: next(left) if m.group(1) == name else m.group(0), expression)


def names_for_results(expression: str, fetched: Sequence[tuple[Any, str]]) -> str | None:
    """The expression with each name written as a fetched (arguments, one-number result): a name that holds a
    word of one call's text inputs only takes that call's result ("priceInBackpack" after lookup("backpack")),
    and the names left take the results left, in the order they were fetched ("price - price_in_dollars" after
    a monitor's price, then a webcam's: compose20's aa09). None unless every name gets a value and every value a
    name. Read only for a failed call written again after those results came in (`agentcore.loop.written_in`):
    the model wrote its plan before it had the numbers."""
    # Runs of words, as agentcore.named reads them: "price in dollars" is one name (compose30's ak09); a word
    # alone ("Monitor") is a lookup's key, not arithmetic.
    names = list(dict.fromkeys(named_runs(expression)))
    if not names or len(names) != len(fetched):
        return None
    words = [_words(" ".join(_texts(arguments, spaced=False))) for arguments, _ in fetched]
    own = [w - set().union(*(other for j, other in enumerate(words) if j != i)) for i, w in enumerate(words)]
    given: dict[str, int] = {}
    for name in names:
        mine = [i for i, w in enumerate(own) if w & _words(name)]
        if len(mine) == 1 and mine[0] not in given.values():
            given[name] = mine[0]
    left = iter([i for i in range(len(fetched)) if i not in given.values()])
    for name in (name for name in names if name not in given):
        given[name] = next(left)  # as many names as results: one is left for each name not given yet
    values = [f"({result})" if result.startswith("-") else result for _, result in fetched]  # -3 ** 2 is -9
    runs = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<!\w)({runs})(?!\w)", lambda m: values[given[m.group(1)]], expression)


def _words(text: str) -> set[str]:
    """Lowercase words of a name or text, split at underscores, spaces and camelCase, a plural "s" dropped."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).replace("_", " ").lower()
    return {w.removesuffix("s") for w in re.findall(r"[a-z]{3,}", spaced)}


def _joined_inputs(expression: str, arguments: Any, result: str) -> str:
    """`expression` with the call's two inputs that are no plain number but hold digits (two dates), written
    in either order with one operator between them, replaced by the call's result."""
    values = arguments.values() if isinstance(arguments, dict) else ()
    inputs = [v.strip() for v in values if isinstance(v, str) and re.search(r"\d", v)]
    inputs = [v for v in inputs if not BARE_NUMBER.fullmatch(v)]
    if len(inputs) != 2:
        return expression
    a, b = (re.escape(v) for v in inputs)
    return re.sub(rf"(?<![\w.-])(?:{a}\s*[-+*/]\s*{b}|{b}\s*[-+*/]\s*{a})(?![\w.])", result, expression)


def _texts(arguments: Any, *, spaced: bool = True) -> list[str]:
    """An earlier call's string inputs that are text (letters; when `spaced`, MIN_TEXT characters or more with a
    space: a phrase the expression may copy), longest first."""
    values = arguments.values() if isinstance(arguments, dict) else ()
    texts = [v for v in values if isinstance(v, str) and re.search("[a-z]", v)]
    texts = [v for v in texts if not spaced or (len(v) >= MIN_TEXT and " " in v)]
    return sorted(texts, key=len, reverse=True)
