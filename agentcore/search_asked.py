"""A task that asks to find something calls a tool that finds, not one that acts.

Asked "Can you find a song from 2018 by Jess Glynne?" with `Music_3_LookupMusic` and `Music_3_PlayMedia` offered,
the 0.5B model plays a made-up track; asked "I'm looking for a Music event in Los Angeles this Saturday", it buys
tickets. A tool's name says which kind it is: a tool named by a finding verb ("Lookup", "Find", "Search", "get")
finds, one named by an acting verb ("Play", "Buy", "Reserve", "Add", "book") acts. On BFCL's dev ground truth
(multiple and live_multiple), of the 207 tasks that ask to find ("find", "search", "look up", "looking for",
"retrieve", "list", "show me", ...) while both kinds are offered, every one is answered by a finding tool.

So before any tool result, the first call of an acting tool, for a task that asks to find, is held back once
when a finding tool is offered; the next turn must call the finding tool of the same subject: the one whose name
shares most words with the chosen tool's (`Music_3_PlayMedia` -> `Music_3_LookupMusic`, not
`Media_3_FindMovies`), then most of the task's words. Where two tie, nothing is held.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentcore.messages import ToolSpec
from agentcore.tool_fit import stems
from agentcore.tool_kinds import ACTING, ASKS_TO_FIND, FINDING, acts, finds, name_words
from agentcore.unstated import tokens


def _stems(text: str) -> set[str]:
    """`tool_fit.stems` with a plural "s" taken off first: "song" and "songs" are one (four letters are no stem)."""
    return stems(" ".join(tokens(text)))


def _first_word(name: str) -> str:
    return re.split(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])", name.strip("_."))[0].lower()


def _act_first(acting: set[str], task: str, asked_at: int) -> bool:
    """Whether the task writes one of the chosen tool's acting words before it asks to find. Asked to find first
    ("Can you find a music event ...? I'd like to buy one ticket"), BFCL's dev answers find, 5 of 5 (forty-fifth
    stop; the act was let through wherever the task named it)."""
    found = [m.start() for word in acting for m in re.finditer(rf"\b{word}\b", task, re.I)]
    return bool(found) and min(found) < asked_at


def finder_for(task: str, chosen: ToolSpec, specs: Sequence[ToolSpec]) -> tuple[ToolSpec, str] | None:
    """The finding tool to call instead of `chosen`, an acting tool, for a task that asks to find (module docs),
    with the task's words that ask ("find", "looking for"); None where the task asks no such thing, `chosen` does
    not act, or no one finding tool is nearest."""
    asking = ASKS_TO_FIND.search(task)
    if not acts(chosen) or asking is None:
        return None
    if _act_first(name_words(chosen.name) & ACTING, task, asking.start()):
        return None  # "Play a track by Konshens ... Also, I'm looking for ...": the task asks for the act first
    finders = [spec for spec in specs if spec.name != chosen.name and finds(spec)]
    subject = _stems(" ".join(name_words(chosen.name) - ACTING))
    asked = _stems(task)

    def nearness(spec: ToolSpec) -> tuple[int, int]:
        kin = len(_stems(" ".join(name_words(spec.name) - FINDING)) & subject)
        namespace = _first_word(spec.name) == _first_word(chosen.name)  # one API's tools: "Music_3_..."
        return len(asked & _stems(f"{spec.name} {spec.description}")), kin + namespace

    ranked = sorted(finders, key=nearness, reverse=True)
    if not ranked or (len(ranked) > 1 and nearness(ranked[0]) == nearness(ranked[1])):
        return None
    return ranked[0], asking.group(0).lower()
