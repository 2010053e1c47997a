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


def _day_keys(date: str) -> set[str]:
    """The days a date in digits may be, as "YYYY-MM-DD": "2023-9-1" and "2023-09-01" alike, and "3/1/2022" or
    "03-01-2022" as March 1 or January 3 (a call may have written it either way)."""
    parts = [int(p) for p in re.split(r"[-/]", date)]
    if parts[0] > 31:
        return {f"{parts[0]}-{parts[1]:02d}-{parts[2]:02d}"}
    year = parts[2] + 2000 if parts[2] < 100 else parts[2]
    return {f"{year}-{parts[0]:02d}-{parts[1]:02d}", f"{year}-{parts[1]:02d}-{parts[0]:02d}"}
