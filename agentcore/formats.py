"""A place written without the part its argument's docs ask for: "New York" where the docs say "The city and state,
e.g. New York, NY".

The 0.5B model writes the city alone whatever the docs say. Where an argument's docs ask for the city and its
state, country or region, BFCL's dev ground truth writes both parts, comma-joined, in 224 of 229 calls ("Seattle,
WA", "London, UK"), and the city alone is accepted in only some of those. The loop holds such a call back once and
names the form; it cannot add the state itself, which only the model may know.
"""

from __future__ import annotations

import re
from typing import Any

# The docs of an argument that takes a place in two parts: "The city and state", "City, Country", "city/region".
_TWO_PARTS = re.compile(r"\bcity(?: name)?\s*(?:,|and|/)\s*(?:the\s+)?(state|country|province|region)\b", re.I)


def two_part_form(schema: dict[str, Any]) -> str | None:
    """The second part ("state", "country") that `schema`'s docs ask for after the city, or None."""
    match = _TWO_PARTS.search(str(schema.get("description", "")))
    return match.group(1).lower() if match else None


def one_part_places(arguments: dict[str, Any], parameters: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The top-level string arguments documented as a city and its state (or country, ...) whose value has one part
    only: (argument, value, the part missing). Enum-bound arguments are the grammar's to judge."""
    properties = parameters.get("properties") or {}
    found = []
    for name, value in arguments.items():
        schema = properties.get(name)
        if not isinstance(value, str) or not value.strip() or not isinstance(schema, dict) or "enum" in schema:
            continue
        part = two_part_form(schema)
        if part is not None and "," not in value:
            found.append((name, value, part))
    return found
