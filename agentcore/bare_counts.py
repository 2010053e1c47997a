"""A count of an item written alone into arithmetic that leaves out the item's fetched value (issue #12).

Asked "What do 6 pens and 3 coffee mugs cost in all?", after `lookup("pens") = 1.2` and `lookup("coffee mugs")
= 7.25`, Qwen2.5-Coder-0.5B wrote `6 + 3 * 7.25`: the mugs' count went with their price, the pens' count went in
bare and the pens' price nowhere (compose21's ab07, held out). The count of an item stands for that many of the
item, so a count standing alone in a sum, while a step fetched its item's value and the expression never uses it,
goes multiplied by that value: `6 * 1.2 + 3 * 7.25`.

Only a value of a step that did not take the count itself counts as the item's: `unit_convert(15 feet) = 4.572`
measures all 15 feet, it is not a value per foot; and a number before a unit of measure (pint's, as
`agentcore.unit_names` reads them: "add 5 kilometers") is a quantity, never a count of items, even when a
converter's "km" names its unit. A count the task writes twice, or an item whose steps returned
different values, is left as written: which one is meant is a guess.

Once a call has summed every count times its item's value, and every number of the task went into a call, that
result is the answer by the task's shape (`totals_every_item`): the same ab07 reached `6 * 1.2 + 3 * 7.25` =
28.95, looked the pens up again and ran `6 * 1.2 + 3 * 28.95` (twenty-eighth stop, a seen task).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.grounding import COUNTED, item_steps
from agentcore.unfinished import BARE_NUMBER, argument_values, leaves, unused_numbers, values_in
from agentcore.unit_names import is_unit


def item_values(task: str, earlier: Sequence[tuple[Any, str]]) -> dict[str, str]:
    """Each count the task writes once before an item ("6 pens"), with the one value the `earlier` steps
    (arguments, result) that name that item returned, when none of them took the count itself."""
    found: dict[str, str] = {}
    for count, words in _written_once(task):
        value = _value_of(count, words, earlier)
        # "5 kilometers" is a quantity, and a converter's "km" names no item (pint is read only here, if ever)
        if value is not None and not is_unit(words[0]):
            found[count] = value
    return found


def _written_once(task: str) -> Iterator[tuple[str, list[str]]]:
    """Each count the task writes once before a word, with the one or two words after it ("6", ["pens", "and"]);
    a count an item is handed out over comes again with that item ("a webcam in each of our 7 rooms": "7",
    ["webcam"]), so the item's value is the one that count goes with."""
    text = task.lower()
    for match in COUNTED.finditer(text):
        count, words = match.group(1), [w for w in match.group(2, 3) if w]
        if len(re.findall(rf"(?<![\w.]){re.escape(count)}(?![\w.])", text)) == 1:
            yield count, words
            yield from ((count, item) for item in _handed_out(text, count))


# "a webcam in each of our 7 meeting rooms", "one lamp for every one of the 4 desks", "each of the 7 rooms needs a
# webcam": one item per counted thing, so the count counts the item too (independent10's cc17 ran `64 + 7`).
_OWNER = r"(?:our|the|my|your|their|these|those|its|his|her)\s+"
_EACH_GETS = r"(?:in|for|to|on|at|per)\s+(?:each|every)(?:\s+one)?\s+of\s+"
_GETS = r"\s+(?:gets?|needs?|has|have|requires?|takes?)\s+(?:an?|one)\s+"


def _handed_out(text: str, count: str) -> list[list[str]]:
    """The item the task hands out one of to each of `count` things, as its words; [] for none."""
    number = re.escape(count)
    item = r"([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)"
    before = re.search(rf"\b(?:an?|one)\s+{item}\s+{_EACH_GETS}(?:{_OWNER})?{number}(?![\w.])", text)
    after = re.search(
        rf"\b(?:each|every)(?:\s+one)?\s+of\s+(?:{_OWNER})?{number}\s+[a-z]+(?:\s+[a-z]+)?{_GETS}{item}", text
    )
    return [m.group(1).split() for m in (before, after) if m is not None]


def _value_of(count: str, words: list[str], earlier: Sequence[tuple[Any, str]]) -> str | None:
    """The one bare-number result of the steps naming the item after `count`, none of which took the count."""
    naming = item_steps(words, earlier)
    if not naming or any(float(count) in argument_values(a) for a, _ in naming):
        return None
    value = naming[0][1]
    return value if BARE_NUMBER.fullmatch(value) else None


def unpaired(task: str, steps: Sequence[tuple[Any, str]]) -> list[str]:
    """The counts of `item_values` that no step took together with their item's value: "2 + 4" for "2 desks
    and 4 chairs" used both counts, but as no desks and no chairs."""
    values = item_values(task, steps)
    return [count for count, value in values.items() if not any(_both(a, count, value) for a, _ in steps)]


def _both(arguments: Any, count: str, value: str) -> bool:
    held = argument_values(arguments)
    return float(count) in held and float(value) in held


def with_item_values(expression: Any, task: str, earlier: Sequence[tuple[Any, str]]) -> Any:
    """`expression` with each count that stands alone in its top-level sum, while its item's value appears
    nowhere in it, written as that count times the value; the same object when nothing changes."""
    if not earlier or not isinstance(expression, str) or not re.search(r"[-+]", expression):
        return expression  # most calls: nothing fetched yet, or no sum (a date's dashes still read on)
    fixed = expression
    for count, value in item_values(task, earlier).items():
        if float(value) not in values_in(fixed):
            fixed = _times(fixed, count, value)
        elif counted_item(task, count):  # a count of an item ("1 backpack"), not "add 10 to the result"
            fixed = _added_to_own(fixed, count, value)
    return fixed if fixed != expression else expression


def _added_to_own(expression: str, count: str, value: str) -> str:
    """`count + value` (either way round), a term of the top-level sum, as `count * value`: a count added to its own
    item's value is no amount ("5 + 1 + 49.5" for 5 notebooks and 1 backpack: compose31's al07, held out)."""
    for first, second in ((count, value), (value, count)):
        pair = rf"(?<![\w.]){re.escape(first)}\s*\+\s*{re.escape(second)}(?![\w.])"
        places = list(re.finditer(pair, expression))
        if len(places) != 1 or any(_written(expression, n) != 1 for n in (count, value)):
            continue
        start, end = places[0].span()
        before, after = expression[:start].rstrip(), expression[end:].lstrip()
        bracketed = before.count("(") != before.count(")")
        if not bracketed and (not before or before[-1] == "+") and (not after or after[0] in "+-"):
            return f"{expression[:start]}{count} * {value}{expression[end:]}"
    return expression


def _written(expression: str, number: str) -> int:
    return len(re.findall(rf"(?<![\w.]){re.escape(number)}(?![\w.])", expression))


def with_own_values(expression: Any, task: str, earlier: Sequence[tuple[Any, str]]) -> Any:
    """`expression` with the items' values put back with their own counts, where every count the task writes
    (two or more) is multiplied by another counted item's value: `3 * 64 + 2 * 45.9` for "3 keyboards and 2
    webcams" runs as `3 * 45.9 + 2 * 64` (compose23's ad07, after the counts-multiplied notice); and a count
    multiplied by another item's value while its own appears nowhere: `3 * 85 + 2 * 85` for "3 monitors and 2
    chairs" runs as `3 * 215 + 2 * 85` (compose26's ag07). The same object when nothing changes."""
    if not earlier or not isinstance(expression, str) or "*" not in expression:
        return expression
    values = item_values(task, earlier)
    if len(values) < 2 or len(set(values.values())) != len(values):
        return expression
    swapped = expression
    for count, own in values.items():
        pattern = _with_other_value(count, values)
        if len(re.findall(pattern, swapped)) != 1:
            swapped = expression  # every count swapped, each once, or it is not a swap
            break
        swapped = re.sub(pattern, f"{count} * {own}", swapped)
    if swapped != expression:
        return swapped
    fixed = expression
    for count, own in values.items():
        pattern = _with_other_value(count, values)
        if float(own) not in values_in(expression) and len(re.findall(pattern, fixed)) == 1:
            fixed = re.sub(pattern, f"{count} * {own}", fixed)
    return fixed if fixed != expression else expression


def with_missing_count(expression: Any, task: str, earlier: Sequence[tuple[Any, str]]) -> Any:
    """`expression` with the one counted item's value taken that many times, where it uses the value but not the
    count and every other number of the task is in it or an earlier call: `32.4 * 1.20 - 10` for "I want 4 desk
    lamps. Add 20% tax on top and take off a $10 coupon" runs as `(4 * 32.4) * 1.20 - 10` (independent1's ar24).
    The same object otherwise."""
    if not isinstance(expression, str):
        return expression
    values = item_values(task, earlier)
    if len(values) != 1:
        return expression
    count, value = next(iter(values.items()))
    numbers = argument_values(expression)
    if float(count) in numbers or float(value) not in numbers or _written(expression, value) != 1:
        return expression
    calls = [arguments for arguments, _ in earlier] + [{"expression": expression}]
    if unused_numbers(task, calls) != [count] or len(argument_values(expression) - {float(value)}) < 1:
        return expression
    if _named_again(task, count):  # "I am buying 4 desk lamps. What does one lamp cost ...?": one is asked
        return expression
    return re.sub(rf"(?<![\w.]){re.escape(value)}(?![\w.])", f"({count} * {value})", expression, count=1)


def _named_again(task: str, count: str) -> bool:
    """Whether the task names the counted item again elsewhere ("4 desk lamps ... one lamp")."""
    item = counted_item(task, count)
    head = item.split()[-1].lower().rstrip("s") if item else ""
    mentions = re.findall(rf"\b{re.escape(head)}(?:s|es)?\b", task.lower()) if len(head) > 2 else []
    return len(mentions) > 1


def _with_other_value(count: str, values: dict[str, str]) -> str:
    """A pattern for `count` times the value of another counted item, either way round."""
    others = "|".join(re.escape(v) for c, v in values.items() if c != count)
    number = re.escape(count)
    return rf"(?<![\w.]){number}\s*\*\s*(?:{others})(?![\w.])|(?<![\w.])(?:{others})\s*\*\s*{number}(?![\w.])"


def _times(expression: str, count: str, value: str) -> str:
    """`count` as `count * value` where it is written once, outside brackets, between sum signs or the ends."""
    places = list(re.finditer(rf"(?<![\w.]){re.escape(count)}(?![\w.])", expression))
    if len(places) != 1:
        return expression
    start, end = places[0].span()
    before, after = expression[:start].rstrip(), expression[end:].lstrip()
    bracketed = before.count("(") != before.count(")")
    if bracketed or (before and before[-1] not in "+-") or (after and after[0] not in "+-"):
        return expression
    return f"{expression[:start]}{count} * {value}{expression[end:]}"


def totals_every_item(task: str, earlier: Sequence[tuple[Any, str]], arguments: Any) -> bool:
    """The call multiplies every count the task writes (two or more) by its item's fetched value (`item_values`)
    in one expression, and no number of the task is left out of the calls: "6 * 1.2 + 3 * 7.25" for "What do 6
    pens and 3 coffee mugs cost in all?"."""
    values = item_values(task, earlier)
    counts = {match.group(1) for match in COUNTED.finditer(task.lower())}
    if len(values) < 2 or set(values) != counts:
        return False
    products = {pair for leaf in leaves(arguments) if isinstance(leaf, str) for pair in _products(leaf)}
    wanted = {frozenset({_rounded(count), _rounded(value)}) for count, value in values.items()}
    return wanted <= products and not unused_numbers(task, [*(a for a, _ in earlier), arguments])


def _products(expression: str) -> Iterator[frozenset[float]]:
    """Each product of two written numbers in `expression` (`6 * 1.2`), as the set of the two."""
    try:
        tree = ast.parse(expression, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            sides = [side.value for side in (node.left, node.right) if isinstance(side, ast.Constant)]
            if len(sides) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in sides):
                yield frozenset(_rounded(str(v)) for v in sides)


def _rounded(number: str) -> float:
    return round(abs(float(number)), 12)


def counts_multiplied(task: str, arguments: Any, earlier: Sequence[tuple[Any, str]]) -> tuple[str, str] | None:
    """Two counts of different items ("3 keyboards and 2 webcams") that an expression of the call multiplies
    together as a term of a sum (`3 * 2 + 45.9`: compose23's ad07), where a step fetched the value of one of the
    items, as written in the task; None otherwise. A product that goes on to a value is a count of a count ("6 * 4
    * 1.2" for 4 packs of 6 pens), and counts the task writes twice, or quantities of a unit, are left alone."""
    values = item_values(task, earlier)  # first: most calls fetched no item, and pint is read only after one
    items = _counted(task) if values else {}
    if len(items) < 2:
        return None
    for text in (leaf for leaf in leaves(arguments) if isinstance(leaf, str)):
        for first, second in ((a, b) for a in items for b in items if items[a] != items[b]):
            if not {first, second} & set(values):
                continue
            product = rf"(?<![\w.*/]){re.escape(first)}\s*\*\s*{re.escape(second)}(?![\w.])(?!\s*[*/])"
            if re.search(rf"{product}\s*[-+]|[-+]\s*{product}", text):
                order = sorted((first, second), key=list(items).index)  # the task's order
                return order[0], order[1]
    return None


def _counted(task: str) -> dict[str, str]:
    """Each count the task writes once before an item that is no unit, with the item's words."""
    return {
        count: " ".join(w for w in words if w not in FUNCTION_WORDS)
        for count, words in _written_once(task)
        if not is_unit(words[0])
    }


def counted_item(task: str, count: str) -> str:
    """The words the task writes after `count` ("keyboards" for 3), "" for none."""
    return _counted(task).get(count, "")


# "Each of my 5 kids wants a backpack and a coffee mug": one of everything fetched goes to each of the 5.
_EACH_OF = r"\b(?:each|every)(?:\s+one)?\s+of\s+(?:" + _OWNER + r")?{count}\s+[a-z]"
_PLAIN_SUM = re.compile(rf"^\s*{BARE_NUMBER.pattern}(?:\s*\+\s*{BARE_NUMBER.pattern})+\s*$")


def with_each_count(expression: Any, task: str, earlier: Sequence[tuple[Any, str]]) -> Any:
    """A plain sum of fetched values and the task's count of "each of my 5 kids", the count a term of its own, as
    the values' sum times the count: `49.5 + 7.25 + 5` runs as `(49.5 + 7.25) * 5` (independent12's cd19). The same
    object where any other term is no result of an earlier step, or the count is written more than once."""
    if not isinstance(expression, str) or _PLAIN_SUM.match(expression) is None:
        return expression
    terms = [term.strip() for term in expression.split("+")]
    returned = {
        round(v, 9) for _, result in earlier if BARE_NUMBER.fullmatch(result.strip()) for v in values_in(result)
    }
    counts = [
        term
        for term in terms
        if re.search(_EACH_OF.format(count=re.escape(term)), task, re.IGNORECASE)
        and len(re.findall(rf"(?<![\w.]){re.escape(term)}(?![\w.])", task)) == 1
    ]
    if len(counts) != 1 or terms.count(counts[0]) != 1:
        return expression
    rest = [term for term in terms if term != counts[0]]
    if not all(round(float(term), 9) in returned for term in rest):
        return expression
    summed = f"({' + '.join(rest)})" if len(rest) > 1 else rest[0]
    return f"{summed} * {counts[0]}"
