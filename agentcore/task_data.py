"""The whole task copied into a text tool's argument, where the task marks off its data after a colon or an arrow.

"Word count please -> Bring two lanterns, a rope, and 3 sandwiches for the hike." was called as
`word_count(text=<the whole task>)` by Qwen2.5-Coder-0.5B and -1.5B alike (forty-ninth stop, trap1 dev pa07): 15
words where the data has 11. Where a tool that takes one text gets the whole task, and a marker (":", "->", "=>")
splits the task into a side that shares a word with the tool's docs ("word", "count") and a side that shares none,
the call runs on the second side alone: that is the text the request is about. A task that quotes its text is
the quote's (`agentcore.quotes`) and is left alone.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.messages import ToolSpec
from agentcore.quotes import QUOTED
from agentcore.reworked_quotes import text_tools
from agentcore.tool_fit import stems, tool_docs

_MARKER = re.compile(r"\s*(?::|->|=>)\s+")


def data_only(arguments: dict[str, Any], spec: ToolSpec, task: str) -> dict[str, Any]:
    """`arguments` with a text argument that copies the whole task cut to the task's data; the same dict when
    none does."""
    if not text_tools([spec]) or QUOTED.search(task):
        return arguments
    data = _data_side(task, spec)
    if data is None:
        return arguments
    fixed = {key: data if isinstance(value, str) and _same(value, task) else value for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _same(value: str, task: str) -> bool:
    return " ".join(value.split()).casefold() == " ".join(task.split()).casefold()


def _data_side(task: str, spec: ToolSpec) -> str | None:
    """The side of the task's one marker that shares no word with the tool's docs, when the other side does."""
    sides = _MARKER.split(task.strip())
    if len(sides) != 2 or not all(sides):
        return None
    docs = stems(tool_docs(spec))
    shares = [bool(stems(side) & docs) for side in sides]
    if shares == [True, False]:
        return sides[1]
    if shares == [False, True]:
        return sides[0]
    return None
