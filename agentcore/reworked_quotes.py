"""A first answer that does the task's text work in the head, while a tool that takes one text is offered.

Qwen2.5-Coder-1.5B answers text work it believes it can do without a call, and gets it wrong: asked to write
"paper moon" "starting from its last letter" it answered "moon paper", and to flip "Stravinsky" "so it reads back
to front", "snavniks", with `reverse_string` offered (forty-ninth stop, trap1 dev). Neither task shares a word
with the tool's docs, so the word-based fits of `agentcore.tool_fit` do not see them. The answer itself does. The
task's data is a text it quotes or the text after a colon or arrow that ends it ("how many wrds in: contact
admin@site.org or call reception, thanks"), and an answer without a tool's result does that data's work when it is
- a new string made only of the data's letters, about as long ("snavniks");
- the data itself, unchanged ("never odd or even." to be read from the end: both models took it for a
  palindrome; trap4 dev);
- a number the task does not write ("213" for "three then twelve" backwards, 2 and 5 for the words of the
  admin@site.org line).
A tool that takes one text is then required (`text_tools`); the model picks which.

Over the 432 saved BFCL answers of agentcore that made no call (dev and test, every category) this fires on one,
a call-category entry that was wrong without a call ("connect_to_server('pg1', timeout=30, ...)" written out as
the answer). A task quoting more than two texts (a schema, code) or whose closing text is a short message ("API:
No match.") has no data here, and a reply of more than six words with a number says something else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolSpec
from agentcore.quotes import QUOTED, quoted
from agentcore.unfinished import numbers_in

_LETTERS = re.compile(r"[^a-z0-9]")
_LEAST = 3  # "ab" rearranged is too little to tell work from chance
_SPREAD = 0.4  # the answer's length within 40% of the data's: "snavniks" (8) for "stravinsky" (10)
_TAIL = re.compile(r"(?::|->|=>)\s+([^:]+?)\s*$", re.DOTALL)  # the data after the task's last marker
_MOST_SPANS = 2  # a task with more quotes is a document (a schema, code), not a text to work on
_LEAST_TAIL = 3  # "API: No match." is a message, not data
_MOST_WORDS = 6  # "There are 9 words." is a count; a longer reply with numbers says something else


def _plain(text: str) -> str:
    return _LETTERS.sub("", text.lower())


def data_spans(task: str) -> list[str]:
    """The texts the task gives to work on: its quoted spans, else the text after a colon or arrow that ends it."""
    spans = quoted(task)
    if spans:
        return spans if len(spans) <= _MOST_SPANS else []
    tail = _TAIL.search(task)
    return [tail.group(1)] if tail and len(tail.group(1).split()) >= _LEAST_TAIL else []


def reworks_quote(task: str, answer: str) -> bool:
    """Whether `answer` (or the text it quotes) is a string the task does not contain, made only of the letters
    of a text the task gives and about as long: "moon paper" for "paper moon", "snavniks" for "Stravinsky"."""
    cores = [_plain(text) for text in [*quoted(answer), QUOTED.sub(" ", answer) if not quoted(answer) else ""]]
    said = _plain(task)
    for core in (core for core in cores if len(core) >= _LEAST and core not in said):
        for span in (_plain(text) for text in data_spans(task)):
            if set(core) <= set(span) and abs(len(core) - len(span)) <= _SPREAD * len(span):
                return True
    return False


def does_text_work(task: str, answer: str) -> bool:
    """Whether `answer`, given without a tool's result, does the work on the task's data in the head: reworks it,
    repeats it unchanged, or gives a number the task does not write."""
    spans = data_spans(task)
    if not spans:
        return False
    if any(_plain(answer) == _plain(span) for span in spans) and len(_plain(answer)) >= _LEAST:
        return True
    given = set(numbers_in(task))
    if len(answer.split()) <= _MOST_WORDS and any(number not in given for number in numbers_in(answer)):
        return True
    return reworks_quote(task, answer)


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
    """With no result to answer from, the text tools offered when the answer does the data's work; else none."""
    return text_tools(specs) if does_text_work(task, answer) else []
