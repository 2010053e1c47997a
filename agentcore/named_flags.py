"""A yes-or-no argument the task names, unnegated, is set: "a unisex hair salon" asks for `is_unisex=True`.

The 0.5B model writes `false` into booleans the task asks for: `Services_1_FindProvider(city="Emeryville, CA",
is_unisex=false)` for "Search for a unisex hair salon located in Emeryville, CA" (BFCL live_multiple dev 768).
A boolean whose name's content words the task all writes (by their first five letters: "unisex", "garage" for
`has_garage`, "pets" for `available_for_pet`) asks for the thing, unless a negation stands within a few words
before one of them ("it shouldn't be unisex", "no garage", "I'm not concerned about having a garage", "does not
have pets"). Such a `false` runs as `true`.

Replayed on BFCL's dev ground truth with every boolean written `false` (342 of them), it sets 49, and each of the
49 accepts `true`; none that needs `false` is set.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.tool_fit import stems

_TOKEN = re.compile(r"[a-z']+")
_NEGATION = re.compile(r"not|no|nor|none|never|without|exclud\w*|\w+n't|dont|doesnt|isnt|shouldnt|wont|cant")
NEAR = 8  # tokens before a mention that a negation may stand in


def asked_flags(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each top-level `false` boolean that the task names unnegated set to `true` (module docs).
    The same dict when nothing changes."""
    properties = parameters.get("properties") or {}
    tokens = _TOKEN.findall(task.lower())
    fixed = dict(arguments)
    for name, value in arguments.items():
        schema = properties.get(name)
        if value is False and isinstance(schema, dict) and schema.get("type") == "boolean":
            fixed[name] = _named_unnegated(name, tokens)
    return fixed if fixed != arguments else arguments


def _named_unnegated(name: str, tokens: list[str]) -> bool:
    """Whether each content word of `name` starts one of `tokens`, none of them after a negation (module docs)."""
    words = stems(name)
    if not words:
        return False
    mentions = [i for word in words for i, token in enumerate(tokens) if token.startswith(word)]
    if any(not any(tokens[i].startswith(word) for i in mentions) for word in words):
        return False
    return not any(_NEGATION.fullmatch(token) for i in mentions for token in tokens[max(0, i - NEAR) : i])
