"""An answer that rearranges the letters of a text the task quotes was worked out in the head.

Qwen2.5-Coder-1.5B answers text work it believes it can do without a call, and gets it wrong: asked to write
"paper moon" "starting from its last letter" it answered "moon paper", and to flip "Stravinsky" "so it reads back
to front", "snavniks", with `reverse_string` offered (forty-ninth stop, trap1 dev). Neither task shares a word
with the tool's docs, so the word-based fits of `agentcore.tool_fit` do not see them. The answer itself does: a
new string made only of the quoted text's letters, about as long, is that text transformed. A tool that takes one
text is then required (`text_tools`); the model picks which.

Over the 432 saved BFCL answers of agentcore that made no call (dev and test, every category) this fires on none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolSpec
from agentcore.quotes import QUOTED, quoted

_LETTERS = re.compile(r"[^a-z0-9]")
_LEAST = 3  # "ab" rearranged is too little to tell work from chance
_SPREAD = 0.4  # the answer's length within 40% of the quote's: "snavniks" (8) for "stravinsky" (10)


def _plain(text: str) -> str:
    return _LETTERS.sub("", text.lower())


def reworks_quote(task: str, answer: str) -> bool:
    """Whether `answer` (or the text it quotes) is a string the task does not contain, made only of the letters
    of a text the task quotes and about as long: "moon paper" for "paper moon", "snavniks" for "Stravinsky"."""
    cores = [_plain(text) for text in [*quoted(answer), QUOTED.sub(" ", answer) if not quoted(answer) else ""]]
    said = _plain(task)
    for core in (core for core in cores if len(core) >= _LEAST and core not in said):
        for span in (_plain(text) for text in quoted(task)):
            if set(core) <= set(span) and abs(len(core) - len(span)) <= _SPREAD * len(span):
                return True
    return False


def text_tools(specs: Sequence[ToolSpec]) -> list[str]:
    """The tools that take one text: a single required parameter, a string with no fixed choices or format."""
    return [spec.name for spec in specs if _one_text(spec.parameters)]


def _one_text(parameters: dict[str, Any]) -> bool:
    properties: dict[str, Any] = parameters.get("properties") or {}
    required = parameters.get("required") or list(properties)
    if len(required) != 1 or not isinstance(schema := properties.get(required[0]), dict):
        return False
    return schema.get("type") == "string" and "enum" not in schema and "format" not in schema


def tools_for_reworked_quote(task: str, answer: str, specs: Sequence[ToolSpec]) -> list[str]:
    """With no call tried, the text tools offered when the answer reworks the task's quoted text; else none."""
    return text_tools(specs) if reworks_quote(task, answer) else []
