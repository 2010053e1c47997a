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

A named value gives way too, to the one other choice that names every word of it the conversation names and more
(`_better_named`, forty-sixth stop): "the details of Adriel's education at Universitas Sebelas Maret (UNS)" was
called with "Internship at Universitas Sebelas Maret (UNS)" where "Education at ..." is a choice (BFCL
live_multiple dev 1040). Replayed on the dev ground truth it changes no value; on 468 saved dev answers, that one.
"""

from __future__ import annotations

from typing import Any

from agentcore.doc_choices import documented_choices
from agentcore.enum_lists import named
from agentcore.function_words import FUNCTION_WORDS
from agentcore.unstated import CODE, STEM, tokens


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
        if not isinstance(value, str) or value not in values:
            continue
        if _kept(value, schema or {}, given, spoken):
            fixed[name] = _better_named(value, values, spoken) if named(value, given, spoken) else value
            continue
        others = [v for v in values if v != value and not _digit(v) and named(v, given, spoken)]
        if len(others) == 1:
            fixed[name] = others[0]
    return fixed if fixed != arguments else arguments


def _better_named(value: str, values: tuple[str, ...], spoken: set[str]) -> str:
    """The one other choice that names every word of `value` the conversation names, and more ("Education at
    Universitas Sebelas Maret (UNS)" for "Adriel's education at Universitas Sebelas Maret", where the model chose
    "Internship at Universitas Sebelas Maret (UNS)"; BFCL live_multiple dev 1040, forty-sixth stop); else `value`."""
    ours = _said_words(value, spoken)
    better = [v for v in values if v != value and not _digit(v) and _said_words(v, spoken) > ours]
    return better[0] if len(better) == 1 and ours else value


def _said_words(value: str, spoken: set[str]) -> frozenset[str]:
    """The content words of a choice that the conversation writes (a plural or a shared five-letter stem too)."""
    words = {w for w in tokens(value) if w not in FUNCTION_WORDS and len(w) > CODE}
    return frozenset(w for w in words if w in spoken or any(s.startswith(w[:STEM]) for s in spoken if len(w) >= STEM))


def _kept(value: str, schema: dict[str, Any], given: str, spoken: set[str]) -> bool:
    """The default, a value with a digit, a code ("mi" for "miles": unit symbols are named by what they stand
    for), or a named value."""
    code = all(len(word) <= CODE for word in tokens(value))
    return value == schema.get("default") or _digit(value) or code or named(value, given, spoken)


def _digit(value: str) -> bool:
    return any(c.isdigit() for c in value)
