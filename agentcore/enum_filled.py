"""An optional choice the model left out, where the user writes its value: the written value is sent.

Asked for "a seafood restaurant in Seattle that can accommodate a group of 5", the 0.5B model called
`restaurant.find_group(location="Seattle, WA", group_size=5)` and left out `cuisine: list[Seafood|Italian|...]`,
optional with no default: the search would run for every cuisine (BFCL multiple_90). The grammar lets an optional
argument go; it cannot know the user chose a value. So an optional string enum (or a list of one) that the call
leaves out is filled when the user's own messages write its value word for word (a plural is the same word):
a list with every such value, a single choice only when exactly one value is written. A value written only
after a negation ("not too pricey") or only inside a longer value ("violin" in "violin lessons") is not written.

Judged strictly, unlike `enum_lists`' reading of what a written list may keep: a value must appear whole. Left
alone are values with a digit ("1" for `star_rating` is as often a count of rooms), values made of function words
only ("all", "any": "a list of all the servers" asks for no `type="all"`), and the documented default (it changes
nothing). Only the user's messages count: a tool result that writes "active" asks for no status filter.

Replayed on BFCL's dev ground truth (`python -m bench.bfcl_filled --split dev`), for every optional enum the rule
would fill were it left out: right 102 (leaving it out is wrong), wrong 1 (leaving it out is right), either 6,
neither 2. The model mostly writes such a value itself: on 108 dev entries where the rule could fire it filled 3
calls, 1 gained (BFCL multiple_90), none lost.
"""

from __future__ import annotations

from typing import Any

from agentcore.function_words import FUNCTION_WORDS
from agentcore.unstated import words

NEGATIONS = frozenset({"not", "no", "without", "exclude", "excluding", "except", "non"})
NEGATION_REACH = 4  # words before a value that a negation reaches: "exclude any that are completed"


def spans(value: str, said: list[str]) -> list[tuple[int, int]]:
    """Where the words `said` hold `value`'s words in a row, not just after a negation ("not too pricey")."""
    wanted = words(value)
    n = len(wanted)
    found = [(i, i + n) for i in range(len(said) - n + 1) if n and said[i : i + n] == wanted]
    return [(i, j) for i, j in found if not NEGATIONS & set(said[max(0, i - NEGATION_REACH) : i])]


def _inside(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    """Whether `span` is part of a longer one ("violin" in "violin lessons", another argument's value)."""
    return any(i <= span[0] and span[1] <= j and j - i > span[1] - span[0] for i, j in others)


def _judged(value: Any, default: Any) -> bool:
    return (
        isinstance(value, str)
        and value != default
        and not any(c.isdigit() for c in value)
        and not set(words(value)) <= FUNCTION_WORDS
    )


def enum_of(schema: Any) -> tuple[list[Any], bool] | None:
    """(the enum, whether the argument is a list of it) for an enum or a list of one; None otherwise."""
    if not isinstance(schema, dict):
        return None
    branches = [b for b in schema.get("anyOf") or [] if isinstance(b, dict) and b.get("type") != "null"]
    if len(branches) == 1:  # `Literal[...] | None`, a Python tool's optional choice
        schema = branches[0]
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict) and isinstance(items.get("enum"), list):
        return items["enum"], True
    enum = schema.get("enum")
    return (enum, False) if isinstance(enum, list) else None


def fillable(arguments: dict[str, Any], parameters: dict[str, Any]) -> bool:
    """Whether the call leaves out an optional enum argument (the cheap test before the user's text is read)."""
    required = set(parameters.get("required") or [])
    properties = parameters.get("properties") or {}
    return any(k not in arguments and k not in required and enum_of(s) for k, s in properties.items())


def filled(arguments: dict[str, Any], parameters: dict[str, Any], user: str) -> dict[str, Any]:
    """`arguments` with each left-out optional enum that `user` writes the value of; the same dict if none."""
    required = set(parameters.get("required") or [])
    properties = parameters.get("properties") or {}
    said = words(user)
    every = [span for s in properties.values() for v in (enum_of(s) or ([], False))[0] if isinstance(v, str)
             for span in spans(v, said)]  # fmt: skip
    added: dict[str, Any] = {}
    for key, schema in properties.items():
        found = enum_of(schema) if key not in arguments and key not in required else None
        if found is None:
            continue
        enum, is_list = found
        named = [
            v for v in enum if _judged(v, schema.get("default")) and any(not _inside(s, every) for s in spans(v, said))
        ]
        if named and (is_list or len(named) == 1):
            added[key] = named if is_list else named[0]
    return {**arguments, **added} if added else arguments
