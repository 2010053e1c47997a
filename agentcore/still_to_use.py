"""What the task still has to use when an answer only restates the last tool result: the numbers no call took,
and the dates written in digits that no call took (texts, kept apart from the numbers that other checks compare
as numbers). Moved out of `agentcore.unfinished`, which reads the numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.unfinished import DATE_IN_DIGITS, leaves, repeats_result, unused_numbers


def premature(task: str, answer: str, result: str, calls: Sequence[dict[str, Any]]) -> list[str]:
    """The numbers still to use, when the answer only restates the last tool result (it brings no number of its
    own) and some number of the task went into no call; else []."""
    if not calls or not repeats_result(task, answer, result):
        return []
    return unused_dates(task, calls) + unused_numbers(task, calls)


def unused_dates(task: str, calls: Sequence[dict[str, Any]]) -> list[str]:
    """The task's dates in digits that no call took, once any call took one (texts, not numbers: only the
    unfinished notice names them): "from 2023-09-01 to 2024-01-20" of a second project after only the first one's
    days were counted (independent8's ca20 was told only that the 2 of
    "the two projects" was still to use, and added it)."""
    taken = {key for a in calls for v in leaves(a) if isinstance(v, str) for m in DATE_IN_DIGITS.finditer(v) for key in
             _day_keys(m.group())}  # fmt: skip
    if not taken:
        return []
    return [m.group() for m in DATE_IN_DIGITS.finditer(task) if not _day_keys(m.group()) & taken]


def next_dates(task: str, arguments: dict[str, Any]) -> dict[str, str] | None:
    """The arguments of a call whose dates are a run of the task's dates in digits, moved on to the run of as many
    dates written right after it, in the same order; None where a date of the call is not the task's or too few
    follow. "How many days from 2024-01-01 to 2024-03-15, how many from 2024-03-15 to 2024-12-25": the first count
    repeated runs as the second (independent14's cg21)."""
    written = [m.group() for m in DATE_IN_DIGITS.finditer(task)]
    dated = [(k, v) for k, v in arguments.items() if isinstance(v, str) and DATE_IN_DIGITS.fullmatch(v.strip())]
    places: list[int] = []
    for _, value in dated:
        place = next(
            (i for i, date in enumerate(written) if i not in places and _day_keys(date) & _day_keys(value)), None
        )
        if place is None:
            return None
        places.append(place)
    start = max(places, default=-1) + 1
    following = written[start : start + len(dated)]
    if not dated or len(following) < len(dated):
        return None
    order = sorted(range(len(dated)), key=lambda i: places[i])
    return {**arguments, **{dated[i][0]: following[rank] for rank, i in enumerate(order)}}


def _day_keys(date: str) -> set[str]:
    """The days a date in digits may be, as "YYYY-MM-DD": "2023-9-1" and "2023-09-01" alike, and "3/1/2022" or
    "03-01-2022" as March 1 or January 3 (a call may have written it either way)."""
    parts = [int(p) for p in re.split(r"[-/]", date)]
    if parts[0] > 31:
        return {f"{parts[0]}-{parts[1]:02d}-{parts[2]:02d}"}
    year = parts[2] + 2000 if parts[2] < 100 else parts[2]
    return {f"{year}-{parts[0]:02d}-{parts[1]:02d}", f"{year}-{parts[1]:02d}-{parts[0]:02d}"}
