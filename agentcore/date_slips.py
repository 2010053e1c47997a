"""A date the task writes, copied into a call with another day of the same month.

Asked for the days "from the 5th of May 1995 ... until the 30th of September 2030", Qwen2.5-Coder-0.5B called
`date_diff(start="1995-05-01", end="2030-09-30")` (forty-ninth stop, trap1 dev pa29): writing a date in words as
digits, it kept the year and month and lost the day. Where a call takes as many dates as the task writes, every
one of them the task's but one, and that one has the year and month of the one task date left, it goes as that
date. A call with a single date is left alone: "the day after 5 May 1995" asks for a day of the same month.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.dates import date_parts, task_dates

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def on_task_dates(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with one miscopied YYYY-MM-DD date written as the task's; the same dict when none is.
    (`parameters` is unused: a form of `call_forms`, read off the task alone.)"""
    dates = {name: parts for name, parts in _iso_dates(arguments).items() if parts is not None}
    written = task_dates(task)
    if len(dates) < 2 or len(dates) != len(written):
        return arguments
    slipped = [name for name, parts in dates.items() if parts not in written]
    left = [parts for parts in written if parts not in dates.values()]
    if len(slipped) != 1 or len(left) != 1 or dates[slipped[0]][:2] != left[0][:2]:
        return arguments
    year, month, day = left[0]
    return {**arguments, slipped[0]: f"{year:04d}-{month:02d}-{day:02d}"}


def _iso_dates(arguments: dict[str, Any]) -> dict[str, tuple[int, int, int] | None]:
    return {name: date_parts(v) for name, v in arguments.items() if isinstance(v, str) and _ISO.fullmatch(v)}
