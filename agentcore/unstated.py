"""Optional arguments that no one asked for: left out, so the tool's own default applies.

A 0.5B model fills optional arguments from its own memory: `team_name="Real Madrid"` for "the statistics of
Ronaldo's matches in 2021", `make="Gibson"` for "an acoustic instrument within my budget", `units="meters"` for
"the circumference of a circle with radius 3", `growth_rate=0.05` for "the projected population growth". The tool
documents what happens without them, and the user said nothing that picks a value, so the value is the model's
guess. Such a value counts as asked for when the conversation (instructions, task, tool results) writes it: a
number among its stated numbers, a string one of whose content words it uses (a plural or a shared five-letter
stem allowed: "statistic" for "statistics").

Judged are numbers and free strings (enums only as below). Enum values, booleans and codes are what the model
maps the user's words onto ("scary" -> "Horror", "suitable for children" -> `good_for_kids="True"`, "China" ->
"CN"): on BFCL's dev ground truth, dropping the unwritten ones would lose 46 enum values, 11 booleans and 3 codes
that the ground truth needs. As built it loses 6 needed values against 44 it may fix (`python -m
bench.bfcl_unstated --split dev`).
An enum whose documented default is none of its values (`unit: seconds | milliseconds`, default "N/A"; a
`genre` whose default is "dontcare") is the exception: leaving it out asks for nothing, and its value is judged as
a free string. On BFCL's dev ground truth that loses 2 more needed values ("cartoon" for `genre="Animation"`, "not
too pricey" for `price_range="moderate"`); on the 55 dev entries with such an enum agentcore went from 19 to 27
right, none lost (the model wrote `unit="seconds"` to every command it ran).

An enum whose documented default is one of its values (`genre: World | ... | dontcare`, default "dontcare";
`seating_class`, default "Economy") is judged too (thirty-eighth stop): there the model copies the enum rather than
choosing from it, `genre="World"` (its first value) for "any nice regular movies", `year="2010"` for "Pop songs
by Harris J". A value the conversation does not name goes; a number counts when the conversation states it
("2014"), and a value is named when each of its words starts a written one ("Sci-fi" for "science fiction").
Booleans written as text ("True") and codes ("3d") are not judged. On BFCL's dev ground truth this loses 12 more
needed values, mapped by meaning ("Horror" for "scary ghosts", "Country" for "Hillbilly"); on the model's own
calls it fixed 9 of 74 live_multiple dev entries and 4 of 40 more (dev entries 300-339), none lost. An optional
enum with no default in its schema is judged the same way (thirty-ninth stop): `genre="Action"` for "a multiplayer
game with rating above 4.5" (BFCL multiple_182). On the dev ground truth that loses no needed value (2 more
dropped values are ones the ground truth also accepts left out); on 228 saved dev answers it changed two calls,
one gained, none lost.

An integer enum whose default is null (`service_id: 1 | 2 | 3 | 13 | ...`) is judged as a number (forty-first
stop): `service_id=13` for "a housekeeper available on March 19" goes, and a number its docs pair with a name the
conversation writes ("2 for Chiang Mai", `agentcore.doc_codes`) counts as asked. On the dev ground truth this loses
one needed value, `province_id=2` for "Nonthaburi", which the docs do not pair with any number.

A free string of no-preference words alone ("any", "all") is left out too (forty-fourth stop): the 0.5B model
writes `artist="any"` where the docs say "Use 'dontcare' if artist preference is not specified", and the checker,
like the tool, knows no artist "any". Left out, the documented default applies. So is a default of such words
written out (`in_unit_laundry="dontcare"`, its default): the tool takes it anyway, and on BFCL's dev ground truth
six such arguments accept being left out and not "dontcare" written, and none needs it written.

A yes-or-no argument with a documented default, set otherwise, is judged by what it is about (forty-sixth stop):
`has_garage="True"`, `in_unit_laundry="False"` for "a home with at least 3 bedrooms" go, since the conversation
writes no content word of their names or docs; "suitable for children" keeps `good_for_kids="True"` ("children"
is in its docs). Whether the user wants the thing or not stays the model's to map. On BFCL's dev ground truth this
drops 5 flags, each of which the ground truth also accepts left out, and no needed one; on 361 saved dev answers
it would change 4 calls, all wrong ones.

Strings with digits are `grounding.invented_optional`'s (a date is written in many forms), and any other value
equal to the documented default is kept (it changes nothing; 11 dev ground-truth values need it written, such as
`number_of_tickets=1`).
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.doc_codes import named_code
from agentcore.function_words import FUNCTION_WORDS
from agentcore.grounding import ALWAYS_GIVEN, stated_numbers
from agentcore.unfinished import numbers_in, spelled_numbers

_TOKEN = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_TEXT_BOOLEANS = frozenset({"true", "false"})
CODE = 3  # a string whose words are all this short is a code ("CN", "IPR", "XL")
STEM = 5  # a shared prefix this long makes two words one ("statistic", "statistics")


def words(text: str) -> list[str]:
    """`text` as lower-case words in order ("roomType" is two), each longer than a code without a plural "s"."""
    return [t[:-1] if len(t) > CODE and t.endswith("s") else t for t in _TOKEN.findall(_CAMEL.sub(" ", text).lower())]


def tokens(text: str) -> set[str]:
    return set(words(text))


def _said(words: set[str], spoken: set[str]) -> bool:
    return any(w in spoken or (len(w) >= STEM and any(s.startswith(w[:STEM]) for s in spoken)) for w in words)


# Words that ask for no particular value: "any" for an optional artist whose docs say "Use 'dontcare' if not
# specified". Left out, the argument takes its default, which is the tool's own "any"; written, it is a value the
# tool may not know. On BFCL's dev ground truth every optional argument that accepts such a word also accepts
# being left out.
NO_PREFERENCE = frozenset({"any", "anything", "anyone", "anywhere", "all", "whatever", "dontcare", "unspecified"})


def _no_preference(value: str) -> bool:
    return bool(tokens(value)) and tokens(value) <= NO_PREFERENCE


def _asked_text(value: str, given: str, spoken: set[str]) -> bool:
    """Whether the conversation asks for a free string: it writes the value, or one of its content words. A value
    of no-preference words alone ("any") asks for nothing."""
    if _no_preference(value):
        return False
    words = {w for w in tokens(value) if w not in FUNCTION_WORDS}
    if any(c.isdigit() for c in value) or all(len(w) <= CODE for w in words):
        return True  # not judged: a date or code
    return value.casefold() in given.casefold() or _said(words, spoken)


def _sentinel_default(schema: dict[str, Any]) -> bool:
    """An enum whose documented default is none of its values ("N/A" for `unit: seconds | milliseconds`): without
    the argument the tool does something no value names, so a value the conversation does not say is the model's
    guess, judged as a free string is."""
    default = schema.get("default")
    return isinstance(default, str) and default not in schema["enum"]


def _unset_number_choice(schema: dict[str, Any]) -> bool:
    """An integer enum whose documented default is null (`service_id: 1 | 2 | 3 | 13 ...`, default None): without
    it the tool filters on nothing, and the model picks one the user never named (forty-first stop)."""
    return (
        "default" in schema
        and schema["default"] is None
        and all(isinstance(v, int) and not isinstance(v, bool) for v in schema["enum"])
    )


def _defaulted_choice(schema: dict[str, Any]) -> bool:
    """A string enum whose documented default is one of its values ("dontcare" of `genre: World | ... |
    dontcare`, "Economy" of `seating_class`) or that documents none (`genre: Action | Adventure | ...`, "Default is
    ''" in its prose only), other than a boolean written as text ("True" | "False": the model maps "suitable for
    children" onto it)."""
    enum = schema["enum"]
    return (
        (schema.get("default") in enum or "default" not in schema)
        and all(isinstance(v, str) for v in enum)
        and not {v.casefold() for v in enum} <= _TEXT_BOOLEANS | {str(schema.get("default")).casefold()}
    )


def _asked_choice(value: str, given: str, spoken: set[str], numbers: set[float]) -> bool:
    """Whether the conversation asks for a choice: a number it states ("2014" of a `year` enum), a code (not
    judged), the value or one of its content words, or each of its words as the start of a written one ("Sci-fi"
    for "science fiction")."""
    if any(c.isdigit() for c in value):
        try:
            number = round(abs(float(value)), 12)
        except ValueError:
            return True  # "3d", "es-ES": a code
        return number in numbers and (number not in ALWAYS_GIVEN or _writes(given, number))
    words = {w for w in tokens(value) if w not in FUNCTION_WORDS}
    if not words or all(len(w) <= CODE for w in words):
        return True
    if value.casefold() in given.casefold() or _said(words, spoken):
        return True
    return all(any(s.startswith(w) for s in spoken) for w in tokens(value))


# Words of a yes-or-no argument's docs that say it is one, not what it is about.
_FLAG_WORDS = frozenset(
    tokens(
        "indicates whether flag preference option specified value true false dontcare indicating select use default set"
    )
)


def _flag(schema: dict[str, Any]) -> bool:
    """A yes-or-no argument: a boolean, or text "True" | "False" (with "dontcare", say)."""
    enum = schema.get("enum")
    texts = {str(v).casefold() for v in enum} if isinstance(enum, list) else set()
    return schema.get("type") == "boolean" or texts >= _TEXT_BOOLEANS


def _asked_flag(name: str, schema: dict[str, Any], spoken: set[str]) -> bool:
    """Whether the conversation speaks of what a yes-or-no argument is about: a content word of its name or docs
    ("garage" of `has_garage`, "children" of `good_for_kids`, "suitable for children"). `in_unit_laundry="False"`
    for "a home with 3 bedrooms, and a garage would be a nice bonus" speaks of nothing the user said (BFCL
    live_multiple dev 790, forty-sixth stop). Whether the user wants it or not is the model's to map. A spoken
    word that starts one of them counts too: "play it" speaks of `autoplay`'s "playing"."""
    about = tokens(f"{name.replace('_', ' ')} {schema.get('description', '')}") - FUNCTION_WORDS - _FLAG_WORDS
    return _said(about, spoken) or any(w.startswith(s) for w in about for s in spoken if len(s) > CODE)


def _writes(given: str, number: float) -> bool:
    """Whether the conversation writes `number` in digits or as a word ("one", "zero"). `stated_numbers` gives 0
    and 1 to every conversation ("the first", "a mile"); a choice needs them written: `star_rating="1",
    number_of_rooms="1"` for "a hotel in Kuala Lumpur" (BFCL live_multiple_601, fresh slice 33)."""
    return number in {round(abs(n), 12) for n in numbers_in(given)} | spelled_numbers(given)


def unstated(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> list[str]:
    """The optional arguments of `arguments` whose values `given` (the conversation) does not ask for."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    spoken = tokens(given)
    numbers: set[float] | None = None
    found = []
    for name, value in arguments.items():
        schema = properties.get(name)
        if name in required or not isinstance(schema, dict):
            continue
        if value == schema.get("default"):
            if isinstance(value, str) and _no_preference(value):
                found.append(name)  # the default written out: the tool takes it anyway (module docs)
            continue
        if _flag(schema) and "default" in schema:
            if not _asked_flag(name, schema, spoken):
                found.append(name)
            continue
        unset_number = "enum" in schema and _unset_number_choice(schema)
        if "enum" in schema and not (_sentinel_default(schema) or _defaulted_choice(schema) or unset_number):
            continue
        if "enum" in schema and isinstance(value, str) and not _sentinel_default(schema):
            numbers = stated_numbers(given) if numbers is None else numbers
            asked = _asked_choice(value, given, spoken, numbers)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            numbers = stated_numbers(given) if numbers is None else numbers
            asked = round(abs(value), 12) in numbers or (unset_number and value == named_code(schema, given))
        elif isinstance(value, str):
            asked = _asked_text(value, given, spoken)
        else:
            continue
        if not asked:
            found.append(name)
    return found
