"""English arithmetic phrases whose written order is not the expression's order, spelled out as expressions.

Measured on Qwen2.5-Coder-0.5B (compose dev): "Subtract 250 from the number of days ..." was computed as
`250 - 366`: the model writes operands in the order it reads them. Two fixed idioms of English reverse that order,
"subtract A from B" and "A less than B"; the task message names each one found as the expression it means, with
the task's own operands (m11 became right). Hints for "half of it", "15% of that price" and "twice" were tried and
dropped: the model then computed only the hinted part and answered with it (m27 turned wrong, m25 stayed wrong).
"""

from __future__ import annotations

import re

# An operand: a number, "it"/"that", or a short noun phrase up to punctuation or a clause word.
_OPERAND = r"(?:\d+(?:[.,]\d+)*|it|that|this|them|(?:the|a|an|its|their|that|this)\s+[a-z0-9' -]+?)"
# Where an operand ends: punctuation, or a word that opens the next operation ("and" between dates does not).
_STOP = r"(?=\s*(?:[,;:?!]|\.(?!\d)|$)|\s+(?:and(?!\s+\d)|then|to|plus|minus|times|what|how|is|are|for|by|with)\b)"
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\bsubtract\s+(?P<a>{_OPERAND})\s+from\s+(?P<b>{_OPERAND}){_STOP}", re.I), "{b} - {a}"),
    (re.compile(rf"\b(?P<a>\d+(?:[.,]\d+)*)\s+less\s+than\s+(?P<b>{_OPERAND}){_STOP}", re.I), "{b} - {a}"),
)
MAX_WORDS = 8


def arithmetic_hints(task: str) -> list[str]:
    """'"phrase" means expression' for each order-changing arithmetic phrase of the task, in task order."""
    found: list[tuple[int, str]] = []
    for pattern, template in _RULES:
        for match in pattern.finditer(task):
            parts = {key: _short(value) for key, value in match.groupdict().items() if value}
            found.append((match.start(), f'"{match.group().strip()}" means {template.format(**parts)}'))
    return [hint for _, hint in sorted(found)]


def as_expression(text: str) -> str | None:
    """The expression a whole argument written as one such phrase means ("Subtract 30 from the price of a
    printer" -> "(the price of a printer) - 30"), operands as written; None when the text is no such phrase."""
    phrase = text.strip().rstrip(".?!").strip()
    for pattern, template in _RULES:
        match = pattern.match(phrase)  # the shortest operands, as in a task: the phrase must end where they do
        if match is not None and match.end() == len(phrase):
            parts = {key: _bracketed(value) for key, value in match.groupdict().items() if value}
            return template.format(**parts)
    return None


def _bracketed(operand: str) -> str:
    return f"({operand})" if len(operand.split()) > 1 else operand


def _short(phrase: str) -> str:
    words = phrase.split()
    text = " ".join(words[:MAX_WORDS]) + (" ..." if len(words) > MAX_WORDS else "")
    return f"({text})" if len(words) > 1 else text
