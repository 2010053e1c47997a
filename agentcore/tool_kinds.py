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


def asks_to_find(task: str) -> bool:
    return ASKS_TO_FIND.search(task) is not None


def finds(spec: ToolSpec) -> bool:
    words = name_words(spec.name)
    return bool(words & FINDING) and not words & ACTING


def acts(spec: ToolSpec) -> bool:
    words = name_words(spec.name)
    return bool(words & ACTING) and not words & FINDING
