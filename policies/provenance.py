"""Provenance pre-check: where did a tool call's sensitive argument values come from?

Tool-Guard runs this deterministic check before any LLM check. A value is *sensitive* when its key names a
recipient, account, address, credential or amount (`iban`, `recipient`, `email`, `password`, `amount`, ...),
or when the value itself looks like an IBAN, an e-mail address, a URL or a long account number (also inside
free text, such as an e-mail body). A sensitive value that appears neither in the user's request nor in an
earlier tool result was put there by something else — typically a poisoned tool description — and is reported
as a `Finding`.

Matching is forgiving where formats vary (case, spaces and dashes in IBANs, URL schemes, `100` vs `100.00`)
and strict about content: a value must really occur in a source. Amounts the model computed (half of a
balance) are therefore reported too; Tool-Guard treats them as hints, not as failures (`BLOCKING_KINDS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

KINDS = ("iban", "account", "email", "url", "recipient", "phone", "credential", "amount")
# Kinds that say *where* something goes, or who gets in. An unseen one fails Tool-Guard's check outright; an
# unseen amount is only flagged, since amounts are often computed from the request (AgentDojo banking: 3 of
# its 16 benign tasks pay a derived amount).
BLOCKING_KINDS = ("iban", "account", "email", "url", "recipient", "phone", "credential")

# Key words (after splitting snake_case, kebab-case and camelCase) that make a value sensitive whatever it
# holds. "to" is left out on purpose: convert(to="EUR") names no recipient (addresses still match by value).
KEY_KINDS: Mapping[str, str] = {
    "iban": "iban",
    "bic": "account",
    "swift": "account",
    "account": "account",
    "acct": "account",
    "email": "email",
    "mail": "email",
    "url": "url",
    "uri": "url",
    "link": "url",
    "href": "url",
    "website": "url",
    "webhook": "url",
    "endpoint": "url",
    "recipient": "recipient",
    "recipients": "recipient",
    "receiver": "recipient",
    "payee": "recipient",
    "beneficiary": "recipient",
    "cc": "recipient",
    "bcc": "recipient",
    "phone": "phone",
    "tel": "phone",
    # A password the user never gave is one an attacker chose.
    "password": "credential",
    "passwd": "credential",
    "passphrase": "credential",
    "pin": "credential",
    "secret": "credential",
    "token": "credential",
    "amount": "amount",
    "price": "amount",
}
# A sensitive word followed by one of these still names the value ("account_number", "email_address");
# followed by anything else it does not ("email_body" is free text, scanned by value instead).
ID_SUFFIXES = frozenset({"id", "ids", "number", "no", "nr", "address", "addr", "addresses", "name", "names", "list"})

VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("url", re.compile(r"(?:https?://|www\.)[^\s\"'<>)\]]+", re.IGNORECASE)),
    ("iban", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){8,30}\b")),
    ("account", re.compile(r"(?<![\d.])\d{8,}(?![\d.])")),
)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_SPLIT_KEY = re.compile(r"[_\-\s]+|(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class Finding:
    """A sensitive argument value found in no source. `path` is where it sits, e.g. `recipients[0]`."""

    path: str
    value: str
    kind: str

    def describe(self) -> str:
        return f"{self.path}={self.value!r} ({self.kind})"


def check_provenance(
    arguments: Mapping[str, Any], sources: Sequence[str], kinds: Iterable[str] = KINDS
) -> list[Finding]:
    """The sensitive values of `arguments` that occur in none of `sources` (the task, earlier results)."""
    wanted = set(kinds)
    known = "\n".join(sources)
    return [f for f in sensitive_values(arguments) if f.kind in wanted and not _occurs(f, known)]


def sensitive_values(arguments: Mapping[str, Any]) -> list[Finding]:
    """Every sensitive value in `arguments`, by key name first, then by what the value looks like."""
    found: list[Finding] = []
    for path, key_kind, value in _leaves(arguments, "", None):
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            if key_kind is not None and key_kind in ("amount", "account", "phone"):
                found.append(Finding(path, _number_text(value), key_kind))
            continue
        text = str(value).strip()
        if not text:
            continue
        matches = _pattern_matches(text)
        if key_kind is not None and (not matches or key_kind in ("credential", "amount")):
            found.append(Finding(path, text, key_kind))
            continue
        # A keyed value that holds identifiers ("friend's account GB29 NWBK ...") is judged by them: the
        # identifier must be seen, the words around it are the model's phrasing.
        found.extend(Finding(path, match, kind) for kind, match in matches)
    return found


def key_kind(key: str) -> str | None:
    """The kind a key name announces by its last word (`toIban` -> iban, `account_number` -> account)."""
    words = [w.lower() for w in _SPLIT_KEY.split(key) if w]
    while len(words) > 1 and words[-1] in ID_SUFFIXES:
        words.pop()
    return KEY_KINDS.get(words[-1]) if words else None


def _leaves(node: Any, path: str, kind: str | None) -> Iterator[tuple[str, str | None, Any]]:
    """(path, kind of the nearest sensitive key, leaf value) for every leaf of nested arguments."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            child = f"{path}.{key}" if path else str(key)
            yield from _leaves(value, child, key_kind(str(key)) or kind)
    elif isinstance(node, list | tuple):
        for index, value in enumerate(node):
            yield from _leaves(value, f"{path}[{index}]", kind)
    else:
        yield path, kind, node


def _pattern_matches(text: str) -> list[tuple[str, str]]:
    matches: list[tuple[str, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in VALUE_PATTERNS:
        for match in pattern.finditer(text):
            # An e-mail's domain is not also a URL; an IBAN's digits are not also an account number.
            if any(start <= match.start() < end for start, end in taken):
                continue
            taken.append(match.span())
            matches.append((kind, match.group().rstrip(".,;:")))
    return matches


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _occurs(finding: Finding, known: str) -> bool:
    if finding.kind == "amount" and _as_number(finding.value) is not None:
        target = _as_number(finding.value)
        return any(_as_number(m.group()) == target for m in _NUMBER.finditer(known))
    if finding.kind == "url":
        return any(_contains(known, form) for form in _url_forms(finding.value))
    return _contains(known, finding.value)


def _contains(known: str, value: str) -> bool:
    """Case-insensitive containment that ignores spaces and dashes; short values must stand as whole words."""
    squashed = _squash(value)
    if not squashed:
        return True
    if len(squashed) < 4:
        return re.search(rf"(?<!\w){re.escape(value.lower())}(?!\w)", known.lower()) is not None
    return squashed in _squash(known)


def _squash(text: str) -> str:
    return re.sub(r"[\s\-]+", "", text.lower())


def _url_forms(url: str) -> list[str]:
    bare = re.sub(r"^[a-z]+://", "", url.strip(), flags=re.IGNORECASE).rstrip("/")
    return [url, bare, bare.removeprefix("www.")]


def _as_number(text: str) -> float | None:
    cleaned = text.strip().lstrip("$€£").replace(",", "")
    try:
        return float(cleaned)
    except ValueError:
        return None


__all__ = ["BLOCKING_KINDS", "KINDS", "Finding", "check_provenance", "key_kind", "sensitive_values"]
