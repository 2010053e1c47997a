"""List items no one named: only the items the conversation names are kept.

Asked for "a pet-friendly library with facilities for disabled people", a 0.5B model fills
`preferences: list[Pet-friendly|Disabled Access|24 hours|Cafe Inside]` with all four values, in the enum's order:
it copies the type it was shown rather than choosing from it. A free list does the same with its docs' examples
("Special dietary requirements, e.g. vegan, gluten-free" sent both for "a vegan menu"), or with items of its own:
`sizes=["M", "XL"]` for "still in size M?", `sizes=["all", "XL"]` for "a red skirt, product SK123". The grammar can
only hold each item to the enum, and a free item to nothing. So an item is kept when the conversation names it (as
whole words, or one of its content words, a shared five-letter stem, a written abbreviation such as "carbs", or
the initials of written words: "SSN"), and the others go. An item with a digit is not judged: a date or a code
the model may have worked out. A list none of whose items is named is left as written when the argument is
required (something must be sent), and left out when it is optional (the tool's default applies: "Predict the
house prices for the next month" sent every `features` value).

Replayed on BFCL's dev ground truth (every list of string items a right answer holds): 51 of 51 free lists and 20
of 22 enum lists come through unchanged ("vegan" for "vegetarian", and a default of every value, are lost).
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.unstated import STEM, tokens

ABBREVIATION = 4  # a written word this long that starts a value's word names it ("carb" for "carbohydrates")
INITIALS = 2  # an item this long or longer (to six letters) may be the initials of written words ("SSN")
_WORDS = re.compile(r"[^\W\d_]+")


def _as_word(item: str) -> re.Pattern[str]:
    """`item` as whole words ("S" is no size where "Saya" is written)."""
    return re.compile(rf"(?<![\w-]){re.escape(item.casefold())}(?![\w-])")


def named(item: str, given: str, spoken: set[str]) -> bool:
    """Whether the conversation (`given`, its tokens `spoken`) names `item`."""
    words = {w for w in tokens(item) if w not in FUNCTION_WORDS}
    if _as_word(item).search(given.casefold()) or _initials(item, given):
        return True
    return any(
        w in spoken
        or (len(w) >= STEM and any(s.startswith(w[:STEM]) for s in spoken))
        or any(len(s) >= ABBREVIATION and s not in FUNCTION_WORDS and w.startswith(s) for s in spoken)
        for w in words
    )


def _initials(item: str, given: str) -> bool:
    """`item` is the initials of words written in a row ("SSN": "social security number")."""
    letters = item.casefold()
    if not (INITIALS <= len(letters) <= 6) or not letters.isalpha():
        return False
    written = _WORDS.findall(given.casefold())
    heads = "".join(w[0] for w in written)
    n = len(letters)
    return any(heads[i : i + n] == letters for i in range(len(heads) - n + 1))


def _choices(schema: Any) -> list[str] | None:
    """A list argument's enum ([] for free items); None for no list."""
    if not isinstance(schema, dict) or schema.get("type") != "array" or not isinstance(schema.get("items"), dict):
        return None
    enum = schema["items"].get("enum", schema.get("enum"))  # an enum on the array means its items' (turns._bound)
    return [str(v) for v in enum] if isinstance(enum, list) else []


def _judged(item: Any, enum: list[str]) -> bool:
    """Whether an item must be named: an enum value, or a free item without a digit (a date or code is the
    model's to work out)."""
    if not isinstance(item, str):
        return False
    return item in enum if enum else not any(c.isdigit() for c in item)


def named_only(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> dict[str, Any]:
    """`arguments` with each list of strings cut to the items `given` (the conversation) names; an optional list
    that names none is left out. The same dict when nothing changes."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    spoken = tokens(given)
    fixed: dict[str, Any] = {}
    for name, value in arguments.items():
        enum = _choices(properties.get(name))
        if enum is None or not isinstance(value, list) or not value:
            fixed[name] = value
            continue
        kept = [v for v in value if not _judged(v, enum) or named(v, given, spoken)]
        if kept:
            fixed[name] = kept
        elif name in required:
            fixed[name] = value
    return fixed if fixed != arguments else arguments
