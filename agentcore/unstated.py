"""Optional arguments that no one asked for: left out, so the tool's own default applies.

A 0.5B model fills every optional argument it sees: `period="Monthly"` for "which paint colour is most popular",
`detailed=true` for "the market performance over the past 5 days", `growth_rate=0.05` for "the projected
population growth", `units="meters"` for "a circle with radius 3". The tool documents a default for each, and the
user said nothing that picks another value, so the value is the model's guess. An optional value counts as asked
for when the conversation (instructions, task, tool results) writes it: a number among its given numbers, a string
one of whose content words it uses (a plural or a shared five-letter stem allowed: "completed" for "complete"), a
boolean whose argument's name it uses ("full name" for `fullName`). A value equal to the documented default is
kept (it changes nothing), and lists and objects are never judged.

The prompt already says to leave such arguments out (`signatures.py`: "?" marks an optional argument); this is
the same rule applied to the call once written, as the tool would apply it.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.grounding import FUNCTION_WORDS, stated_numbers

_TOKEN = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
ENUM_STEM = 3  # an enum value is one of a few: a shorter shared prefix names it
CODE = 3  # an enum value whose words are all this short is a code
STEM = 5  # a shared prefix this long makes two words one ("detailed", "details")
# A flag's name says what it switches, not these verbs: `include_completed` is not asked for by "including".
_FLAG_VERBS = frozenset({"include", "is", "has", "show", "get", "use", "enable", "return", "allow", "with"})


def _tokens(text: str) -> set[str]:
    return {t[:-1] if len(t) > 3 and t.endswith("s") else t for t in _TOKEN.findall(_CAMEL.sub(" ", text).lower())}


def _content(text: str) -> set[str]:
    return {t for t in _tokens(text) if t not in FUNCTION_WORDS}


def _said(words: set[str], spoken: set[str], stem: int = STEM) -> bool:
    return any(w in spoken or (len(w) >= stem and any(s.startswith(w[:stem]) for s in spoken)) for w in words)


def _asked_text(value: str, enum: bool, given: str, spoken: set[str]) -> bool:
    """Whether the conversation asks for a string value. An enum value needs only a shared three-letter stem
    ("Comic" for "Comedy"), and one written as a code ("es-ES", "mp3") is never judged: a task names a
    language or format in words that a code does not share."""
    words = _content(value)
    if not words or value.casefold() in given.casefold():
        return True
    if enum:
        return all(len(w) <= CODE for w in words) or _said(words, spoken, ENUM_STEM)
    return _said(words, spoken)


def unstated(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> list[str]:
    """The optional arguments of `arguments` whose values `given` (the conversation) does not ask for."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    spoken = _tokens(given)
    numbers: set[float] | None = None
    found = []
    for name, value in arguments.items():
        schema = properties.get(name)
        if name in required or not isinstance(schema, dict) or value == schema.get("default"):
            continue
        if isinstance(value, bool):
            asked = _said(_content(name.replace("_", " ")) - _FLAG_VERBS, spoken)
        elif isinstance(value, int | float):
            numbers = stated_numbers(given) if numbers is None else numbers
            asked = round(abs(value), 12) in numbers
        elif isinstance(value, str):
            asked = _asked_text(value, "enum" in schema, given, spoken)
        else:
            continue
        if not asked:
            found.append(name)
    return found
