"""Required values that no one gave, counted together: a request that leaves out what a tool needs is answered
(the agent asks for what is missing), not filled in by guesses.

Told "I would like to rent a house" with a booking tool offered, the 0.5B model fills every required argument
from nowhere: `where_to="Austin, TX", number_of_adults=2, check_in_date="01/01/2023",
check_out_date="01/10/2023"` (BFCL live_irrelevance_591, read after fresh test slice 32). Each value alone passes
the one-value checks: 2 is 1 + 1 (`grounding.unsupplied`), dates are not judged by their words, and one unwritten
string is common in a right call (`misfit.unspoken`). Together they say that the user has not given what the tool
needs. Counted, among required arguments only:

- a number that neither the conversation nor the tool's docs write, and that one operation on two of the
  conversation's own numbers does not yield (0 and 1 alone give nothing: 2 adults are not 1 + 1);
- a date or time written in digits, where the conversation writes no date or time at all: none of its numbers,
  no month or weekday, no word such as "today", "next" or "week";
- a free string that shares no word with the conversation (`misfit.unspoken`).

Enum values and booleans are the model's to map the user's words onto, and are not counted.

A made-up place is enough alone too, where the conversation names no place at all (forty-fourth stop): "Can you
assist me in finding a home?" was called with `area="San Francisco, CA"`, "can you find me something fun to do on
march 10th" with `city="Los Angeles, CA"` (BFCL live_irrelevance dev 640, 662). A place is a required string
argument named or documented as a city, location, area, address or destination; it is made up when the
conversation writes no word of its first part ("San Francisco" of "San Francisco, CA") nor its initials ("nyc"),
and names no place when it writes no capitalised word but a sentence's first and "I". On BFCL's dev ground truth
this holds one right call of 956 ("the big apple" is New York).

A made-up identifier is enough alone, where the conversation writes no digit at all (forty-fifth stop): "Tell
me something" was called with `delete_team(team_id="12345")`, "/" with `team_id="123"` (BFCL live_irrelevance
dev 754, 758). An identifier is an argument named for one (`team_id`, `hash`, `uuid`); a value its docs write
("1 for Bangkok") is given. On BFCL's dev ground truth (956 calls) this holds none; of the saved wrong calls of
earlier runs it holds 8, and no saved right call. Where the conversation writes digits, an identifier with a run
of two or more digits that it does not write is made up too (forty-sixth stop): "Supply all releases, but limit
to 50" was called with `releaseId="Release-161"` (BFCL live_irrelevance, fresh slice 37, read after it was
reported). On the dev ground truth this holds none either; of 361 saved dev answers it holds one more, a wrong
call (`user_id="1000000000"` for a ride in zipcode 94704).

A made-up credential is enough alone (forty-sixth stop): a password, PIN, token or API key that the
conversation does not write cannot be the user's ("Translate this sentence to Spanish" was called with
`password="123456"`). On the dev ground truth this holds none; of 440 saved dev answers it holds one more call,
an irrelevance entry's.

A made-up date or time is enough alone (forty-fourth stop): "Please help me to find a full circle flight" was
called with `departure_date="2023-01-01"` (BFCL live_irrelevance_622). A user who gives no date at all has not
asked for one: none of BFCL's 956 dev ground-truth calls has such a date or time.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentcore.doc_choices import documented_values
from agentcore.grounding import ALWAYS_GIVEN, stated_numbers, worked_out
from agentcore.misfit import argument_words, said, unspoken
from agentcore.tool_kinds import name_words

LEAST_UNGIVEN = 2  # one unwritten value is common in a right call; two are rare (module docs)
ALONE = LEAST_UNGIVEN  # the weight of a made-up place, date or time: enough alone (module docs)

# A value that is only a date, a time, or both: "01/10/2023", "2023-10-15T11:00:00Z", "11:00", "3 pm". Not an
# expression: "899+45" and "12/3" are not dates.
_DATE = r"\d{1,4}([-/.])\d{1,2}\1\d{1,4}"
_TIME = r"\d{1,2}(?::\d{2}){1,2}(?:\.\d+)?\s*(?:[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?"
_DATE_VALUE = re.compile(rf"(?:{_DATE})(?:[T ](?:{_TIME}))?(?:Z|[+-]\d{{2}}:?\d{{2}})?|{_TIME}", re.I)
# Words by which a conversation gives a date or time without digits: "next monday", "tonight", "in March".
_TIME_WORD = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|now|next|last|this|coming|weekend|morning|afternoon|evening|night|"
    r"noon|midnight|day|days|week|weeks|month|months|year|years|date|dates|time|"
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)s?\b",
    re.I,
)


def ungiven(arguments: dict[str, Any], parameters: dict[str, Any], description: str, given: str) -> list[str]:
    """The required arguments whose value no one gave (module docs), each as `name=value`. `given` is the
    conversation: instructions, task and tool results. A number counts as given where the tool's description or
    the argument's own docs write it ("2 adults by default"), not another argument's."""
    return [text for text, _ in _weighed(arguments, parameters, description, given)]


def _weighed(
    arguments: dict[str, Any], parameters: dict[str, Any], description: str, given: str
) -> list[tuple[str, int]]:
    """`ungiven`'s values, each with its weight: a made-up place, date or time is enough alone."""
    properties = parameters.get("properties") or {}
    spoken = stated_numbers(given)
    derived, told = worked_out(spoken - ALWAYS_GIVEN), spoken | stated_numbers(description)
    dated = _dates_given(given)
    unwritten = {text.split("=", 1)[0]: text for text in unspoken(arguments, parameters, given)}
    found = []
    for name in parameters.get("required", []):
        value, schema = arguments.get(name), properties.get(name)
        if isinstance(schema, dict) and (
            _made_up_place(name, value, schema, given)
            or _made_up_id(name, value, schema, description, given)
            or _made_up_secret(name, value, given)
        ):
            found.append((f"{name}={value}", ALONE))
        elif name in unwritten:
            found.append((unwritten[name], 1))
        elif not isinstance(schema, dict) or "enum" in schema or isinstance(value, bool):
            continue
        elif isinstance(value, int | float):
            written = told | stated_numbers(json.dumps(schema, ensure_ascii=False))
            if round(abs(value), 12) not in written and round(abs(value), 6) not in derived:
                found.append((f"{name}={value}", 1))
        elif isinstance(value, str) and not dated and _DATE_VALUE.fullmatch(value.strip()) and value not in given:
            found.append((f"{name}={value}", ALONE))
    return found


_PLACE_WORDS = frozenset({"city", "location", "area", "town", "address", "destination", "where", "place"})
# A capitalised word that does not start a sentence: a name the user wrote ("Berkeley", "Chi-town", "Hà Nội").
# After a colon too: the loop writes the task as "Task: Can you ...".
_NAME = re.compile(r"(?<![.!?:]\s)(?<![.!?:\n])(?<!^)\b(?!I\b)[^\W\d_a-z]\w*")


def _made_up_place(name: str, value: Any, schema: dict[str, Any], given: str) -> bool:
    """Whether `value` is a place that the conversation, which names no place, does not write (module docs)."""
    if not isinstance(value, str) or not argument_words(name, schema) & _PLACE_WORDS:
        return False
    head = value.split(",")[0].strip()
    words = re.findall(r"\w+", head.lower())
    initials = "".join(w[0] for w in words)
    if not head or _NAME.search(given.strip()) is not None:
        return False
    if len(words) >= 2 and re.search(rf"(?<!\w){initials}\w?(?!\w)", given.lower()):
        return False  # "nyc" for New York
    return not said(head, given)  # judged as a place even where the docs call it data ("weather data")


_ID_WORDS = frozenset({"id", "ids", "uuid", "guid", "hash", "identifier"})


def _made_up_id(name: str, value: Any, schema: dict[str, Any], description: str, given: str) -> bool:
    """Whether `value` is an identifier that neither the conversation nor the docs ("1 for Bangkok") write; where
    the conversation writes digits, only one with a run of two or more digits it does not write (module docs)."""
    if not name_words(name) & _ID_WORDS or "enum" in schema or isinstance(value, bool):
        return False
    if not isinstance(value, str | int):
        return False
    text = str(value).strip()
    if not text or said(text, given):
        return False
    if re.search(r"\d", given) and not _unwritten_digits(text, given):
        return False
    docs = f"{description} {json.dumps(schema, ensure_ascii=False)}"
    return re.search(rf"(?<![\w.]){re.escape(text)}(?![\w.])", docs) is None and text not in documented_values(schema)


# Arguments that hold a credential, by a word of their name or the name run together ("api_key" is "apikey"); a
# bare "key" is a lookup's.
_SECRET_WORDS = frozenset(
    {"password", "passcode", "passphrase", "pin", "secret", "token", "apikey", "accesskey", "secretkey", "privatekey"}
)


def _made_up_secret(name: str, value: Any, given: str) -> bool:
    """Whether `value` is a password, PIN, token or key that the conversation does not write: no one can guess
    one (forty-sixth stop: "Translate this sentence to Spanish" was called with `user_authentication.verify(
    username="enrique", password="123456")`, BFCL live_irrelevance, fresh slice 40, read after it was reported).
    An argument named `api_key` or `x_apikey` counts; `key` and `keyword` do not."""
    words = name_words(name) | {name.lower().replace("_", "")}
    if not words & _SECRET_WORDS or not isinstance(value, str) or not value.strip():
        return False
    return value.strip().casefold() not in given.casefold()


def _unwritten_digits(text: str, given: str) -> bool:
    """Whether `text` has a run of two or more digits that `given` does not write: "Release-161" for "Supply all
    releases, but limit to 50"."""
    written = {int(run) for run in re.findall(r"\d+", given)}
    return any(len(run) >= 2 and int(run) not in written for run in re.findall(r"\d+", text))


_WHOLE_NUMBER = re.compile(r"(?<![\d.])\d+(?!\d|\.\d)")


def _dates_given(given: str) -> bool:
    """Whether the conversation writes a date or time in any form: a whole number, or a word for a day or time. A
    decimal is no date: "a rating of 3.7 or above" gave the dates of a made-up stay."""
    return _WHOLE_NUMBER.search(given) is not None or _TIME_WORD.search(given) is not None


def undated_optional(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> list[str]:
    """The optional arguments whose value is only a date or time where the conversation writes no date or time at
    all (forty-sixth stop): "Help find a bathroom cleaning service provider in Bangkok, Phaya Thai District" was
    called with `start_available_date="2023-01-01", end_available_date="2023-01-31"` (BFCL live_multiple dev 980).
    Left out, the tool's default applies. `grounding.invented_optional` keeps such a date when one of its numbers
    is written anywhere (a 1 of the docs' "1 for Bangkok")."""
    if _dates_given(given):
        return []
    properties, required = parameters.get("properties") or {}, set(parameters.get("required") or [])
    return [
        name
        for name, value in arguments.items()
        if name not in required
        and isinstance(properties.get(name), dict)
        and "enum" not in properties[name]
        and isinstance(value, str)
        and _DATE_VALUE.fullmatch(value.strip()) is not None
    ]


def held(arguments: dict[str, Any], parameters: dict[str, Any], description: str, given: str) -> list[str]:
    """`ungiven`'s values where they weigh `LEAST_UNGIVEN` or more, else none."""
    found = _weighed(arguments, parameters, description, given)
    return [text for text, _ in found] if sum(weight for _, weight in found) >= LEAST_UNGIVEN else []
