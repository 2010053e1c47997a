"""Which row of a many-line tool result does the task name?

Measured on Qwen2.5-Coder-0.5B (the README's shop example): asked "How much does a gizmo cost? The prices are in
prices.txt." and shown the file's three lines (widget, gadget, gizmo), the model answered with the first line,
"widget: 4.25 dollars", after any small change to its prompt. An answer whose numbers come only from lines that
name none of the task's words, while exactly one line names one, took the wrong row; the loop sends it back once,
quoting the row the task names.
"""

from __future__ import annotations

from agentcore.grounding import content_words, mentions
from agentcore.unfinished import numbers_in

MIN_ROWS = 2


def wrong_row(task: str, answer: str, result: str) -> str | None:
    """The one line of `result` that names a content word of the task, when the answer's numbers come only from
    other lines; else None."""
    rows = [line.strip() for line in result.splitlines() if line.strip()]
    if len(rows) < MIN_ROWS:
        return None
    words = content_words(task)
    named = [row for row in rows if any(mentions(row, word) for word in words)]
    got = set(numbers_in(answer))
    used = [row for row in rows if got & set(numbers_in(row))]
    if len(named) != 1 or not used or named[0] in used:
        return None
    return named[0]
