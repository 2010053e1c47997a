"""Does a call's value fit the argument it fills, and did anyone say it?

A 0.5B model offered one tool calls it whatever the question: asked for VirusTotal's comments on google.com with
only `get_current_weather(location)` offered, it wrote `location="google.com"`; asked "Who are you?", it wrote
`location="London"`. Two checks read the values, not the question's wording:

- `misfits`: a value with a machine shape (an IP address, a web or email address, a domain name) fills only an
  argument whose name or docs name that kind of value, or one that takes free text (a query, a message). On
  BFCL's dev ground truth every such value went to an argument named for it (`host`: "The hostname or IP
  address", `url`, `to_address`: "The email address of the recipient").
- `unspoken`: a free string that shares no word with the conversation. One such required string is common in a
  right call (26 of BFCL's 956 dev ground-truth calls, codes such as "AAPL" aside: "California" for San
  Francisco, "dessert" for brownies), so the loop holds a first call back only for two or more (no dev
  ground-truth call has two, optional arguments included) or for one that the docs give as an example ("e.g. San
  Francisco, CA" for "what is java"; 4 dev ground-truth calls: "dessert" and "clothing" picked from a doc's
  examples, "New York, NY" for "the big apple"). After one held-back call, one required string no one
  wrote is enough: a model just told that its tool does not fit reaches for an example instead of answering.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.doc_choices import documented_values
from agentcore.tool_kinds import name_parts


def _words_of(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Value kinds by shape, each with the words an argument's name or docs use for it. A web address also names a file
# ("The file path to the image": BFCL live_simple_123 gave an image's URL, fresh test slice 7).
_KINDS: tuple[tuple[str, re.Pattern[str], frozenset[str]], ...] = (
    ("an IP address", re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?"),
     _words_of("ip ipv4 address host hostname server")),
    ("a web address", re.compile(r"[a-z][a-z0-9+.-]*://\S+", re.I),
     _words_of("url uri link endpoint address website site host server path file image source resource")),
    ("an email address", re.compile(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", re.I),
     _words_of("email mail address recipient sender")),
    ("a domain name", re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,24}", re.I),
     _words_of("domain host hostname url website site server address")),
)  # fmt: skip
# A name with one of these endings is a file, not a domain ("image.png").
_FILE_ENDINGS = _words_of(
    "png jpg jpeg gif bmp svg webp txt csv tsv json yaml yml xml html htm md pdf doc docx xls xlsx ppt pptx zip gz tar "
    "mp3 mp4 wav avi mov log py js ts java cpp sh ini cfg toml sql db parquet"
)
# Arguments that take any text: a value of any shape belongs there ("query", "message").
_FREE_TEXT = _words_of(
    "query text message content prompt input body search keyword keywords term question command string data "
    "note notes comment description value"
)
_WORD = re.compile(r"[a-z0-9]+")
_TOKEN = re.compile(r"\w+")
_CODE = re.compile(r"[A-Z][A-Z0-9#]{0,4}")  # a ticker, currency, airport or state code
_DATE_OR_TIME = re.compile(r"[\d/:.\- ]+(?:am|pm)?", re.I)


def shape(value: str) -> str | None:
    """The kind of value `value` is by its shape ("a domain name"), or None for plain words and numbers."""
    text = value.strip()
    for kind, pattern, _ in _KINDS:
        if pattern.fullmatch(text) and not (
            kind == "a domain name" and text.rsplit(".", 1)[-1].lower() in _FILE_ENDINGS
        ):
            return kind
    return None


def _shaped_part(value: str) -> tuple[str, str] | None:
    """The kind and text of a comma-joined part of `value`, or a word of one, that has a machine shape: the grammar
    writes a place documented as "City, State" in two parts, so a domain asked about comes out as "google.com, CA"
    or "domain spotify.com, CA" (BFCL live_irrelevance dev)."""
    parts = [token.strip(".;:!?'\"()") for part in value.split(",") for token in (part, *part.split())]
    return next(((kind, part.strip()) for part in parts if (kind := shape(part))), None)


def argument_words(name: str, schema: dict[str, Any]) -> set[str]:
    """The words an argument is known by: its name's parts and its docs' words."""
    docs = f"{name.replace('_', ' ')} {schema.get('description', '')} {schema.get('title', '')}"
    return set(_WORD.findall(re.sub(r"([a-z])([A-Z])", r"\1 \2", docs).lower()))


def misfits(arguments: dict[str, Any], parameters: dict[str, Any], given: str = "") -> list[tuple[str, str, str]]:
    """The top-level string arguments whose value has a shape that the argument's name and docs never name, or
    whose words `given` (the conversation) writes only inside such a value ("Instagram, CA" from instagram.com):
    (argument, value, kind). Enum-bound arguments are the grammar's to judge and are skipped."""
    properties = parameters.get("properties") or {}
    found = []
    for name, value in arguments.items():
        schema = properties.get(name)
        if not isinstance(value, str) or not isinstance(schema, dict) or "enum" in schema:
            continue
        words = argument_words(name, schema)
        kind, source = shape(value), None
        if kind is None:
            kind, source = _shaped_part(value) or _taken_from_shaped(value, given) or (None, None)
        if kind is None or words & _FREE_TEXT or words & next(names for k, _, names in _KINDS if k == kind):
            continue
        found.append((name, value, f"made from {kind}, {source}" if source else kind))
    return found


def _taken_from_shaped(value: str, given: str) -> tuple[str, str] | None:
    """The kind and text of the shaped value in `given` (a domain name, instagram.com) that holds the words of
    `value` that `given` writes, when `given` writes them nowhere else but in identifiers ("slack_c2")."""
    stripped = (token.strip(".,;:!?'\"()") for token in given.split())
    shaped = [(kind, token) for token in stripped if (kind := shape(token))]
    if not shaped:
        return None
    # Identifiers do not count as plain text: "reddit_api_key" beside reddit.com does not make "Reddit" a word
    # the user wrote (BFCL live_irrelevance dev).
    plain = " ".join(token for token in given.split() if not any(s in token for _, s in shaped) and "_" not in token)
    plain = plain.lower()
    tokens = [t for t in _TOKEN.findall(value.lower()) if len(t) > 2]
    inside = [t for t in tokens if any(t in s.lower() for _, s in shaped)]
    if not inside or any(_said(t, plain) for t in tokens):
        return None
    return next((kind, s) for kind, s in shaped if inside[0] in s.lower())


def unspoken(
    arguments: dict[str, Any], parameters: dict[str, Any], given: str, required_only: bool = True
) -> list[str]:
    """The free-string arguments whose value shares no word with `given`, the conversation: `name=value`, required
    ones only unless `required_only` is False. A word counts when the conversation writes its first five letters
    at a word's start, or anywhere for scripts written without spaces. Not judged: enums, dates and times, codes
    ("CAD", "AAPL": the model's to derive from a name) and arguments that take free text (a message's body)."""
    properties = parameters.get("properties") or {}
    names = parameters.get("required", []) if required_only else list(arguments)
    text = given.lower()
    found = []
    for name in names:
        value, schema = arguments.get(name), properties.get(name) or {}
        if not isinstance(value, str) or not isinstance(schema, dict) or _unjudged(name, value, schema):
            continue
        if not _written(value.lower(), text):
            found.append(f"{name}={value}")
    return found


_EXAMPLE = re.compile(r"\b(?:e\.\s?g\.?|for example|for instance|such as|example:)\s*([^\"\n]{1,80})", re.I)


# Values that stand for "some value" by convention: RFC 2606's example domains and the stock names of examples. No
# BFCL ground-truth call (dev or test) has one that its question does not write; the 0.5B model wrote
# `greet_user(user_name="Alice")` for "what is your name?" and `get_spouse_name(spouse_of="John Doe")` for "the
# name of my spouse" (live_irrelevance dev).
_PLACEHOLDER = re.compile(
    r".*\bexample\.(?:com|org|net)\b.*|(?:john|jane) (?:doe|smith)|alice|bob|foo|bar|baz|lorem ipsum.*", re.I
)


def placeholder(value: str, name: str = "") -> bool:
    """Whether `value` is a conventional stand-in ("John Doe", "user@example.com") rather than someone's value, or
    one that names its own argument `name` or the user ("password" or "your_password" for `password`, "Project
    Name" for `project_name`, "your_name_here, CA"). The model wrote those for "hey", "help" and "who is the ceo of
    wakam?" (BFCL live_irrelevance, saved calls of fresh test slices 12-30, read after they were reported); the
    three dev ground-truth values of that shape (`your_dataset_name`, `password`, `YOUR_API_KEY`) are all written
    by their question, so none is held."""
    words = [w for w in re.split(r"[^a-z0-9]+", value.lower()) if w]
    if words[:1] == ["your"] or (name and words == [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]):
        return True
    return _PLACEHOLDER.fullmatch(value.strip()) is not None


def in_example(value: str, docs: str) -> bool:
    """Whether `docs` give `value` as an example ("The city and state, e.g. San Francisco, CA"), in the sentence
    after "e.g.", "such as" or "for example": a word the docs use to name the kind of value ("prices (product ->
    price)") is not one."""
    wanted = value.strip().lower()
    return any(wanted in example.split(". ")[0].lower() for example in _EXAMPLE.findall(docs))


def _unjudged(name: str, value: str, schema: dict[str, Any]) -> bool:
    text = value.strip()
    if schema.get("type", "string") != "string":  # a string where a number belongs: the validator's to refuse
        return True
    if not text or "enum" in schema or _DATE_OR_TIME.fullmatch(text) or _CODE.fullmatch(text):
        return True
    if text in documented_values(schema):  # "Default is 'NASDAQ'", "Can be 'summary' or 'detailed'"
        return True
    return bool(argument_words(name, schema) & _FREE_TEXT)


def said(value: str, given: str) -> bool:
    """Whether the conversation `given` writes `value` in any form `unspoken` accepts (a word, initials, an
    abbreviation), whatever the argument takes."""
    return _written(value.lower(), given.lower())


def _written(value: str, text: str) -> bool:
    """Whether `text` writes one of the value's words, the initials of two or more of its words in a row ("SF"
    for San Francisco, CA), or a word that a short word of the value abbreviates ("km" for kilometers)."""
    tokens = _TOKEN.findall(value)
    if any(_said(token, text) for token in tokens):
        return True
    words = _TOKEN.findall(text)
    initials = {"".join(t[0] for t in tokens[i:j]) for i in range(len(tokens)) for j in range(i + 2, len(tokens) + 1)}
    return bool(initials & set(words)) or any(_abbreviates(t, w) for t in tokens for w in words)


def _said(token: str, text: str) -> bool:
    if not token.isascii():
        return token in text
    return len(token) >= 2 and re.search(rf"(?<!\w){re.escape(token[:5])}", text) is not None


def _abbreviates(short: str, word: str) -> bool:
    """ "km" abbreviates "kilometers": a word of at most four letters, the long word's first letter and the rest
    in order."""
    if not 2 <= len(short) <= 4 or not short.isalpha() or len(word) <= len(short) or word[0] != short[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:])


def spelled_tools(task: str, names: list[str]) -> list[str]:
    """The tools whose name the task spells out word by word ("a list of all the servers": list_servers), plurals
    aside: after a held-back call, the tools the model passed over (BFCL live_multiple: `add_postgres_server`
    held back for made-up values, then an answer, where `list_servers` was right)."""
    words = {w.removesuffix("s") for w in _WORD.findall(task.lower())}
    found = []
    for name in names:
        parts = [part.removesuffix("s") for part in name_parts(name)]  # every part: lawsuit_details.find
        if parts and all(part in words for part in parts):
            found.append(name)
    return found
