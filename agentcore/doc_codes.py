"""A number whose docs say what each value stands for: "ID of the province. Example: 1 for Bangkok, 2 for Chiang
Mai." The task that names one of those ("in Chiang Mai") asks for its number.

The 0.5B model writes the first number of such docs whatever the task names (`province_id=1` for "in Chiang Mai,
Hang Dong District", `professional_group_id=1` for "in Group B"), or leaves the argument out. Where an integer
argument's docs pair two or more numbers with names ("N for NAME", "N represents NAME", "N is NAME") and the
conversation writes exactly one of those names (its words in order, a plural "s" allowed), the call runs with that
name's number, written in or put in place of the model's. A name that is part of another named one ("cleaning
service" in "big cleaning service") gives way to the longer. On BFCL's dev ground truth, of 59 calls with such an
argument, the conversation names one name in 25; the ground truth has that number in 24 and leaves the argument
out in one ("cleaning services" named, `service_id` not expected). Numbers in quotes, an article before the name
and "corresponds to" (forty-fifth stop: "'2' represents an ironing service", BFCL live_simple dev 180, which the
model called with `service_id=101`) add 3 dev ground-truth calls with such an argument; no value changes.

A place written again by name into an optional free string, where its code already stands in the coded argument,
is left out (`named_again`, forty-sixth stop): `province_id=1, district_name="Bangkok"` for "a cleaning service
provider ... in Bangkok" (BFCL live_multiple dev 974), `sub_district_name="Bangkok"` beside it (dev 934). The
district is not the province; left out, the tool takes the whole province.
"""

from __future__ import annotations

import re
from typing import Any

# "1 for Bangkok", "2 represents ironing service", "5 for 'Critical'", "'2' represents an ironing service", "'1'
# corresponds to Bangkok, '2' to Chiang Mai": a number and the name it stands for ("to" alone after a quoted number
# only: "1 to 10" is a range).
_PAIR = re.compile(
    r"(?<![\w.-])(?:(-?\d+)|['\"](-?\d+)['\"])\s+(?:for|represents|means|is|=|corresponds to|stands for|denotes|"
    r"(?<=['\"] )to)\s+"
    r"(?:(?:the|an?)\s+)?['\"]?([A-Za-z][\w'-]*(?: [A-Za-z][\w'-]*){0,3}?)['\"]?(?=\s*(?:[,.;)]|\band\b|\bor\b|$))"
)


def documented_codes(schema: dict[str, Any]) -> dict[str, int]:
    """The names an integer argument's docs pair with numbers, by casefolded name; {} for fewer than two pairs."""
    if schema.get("type") != "integer":
        return {}
    found = _PAIR.findall(str(schema.get("description", "")))
    pairs = {name.strip("'\"").casefold(): int(plain or quoted) for plain, quoted, name in found}
    return pairs if len(set(pairs.values())) >= 2 else {}


def _written(name: str, text: str) -> bool:
    words = r"\s+".join(re.escape(word) for word in name.split())
    return re.search(rf"(?<!\w){words}s?(?!\w)", text, re.I) is not None


def named_code(schema: dict[str, Any], given: str) -> int | None:
    """The number of the one documented name `given` writes, or None where it writes none or several."""
    codes = documented_codes(schema)
    named = [name for name in codes if _written(name, given)]
    longest = [name for name in named if not any(name != other and name in other for other in named)]
    return codes[longest[0]] if len(longest) == 1 else None


def coded_arguments(parameters: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The integer arguments whose docs pair numbers with names, by name, with their schemas."""
    properties = parameters.get("properties") or {}
    return {
        name: schema for name, schema in properties.items() if isinstance(schema, dict) and documented_codes(schema)
    }


def with_named_codes(arguments: dict[str, Any], coded: dict[str, dict[str, Any]], given: str) -> dict[str, Any]:
    """`arguments` with each of the `coded` arguments (`coded_arguments`) set to the number of the one name
    `given` writes (added where the model left it out). The same dict when nothing changes."""
    fixed = dict(arguments)
    for name, schema in coded.items():
        code = named_code(schema, given)
        if code is not None and code in schema.get("enum", [code]):
            fixed[name] = code
    return fixed if fixed != arguments else arguments


def named_again(arguments: dict[str, Any], parameters: dict[str, Any]) -> list[str]:
    """The optional free strings of `arguments` whose value is a name the docs pair with the code another argument
    holds (module docs)."""
    properties, required = parameters.get("properties") or {}, set(parameters.get("required") or [])
    coded = {
        name.casefold()
        for key, schema in coded_arguments(parameters).items()
        for name, code in documented_codes(schema).items()
        if arguments.get(key) == code
    }
    return [
        key
        for key, value in arguments.items()
        if key not in required
        and isinstance(value, str)
        and "enum" not in (properties.get(key) or {})  # a free string, as `formats.each_free_string` reads one
        and value.strip().casefold() in coded
    ]
