"""English arithmetic phrases whose written order is not the expression's order, spelled out as expressions.

Measured on Qwen2.5-Coder-0.5B (compose dev): "Subtract 250 from the number of days ..." was computed as
`250 - 366` and "that price plus half of it" as `85 + 0.5`: the model writes operands in the order it reads them
and takes "half" for 0.5 added. These are fixed idioms of English, not one benchmark's wording: "subtract A from
B", "A less than B", "half / a third / a quarter of A", "N% of A", "twice A". The task message names each one found
as the expression it means, with the task's own operands.
"""

from __future__ import annotations

import re

# An operand: a number, "it"/"that", or a short noun phrase up to punctuation or a clause word.
_OPERAND = r"(?:\d+(?:[.,]\d+)*|it|that|this|them|(?:the|a|an|its|their|that|this)\s+[a-z0-9' -]+?)"
# Where an operand ends: punctuation, or a word that opens the next operation ("and" between dates does not).
_STOP = r"(?=\s*(?:[,;:?!]|\.(?!\d)|$)|\s+(?:and(?!\s+\d)|then|to|plus|minus|times|what|how|is|are|for|by|with)\b)"
_FRACTIONS = {"half": "2", "a half": "2", "a third": "3", "one third": "3", "a quarter": "4", "one quarter": "4"}
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\bsubtract\s+(?P<a>{_OPERAND})\s+from\s+(?P<b>{_OPERAND}){_STOP}", re.I), "{b} - {a}"),
    (re.compile(rf"\b(?P<a>\d+(?:[.,]\d+)*)\s+less\s+than\s+(?P<b>{_OPERAND}){_STOP}", re.I), "{b} - {a}"),
    (
        re.compile(rf"\b(?P<f>half|a half|a third|one third|a quarter|one quarter)\s+of\s+(?P<a>{_OPERAND}){_STOP}", re.I),
        "{a} / {n}",
    ),
    (re.compile(rf"\b(?P<p>\d+(?:\.\d+)?)\s*%\s+of\s+(?P<a>{_OPERAND}){_STOP}", re.I), "{a} * {p} / 100"),
    (re.compile(rf"\btwice\s+(?P<a>{_OPERAND}){_STOP}", re.I), "2 * {a}"),
)
MAX_WORDS = 8


def arithmetic_hints(task: str) -> list[str]:
    """'"phrase" means expression' for each order-changing arithmetic phrase of the task, in task order."""
    found: list[tuple[int, str]] = []
    for pattern, template in _RULES:
        for match in pattern.finditer(task):
            parts = {key: _short(value) for key, value in match.groupdict().items() if value}
            if match.groupdict().get("f"):
                parts["n"] = _FRACTIONS[" ".join(match.group("f").lower().split())]
            found.append((match.start(), f'"{match.group().strip()}" means {template.format(**parts)}'))
    return [hint for _, hint in sorted(found)]


def _short(phrase: str) -> str:
    words = phrase.split()
    text = " ".join(words[:MAX_WORDS]) + (" ..." if len(words) > MAX_WORDS else "")
    return f"({text})" if len(words) > 1 else text
