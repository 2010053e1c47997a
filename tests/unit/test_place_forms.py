"""A place's second part goes in the form its argument's docs' examples write theirs: a state or country named
in full becomes its code where an example writes that kind of place as a code (`agentcore.place_forms`). Which
arguments are judged: tests/unit/test_places.py; through the loop: tests/unit/test_formats.py."""

from __future__ import annotations

import pytest

from agentcore.place_forms import coded_kinds, in_example_form

BOTH = "In the format 'City, State' or 'City, Country' if not in the US; for example, 'New York, NY' or 'Paris, FR'."
STATES = "The city and state, e.g. 'Berkeley, CA'."
NAMED = "'City, State' or 'City, Country'; for example, 'Paris, France' or 'New York, NY'."


@pytest.mark.parametrize(
    ("docs", "kinds"),
    [
        (BOTH, {"state", "country"}),
        (STATES, {"state"}),
        (NAMED, {"state"}),  # "France" is a name, not a code
        ("The city name.", set()),
    ],
)
def test_coded_kinds(docs: str, kinds: set[str]) -> None:
    assert coded_kinds(docs) == kinds


@pytest.mark.parametrize(
    ("value", "docs", "fixed"),
    [
        ("Sacramento, California", STATES, "Sacramento, CA"),
        ("Nairobi, Kenya", BOTH, "Nairobi, KE"),
        ("London, United Kingdom", BOTH, "London, UK"),  # the code in common use, not ISO's GB
        ("London, England", NAMED, "London, UK"),  # a nation of the UK goes as "UK" whatever the examples write
        ("Edinburgh, Scotland", STATES, "Edinburgh, UK"),
        ("London, UK", NAMED, None),
        ("Nairobi, Kenya", STATES, None),  # no example writes a country as a code
        ("Sydney, Australia", NAMED, None),  # ... nor here, where countries are named
        ("Toronto, Canada", BOTH, None),  # "CA" would read as California
        ("Paris, TX", BOTH, None),  # already a code
        ("Vancouver, BC", BOTH, None),  # the model's own part
        ("Austin", STATES, None),  # one part: agentcore.formats' to judge
    ],
)
def test_in_example_form(value: str, docs: str, fixed: str | None) -> None:
    assert in_example_form(value, docs) == fixed
