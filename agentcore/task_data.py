"""The whole task copied into a text tool's argument, where the task marks off its data after a colon or an arrow.

"Word count please -> Bring two lanterns, a rope, and 3 sandwiches for the hike." was called as
`word_count(text=<the whole task>)` by Qwen2.5-Coder-0.5B and -1.5B alike (forty-ninth stop, trap1 dev pa07): 15
words where the data has 11. Where a tool that takes one text gets the whole task, and a marker (":", "->", "=>")
splits the task into a side that shares a word with the tool's docs ("word", "count") and a side that shares none,
the call runs on the second side alone: that is the text the request is about. A task that quotes its text is
the quote's (`agentcore.quotes`) and is left alone.

The model reads the task with its spelled quantities in digits (`agentcore.number_words`), and copies them: "mirror
this, last character first: seven blue Ducks!" was reversed as "7 blue Ducks!" (trap3 dev pc02, both models). A
text tool's argument that is a span of that task, written with digits where the user wrote words, goes in the
user's words: its data is the user's text, not a quantity.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.messages import ToolSpec
from agentcore.quotes import QUOTED
from agentcore.reworked_quotes import text_tools
from agentcore.tool_fit import stems, tool_docs

USER_TASK = "user_task"  # RunContext.metadata: the task in the user's words, where the model reads it with digits

_MARKER = re.compile(r"\s*(?::|->|=>)\s+")
_DIGIT = re.compile(r"\d")
_SPAN = re.compile(r"\S+")
_SHRINK = 4  # "twenty five thousand" is one token as digits: a span of the user's may have a few more words


def data_only(arguments: dict[str, Any], spec: ToolSpec, task: str) -> dict[str, Any]:
    """`arguments` with a text argument that copies the whole task cut to the task's data; the same dict when
    none does."""
    copies = [key for key, value in arguments.items() if isinstance(value, str) and _same(value, task)]
    if not copies or not text_tools([spec]) or QUOTED.search(task):
        return arguments
    data = _data_side(task, spec)
    return arguments if data is None else {**arguments, **dict.fromkeys(copies, data)}


def in_user_words(arguments: dict[str, Any], spec: ToolSpec, task: str, user_task: str) -> dict[str, Any]:
    """`arguments` with each text argument of a text tool that is a span of `task` (spelled quantities in digits)
    written as the span of `user_task` it came from; the same dict when none is."""
    if task == user_task or not text_tools([spec]):
        return arguments
    fixed = {
        key: _as_written(value, task, user_task) if isinstance(value, str) and _DIGIT.search(value) else value
        for key, value in arguments.items()
    }
    return fixed if fixed != arguments else arguments


def _as_written(value: str, task: str, user_task: str) -> str:
    """The span of `user_task` whose digits version is `value`, where `value` is a span of `task`; else `value`."""
    if value not in task or value in user_task:
        return value
    from agentcore.number_words import with_digits

    starts = [match.start() for match in _SPAN.finditer(user_task)]
    ends = [match.end() for match in _SPAN.finditer(user_task)]
    size = len(value.split())
    for i, start in enumerate(starts):
        for end in ends[i + max(size - 1, 0) : i + size + _SHRINK]:
            if with_digits(user_task[start:end]) == value:
                return user_task[start:end]
    return value


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
