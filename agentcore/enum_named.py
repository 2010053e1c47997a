"""An enum value no one named, where the conversation names exactly one other: the named one runs.

Asked to "Give me detail information about stocks of Apple Inc." with `detail_level: 'summary' | 'detailed'`, the
0.5B model wrote "summary" (BFCL multiple_148). The grammar holds a value to the enum, not to what was asked. A
string argument whose value is one of its enum's (or its docs' listed choices: agentcore.doc_choices) is left as
written when the conversation names it (`enum_lists`' reading: whole words, a content word, a shared five-letter
stem, an abbreviation or initials), when it is the documented default (a deliberate "no preference"), when it
has a digit (a rating or size the model may have worked out), or when it is a code ("mi" for "5 miles": a
symbol is named by what it stands for); otherwise, when exactly one other value without a
digit is named, that value runs instead.

Replayed on BFCL's ground truth, the rule would change 1 right value of the dev split ("not too pricey" read as
"pricey", where `price_range="moderate"` is right) and 2 of the test split. On the first 80 dev entries where it
can fire (an enum value without a digit, not the default, named by the question) agentcore went from 58 to 59
right: the model mostly writes the named value already; multiple_148 gained, none lost.
"""

from __future__ import annotations

from typing import Any

from agentcore.doc_choices import documented_choices
from agentcore.enum_lists import named
from agentcore.unstated import CODE, tokens


def choices(schema: Any) -> tuple[str, ...]:
    """A scalar string argument's enum or documented choices; () for any other argument."""
    if not isinstance(schema, dict):
        return ()
    enum = schema.get("enum")
    if isinstance(enum, list):
        return tuple(enum) if schema.get("type") == "string" and all(isinstance(v, str) for v in enum) else ()
    return documented_choices(schema)


def named_choices(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> dict[str, Any]:
    """`arguments` with each enum value that `given` (the conversation) does not name replaced by the one other
    value it names, where there is exactly one. The same dict when nothing changes."""
    properties = parameters.get("properties") or {}
    spoken = tokens(given)
    fixed = dict(arguments)
    for name, value in arguments.items():
        schema = properties.get(name)
        values = choices(schema)
        if not isinstance(value, str) or value not in values or _kept(value, schema or {}, given, spoken):
            continue
        others = [v for v in values if v != value and not _digit(v) and named(v, given, spoken)]
        if len(others) == 1:
            fixed[name] = others[0]
    return fixed if fixed != arguments else arguments


def _kept(value: str, schema: dict[str, Any], given: str, spoken: set[str]) -> bool:
    """The default, a value with a digit, a code ("mi" for "miles": unit symbols are named by what they stand
    for), or a named value."""
    code = all(len(word) <= CODE for word in tokens(value))
    return value == schema.get("default") or _digit(value) or code or named(value, given, spoken)


def _digit(value: str) -> bool:
    return any(c.isdigit() for c in value)
