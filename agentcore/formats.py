"""A city written alone where its argument's docs ask for the city and its state, and give that city as an example:
"New York" where the docs say "The city and state, e.g. New York, NY".

The 0.5B model writes the city alone whatever the docs say. Where an argument's docs ask for the city and its
state, country or region, BFCL's dev ground truth writes both parts, comma-joined, in 224 of 229 calls ("Seattle,
WA", "London, UK"). Where the docs' own example starts with the city the model wrote, the call runs with the
example ("New York, NY"): on the dev ground truth that form is accepted in all 83 such calls, the city alone in 9.
A city with no example is left as written: held back with the form named, the model wrote the city alone again
(3 of 3), and only the model could know the state.

Docs that only show the form ("The city where the car is picked up, such as 'Los Angeles, CA'") complete the
example's own city the same way: on the dev ground truth, "Los Angeles" and "New York" for such docs are expected
as the example writes them in 5 of 5 calls. Other cities there are left alone: the dev ground truth writes them with
their state 10 times and alone 6.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# The docs of an argument that takes a place in two parts: "The city and state", "City, Country", "city/region".
_TWO_PARTS = re.compile(r"\bcity(?: name)?\s*(?:,|and|/)\s*(?:the\s+)?(state|country|province|region)\b", re.I)

# An example of a place in two parts, introduced as one: "such as 'Los Angeles, CA'", "e.g. Palo Alto, CA"; the
# docs must also call the value a place ("e.g. Xbox, PC" has the shape).
_PLACE_EXAMPLE = re.compile(
    r"\b(?:e\.g\.|such as|for example|for instance)[,:]?\s*'?[A-Z][a-z]+(?: [A-Z][a-z]+)*, [A-Z]{2}\b"
)
_PLACE_WORD = re.compile(r"\b(?:city|town|location|place|destination|origin)\b", re.I)


def two_part_form(schema: dict[str, Any]) -> str | None:
    """The second part ("state", "country") that `schema`'s docs ask for after the city, or None."""
    match = _TWO_PARTS.search(str(schema.get("description", "")))
    return match.group(1).lower() if match else None


def _shows_place(schema: dict[str, Any]) -> bool:
    """Whether `schema`'s docs give a two-part place as an example, whatever they call the argument."""
    docs = str(schema.get("description", ""))
    return _PLACE_EXAMPLE.search(docs) is not None and _PLACE_WORD.search(docs) is not None


def _example_of(city: str, docs: str) -> str | None:
    """The example of `docs` that starts with `city` ("New York, NY" for "new york" in "e.g. New York, NY."), or
    None."""
    match = re.search(rf"(?<!\w)(?i:{re.escape(city)}),\s*[A-Z][\w.]*(?: [A-Z][\w.]*)*", docs)
    return match.group(0).rstrip(".") if match else None


def from_examples(arguments: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    """`arguments` with each one-part place whose city the argument's docs give as an example completed from it
    ("New York" -> "New York, NY"). The same dict when nothing changes."""
    properties = parameters.get("properties") or {}
    fixed = dict(arguments)
    for name, value in one_part_places(arguments, parameters):
        example = _example_of(value.strip(), str(properties[name].get("description", "")))
        if example:
            fixed[name] = example
    return fixed if fixed != arguments else arguments


def one_part_places(arguments: dict[str, Any], parameters: dict[str, Any]) -> list[tuple[str, str]]:
    """The top-level string arguments documented as a city and its state (or country, ...), or shown with such a
    place as their example, whose value has one part only: (argument, value). Enum-bound arguments are the
    grammar's to judge."""
    properties = parameters.get("properties") or {}
    found = []
    for name, value in arguments.items():
        schema = properties.get(name)
        if not isinstance(value, str) or not value.strip() or not isinstance(schema, dict) or "enum" in schema:
            continue
        if "," not in value and (two_part_form(schema) is not None or _shows_place(schema)):
            found.append((name, value))
    return found


def each_free_string(
    arguments: dict[str, Any], parameters: dict[str, Any], fix: Callable[[str, dict[str, Any]], str | None]
) -> dict[str, Any]:
    """`arguments` with each top-level string whose argument has a schema and no enum written as `fix(value,
    schema)`, where that is not None (a date in its documented layout, a place's state). The same dict when nothing
    changes."""
    properties = parameters.get("properties") or {}
    fixed = dict(arguments)
    for name, value in arguments.items():
        schema = properties.get(name)
        if isinstance(value, str) and isinstance(schema, dict) and "enum" not in schema:
            written = fix(value, schema)
            fixed[name] = value if written is None else written
    return fixed if fixed != arguments else arguments
