"""A count added to a value of another kind: "75 + 7.25" for the days from 2024-03-01 to 2024-05-15 and a mug's
price, for "I buy one coffee mug every day. How much will I have spent ...?" (independent10's cc24).

A tool documented as counting ("Count the days between two dates", "Count the words in a text") returns a number
of things; a value another tool fetched (a price) is of another kind, and a sum or difference of the two means
nothing. Across every task file of the suite (48 tasks, dev, fresh and held-out sets), the ten tasks that combine
a day or word count with a looked-up value multiply or divide them; none adds them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolSpec
from agentcore.unfinished import leaves, plain, values_in

_COUNTING = re.compile(r"^\s*count (?:the |how many )?(\w+)", re.IGNORECASE)  # "Count the days between ..."


def counted(spec: ToolSpec) -> str | None:
    """What `spec` counts ("days", "words"), read from the start of its docs, or None."""
    match = _COUNTING.match(spec.description or "")
    return match.group(1).lower() if match else None


def count_summed(
    arguments: Any, steps: Sequence[tuple[str, str]], counts: dict[str, str]
) -> tuple[str, str, str, str] | None:
    """(count, what it counts, other value, its tool) where an expression of `arguments` adds or subtracts a count,
    the result of a counting tool of `counts` (tool -> what it counts), and the result of a tool that counts
    nothing (two day counts add up). `steps` are the earlier calls as (tool, result)."""
    texts = [leaf for leaf in leaves(arguments) if isinstance(leaf, str)]
    for count_tool, count in steps:
        if count_tool not in counts or len(values_in(count)) != 1:
            continue
        for other_tool, other in steps:
            if other_tool == count_tool or other_tool in counts or len(values_in(other)) != 1:
                continue
            a, b = plain(next(iter(values_in(count)))), plain(next(iter(values_in(other))))
            if any(_added(text, a, b) or _added(text, b, a) for text in texts):
                return a, counts[count_tool], b, other_tool
    return None


def _added(expression: str, first: str, second: str) -> bool:
    """Whether `expression` writes `first` and `second` as adjacent terms of a sum or difference: "75 + 7.25",
    not "2 * 75 + 7.25" or "75 + 7.25 * 3"."""
    term = r"(?<![\w.*/^])(?<![*/^] ){}\s*[-+]\s*{}(?![\w.])(?!\s*[*/^])"
    return re.search(term.format(re.escape(first), re.escape(second)), expression) is not None
