"""Lists that copy their choices: only the items the conversation names are kept.

Asked for "a pet-friendly library with facilities for disabled people", a 0.5B model fills
`preferences: list[Pet-friendly|Disabled Access|24 hours|Cafe Inside]` with all four values, in the enum's order:
it copies the type it was shown rather than choosing from it. A free list does the same with its docs' examples
("Special dietary requirements, e.g. vegan, gluten-free" sent both for "a vegan menu"). The grammar can only hold
each item to the enum, and a free item to nothing. So an item of the enum, or of the docs' examples, is kept when
the conversation names it (as whole words, or one of its content words, a shared five-letter stem or a written
abbreviation such as "carbs"), and the others go; the model's own free items are not judged. A list none of whose
items is named is left as written when the argument is required (something must be sent), and left out when it
is optional (the tool's default applies: "Predict the house prices for the next month" sent every `features`
value).

Replayed on BFCL's dev ground truth (every list of two or more items a right answer holds): 59 of 59 free lists
and 12 of 14 enum lists come through unchanged ("vegan" for "vegetarian", and a default of every value, are lost).
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.grounding import FUNCTION_WORDS
from agentcore.unstated import STEM, tokens

ABBREVIATION = 4  # a written word this long that starts a value's word names it ("carb" for "carbohydrates")


def _as_word(item: str) -> re.Pattern[str]:
    """`item` as whole words ("S" is no size where "Saya" is written)."""
    return re.compile(rf"(?<![\w-]){re.escape(item.casefold())}(?![\w-])")


def _named(item: str, given: str, spoken: set[str]) -> bool:
    """Whether the conversation (`given`, its tokens `spoken`) names `item`."""
    words = {w for w in tokens(item) if w not in FUNCTION_WORDS}
    if _as_word(item).search(given.casefold()):
        return True
    return any(
        w in spoken
        or (len(w) >= STEM and any(s.startswith(w[:STEM]) for s in spoken))
        or any(len(s) >= ABBREVIATION and s not in FUNCTION_WORDS and w.startswith(s) for s in spoken)
        for w in words
    )


def _choices(schema: Any) -> list[str] | None:
    """The values a list argument's items are chosen from: its enum, or the examples its docs write
    ("Special dietary requirements, e.g. vegan, gluten-free" sent both for "a vegan menu"); None for no list."""
    if not isinstance(schema, dict) or schema.get("type") != "array" or not isinstance(schema.get("items"), dict):
        return None
    enum = schema["items"].get("enum")
    if isinstance(enum, list):
        return [str(v) for v in enum]
    return [str(schema.get("description", ""))]


def _copied(item: str, choices: list[str]) -> bool:
    """Whether an item comes from the choices: an enum value, or words of the docs' examples."""
    return item in choices or any(_as_word(item).search(choice.casefold()) for choice in choices)


def named_only(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> dict[str, Any]:
    """`arguments` with each list of enum strings (or of the docs' examples) cut to the items `given` (the
    conversation) names; an optional list that names none is left out. The same dict when nothing changes."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    spoken = tokens(given)
    fixed: dict[str, Any] = {}
    for name, value in arguments.items():
        choices = _choices(properties.get(name))
        if choices is None or not isinstance(value, list) or len(value) < 2:
            fixed[name] = value
            continue
        kept = [v for v in value if not isinstance(v, str) or not _copied(v, choices) or _named(v, given, spoken)]
        if kept:
            fixed[name] = kept
        elif name in required:
            fixed[name] = value
    return fixed if fixed != arguments else arguments
