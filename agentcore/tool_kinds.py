"""Which tools find and which act, by the verbs of their names; and whether a task asks to find.

A tool named by a finding verb ("Lookup", "Find", "Search", "get") finds, one named by an acting verb ("Play",
"Buy", "Reserve", "Add", "book") acts (agentcore.search_asked; agentcore.tool_fit breaks a tie between tools by
it). Kept apart from both so that neither imports the other.
"""

from __future__ import annotations

import re

from agentcore.messages import ToolSpec

ASKS_TO_FIND = re.compile(
    r"\b(?:find|search|look(?:ing)?\s+(?:up|for)|lookup|locate|retrieve|list|show\s+me|discover|explore|check)\b",
    re.I,
)
FINDING = frozenset({"find", "search", "lookup", "get", "list", "retrieve", "check", "fetch", "query", "show"})
ACTING = frozenset(
    {"play", "buy", "book", "reserve", "add", "schedule", "set", "send", "make", "create", "delete", "remove",
     "update", "order", "pay", "transfer", "cancel", "rent", "post", "submit", "share", "purchase", "register"}
)  # fmt: skip


def name_words(name: str) -> set[str]:
    """The words of a tool's or an argument's name: "Music_3_PlayMedia" is music, play, media; "meetingID" is
    meeting, id."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return {word.lower() for word in re.findall(r"[A-Za-z]+", spaced)}


# Name words that say how, not what: a tool called get_x or calculate_x is named by its x.
GENERIC_NAME_WORDS = frozenset(
    {"get", "set", "calculate", "compute", "find", "fetch", "retrieve", "search", "lookup", "default", "function",
     "info", "data", "the", "and", "for"}
)  # fmt: skip


def name_parts(name: str) -> tuple[str, ...]:
    """The words of a tool's name that say what it is about, in order: "lawsuit_details.find" is lawsuit and
    details; "get_current_weather" is current and weather."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower()
    words = [w for w in re.findall(r"[a-z0-9]+", spaced) if len(w) > 2 and w not in GENERIC_NAME_WORDS]
    return tuple(dict.fromkeys(words))


def asks_to_find(task: str) -> bool:
    return ASKS_TO_FIND.search(task) is not None


def finds(spec: ToolSpec) -> bool:
    words = name_words(spec.name)
    return bool(words & FINDING) and not words & ACTING


def acts(spec: ToolSpec) -> bool:
    words = name_words(spec.name)
    return bool(words & ACTING) and not words & FINDING
