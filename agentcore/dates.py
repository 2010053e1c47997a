"""A date written in another order than its argument's docs ask for: "2022/08/16" where the docs say "The date
(month-day-year)", or "03/17/1915" where they say "in YYYY-MM-DD format".

The 0.5B model copies a date as the task writes it whatever the docs say. Where an argument's docs name one date
layout (YYYY-MM-DD, MM-DD-YYYY, MM/DD/YYYY, DD-MM-YYYY, DD/MM/YYYY, or the words "month-day-year"), and the value
is a plain date whose day, month and year can be told apart, the call runs with the date in the documented layout.
A date whose day and month could be swapped ("03/04/2022") is read month first only when the docs ask for a layout
with the year first, as a US task writes it; any other value (a time, a range, a month alone) is left as written.

A date with its month in words ("21 June 2024", "March 4th, 2024") goes in the layout too; one without its year
("1 June", for "Days from 1 June to 21 June 2024": independent1's ar28, whose date_diff failed twice on it) takes
the one year the task writes.
"""

from __future__ import annotations

import datetime
import re
from functools import partial
from typing import Any

from agentcore.formats import each_free_string

# The documented layouts, as (order, separator): "ymd", "mdy" or "dmy".
_LAYOUTS = (
    (re.compile(r"\byyyy([-/.])mm\1dd\b", re.I), "ymd"),
    (re.compile(r"\bmm([-/.])dd\1yyyy\b", re.I), "mdy"),
    (re.compile(r"\bdd([-/.])mm\1yyyy\b", re.I), "dmy"),
    (re.compile(r"\bmonth([-/])day\1year\b", re.I), "mdy"),
    (re.compile(r"\bday([-/])month\1year\b", re.I), "dmy"),
    (re.compile(r"\byear([-/])month\1day\b", re.I), "ymd"),
)
_YEAR_FIRST = re.compile(r"(\d{4})([-/.])(\d{1,2})\2(\d{1,2})")
_YEAR_LAST = re.compile(r"(\d{1,2})([-/.])(\d{1,2})\2(\d{4})")
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")  # fmt: skip
_MONTHS = {name: number for number, month in enumerate(_MONTH_NAMES, 1) for name in (month, month[:3])} | {"sept": 9}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ORDINAL = r"(?:st|nd|rd|th)?"
# A date with its month in words: "2nd of August 2025", "March 4th, 2024", "1 June".
IN_WORDS = re.compile(
    rf"(?:(?P<d1>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<m1>{_MONTH})\.?|(?P<m2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}}){_ORDINAL})"
    rf",?(?:\s+(?P<y>\d{{4}}))?",
    re.IGNORECASE,
)


def documented_layout(description: str) -> tuple[str, str] | None:
    """(order, separator) of the one date layout `description` names, or None when it names none or several."""
    found = {(order, match.group(1)) for pattern, order in _LAYOUTS for match in pattern.finditer(description)}
    return found.pop() if len(found) == 1 else None


def _in_words(value: str, task: str) -> tuple[int, int, int] | None:
    """(year, month, day) of a date with its month in words; its year the task's one year where it writes none."""
    match = IN_WORDS.fullmatch(value)
    if match is None:
        return None
    day = int(match.group("d1") or match.group("d2"))
    month = _MONTHS[(match.group("m1") or match.group("m2")).lower()]
    year = int(match.group("y")) if match.group("y") else _task_year(task, month)
    if year is None:
        return None
    try:
        datetime.date(year, month, day)
    except ValueError:  # "30 February": no date to write
        return None
    return year, month, day


def _task_year(task: str, month: int) -> int | None:
    """The year of the task's one dated month-word date, where that date's month is not before `month`: "1 June to
    21 June 2024" gives 2024 to "1 June"; "Dec 20 to Jan 5 2025" gives none (the range crosses a year)."""
    dated = [m for m in IN_WORDS.finditer(task) if m.group("y")]
    if len({m.group("y") for m in dated}) != 1:
        return None
    last = dated[-1]
    later = _MONTHS[(last.group("m1") or last.group("m2")).lower()]
    return int(last.group("y")) if later >= month else None


def _parts(value: str, year_first_docs: bool, task: str = "") -> tuple[int, int, int] | None:
    """(year, month, day) of a plain date, or None when it is no date or its day and month cannot be told apart."""
    named = _in_words(value, task)
    if named is not None:
        return named
    match = _YEAR_FIRST.fullmatch(value)
    if match:
        year, month, day = int(match.group(1)), int(match.group(3)), int(match.group(4))
    else:
        match = _YEAR_LAST.fullmatch(value)
        if match is None:
            return None
        first, second, year = int(match.group(1)), int(match.group(3)), int(match.group(4))
        if first > 12 >= second:
            day, month = first, second
        elif second > 12 >= first or year_first_docs:  # a US task writes the month first
            month, day = first, second
        else:
            return None
    return (year, month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None


def date_parts(value: str, task: str = "") -> tuple[int, int, int] | None:
    """(year, month, day) of a plain date in any layout ("2023.10.1", "4th of March 2023"), read month first
    where day and month could be swapped; its year the task's where it writes none."""
    return _parts(value.strip(), True, task)


def written_date(parts: tuple[int, int, int], layout: tuple[str, str]) -> str:
    year, month, day = parts
    order, sep = layout
    fields = {"y": f"{year:04d}", "m": f"{month:02d}", "d": f"{day:02d}"}
    return sep.join(fields[key] for key in order)


def in_documented_layout(arguments: dict[str, Any], parameters: dict[str, Any], task: str = "") -> dict[str, Any]:
    """`arguments` with each top-level date string written in the layout its docs name (a year left out taken
    from `task`). The same dict when nothing changes."""
    return each_free_string(arguments, parameters, partial(_in_layout, task=task))


def _in_layout(value: str, schema: dict[str, Any], task: str = "") -> str | None:
    layout = documented_layout(str(schema.get("description", "")))
    parts = _parts(value.strip(), layout[0] == "ymd", task) if layout else None
    return written_date(parts, layout) if layout and parts else None


def task_dates(task: str) -> list[tuple[int, int, int]]:
    """(year, month, day) of each full date the task writes, in words with a year ("the 5th of May 1995") or in
    digits with the year first ("1995-05-05"), in order."""
    found = [(m.start(), _in_words(m.group(), task)) for m in IN_WORDS.finditer(task) if m.group("y")]
    found += [(m.start(), _parts(m.group(), True)) for m in _YEAR_FIRST.finditer(task)]
    return [parts for _, parts in sorted(found, key=lambda item: item[0]) if parts is not None]
