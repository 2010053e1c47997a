"""The day a task asks about, against a today it states: "tomorrow? today is 2023.10.1" asks about 2023-10-02.

The 0.5B model copies the one date the task writes in digits, whatever day the task asks about:
`date="2023.10.1"` for "the weather in New York tomorrow? today is 2023.10.1", `date="2023-10-10"` for "something
Tuesday next week ... Today is tuesday 2023.10.10", `date="2023.10.1"` for "the weather on the 4th of march 2023?
today is 2023.10.1" (BFCL live_multiple dev 676, 668, 682).

Where the task states today's date ("today is 2023.10.1", "assuming today is April 4th, 2023") and asks about one
other day, a date argument whose value is today's date (or a day word, "tomorrow"), or the only date argument
holding a past date the task never writes where it asks about a later day (`date="2023-04-01"` for "the upcoming
Monday, assuming today is April 4th, 2023", BFCL live_multiple dev 800), gets that day:

- a day word: "tomorrow", "the day after tomorrow";
- a weekday: "next Monday", "upcoming Wednesday", "this Friday" (the first such day after today), "Tuesday next
  week" (that day of the next week, weeks starting on Monday);
- another date the task writes ("on the 4th of march 2023"; "April 13th of next year", a month and day alone being
  in today's year or, where the task says "next year", the next).

A weekday the user gives for today counts over the calendar's: "the upcoming Wednesday, today is Monday April 25th
2023" asks about the 27th (BFCL's answer), though the 25th was a Tuesday. The day is written in the layout the
argument's docs name (`agentcore.dates`), else as YYYY-MM-DD. Two days asked about, or none, change nothing.
"""

from __future__ import annotations

import datetime
import re
from functools import partial
from typing import Any

from agentcore.dates import IN_WORDS, date_parts, documented_layout, written_date
from agentcore.formats import each_free_string

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_NUMERIC = r"\d{4}[-./]\d{1,2}[-./]\d{1,2}"
# "today is 2023.10.1", "Today is tuesday 2023.10.10", "today is 2023-10-1 monday", "today is Monday April 25th 2023"
_TODAY = re.compile(
    rf"\btoday(?:'s date)?\s+is\s+(?:{_WEEKDAY},?\s+)?(?P<date>{_NUMERIC}|{IN_WORDS.pattern})(?:,?\s+{_WEEKDAY})?",
    re.I,
)
_DAY_WORDS = {"the day after tomorrow": 2, "day after tomorrow": 2, "tomorrow": 1}
_NEXT_WEEKDAY = re.compile(rf"\b(next|upcoming|coming|this)\s+{_WEEKDAY}\b", re.I)
_WEEKDAY_NEXT_WEEK = re.compile(rf"\b{_WEEKDAY}\s+(?:of\s+)?next\s+week\b", re.I)
_OTHER_DATE = re.compile(rf"{_NUMERIC}|{IN_WORDS.pattern}", re.I)
_NEXT_YEAR = re.compile(r"\bnext year\b", re.I)


def _today(task: str) -> tuple[datetime.date, int, tuple[int, int]] | None:
    """Today's date as the task states it, the weekday it gives today (the calendar's where it gives none), and
    where the statement stands."""
    match = _TODAY.search(task)
    if match is None:
        return None
    parts = date_parts(match.group("date"), task)
    if parts is None:
        return None
    try:
        today = datetime.date(*parts)
    except ValueError:
        return None
    stated = next((g for g in (match.group(1), match.groups()[-1]) if g), None)
    weekday = _WEEKDAYS.index(stated.lower()) if stated else today.weekday()
    return today, weekday, match.span()


def asked_day(task: str) -> tuple[datetime.date, datetime.date] | None:
    """(today, the one other day the task asks about), where the task states today and asks about exactly one
    other day (module docs)."""
    found = _today(task)
    if found is None:
        return None
    today, weekday, (start, end) = found
    rest = f"{task[:start]} {task[end:]}"
    days = _asked_days(rest.lower(), today, weekday)
    return (today, days.pop()) if len(days) == 1 else None


def _asked_days(rest: str, today: datetime.date, weekday: int) -> set[datetime.date]:
    days: set[datetime.date] = set()
    for words, ahead in _DAY_WORDS.items():
        if re.search(rf"\b{words}\b", rest):
            days.add(today + datetime.timedelta(days=ahead))
            break  # "the day after tomorrow" holds "tomorrow"
    for match in _WEEKDAY_NEXT_WEEK.finditer(rest):
        ahead = 7 - weekday + _WEEKDAYS.index(match.group(1))
        days.add(today + datetime.timedelta(days=ahead))
    rest = _WEEKDAY_NEXT_WEEK.sub(" ", rest)
    for match in _NEXT_WEEKDAY.finditer(rest):
        ahead = (_WEEKDAYS.index(match.group(2)) - weekday) % 7 or 7
        days.add(today + datetime.timedelta(days=ahead))
    year = today.year + 1 if _NEXT_YEAR.search(rest) else today.year
    for match in _OTHER_DATE.finditer(rest):
        parts = date_parts(_dated(match, year), rest)
        if parts is not None and parts != (today.year, today.month, today.day):
            try:
                days.add(datetime.date(*parts))
            except ValueError:
                continue
    return days


def _dated(match: re.Match[str], year: int) -> str:
    """A date the task writes, with `year` where it is a month and day alone ("April 13th of next year")."""
    in_words = match.group("m1") or match.group("m2")
    return f"{match.group(0).rstrip(', ')} {year}" if in_words and not match.group("y") else match.group(0)


def on_asked_day(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each date argument that holds today's date, or a day word, set to the day the task asks
    about (module docs). The same dict when nothing changes."""
    asked = asked_day(task)
    if asked is None:
        return arguments
    dated = [v for v in arguments.values() if isinstance(v, str) and date_parts(v.strip(), task) is not None]
    on_day = partial(_on_day, today=asked[0], day=asked[1], task=task, alone=len(dated) == 1)
    return each_free_string(arguments, parameters, on_day)


def _on_day(
    value: str, schema: dict[str, Any], *, today: datetime.date, day: datetime.date, task: str, alone: bool
) -> str | None:
    description = str(schema.get("description", ""))
    documented = documented_layout(description)
    if documented is None and "date" not in description.lower():
        return None  # an argument that takes no date
    text = value.strip()
    if text.lower() not in _DAY_WORDS and text.lower() != "today" and not _stands_in(text, today, day, task, alone):
        return None
    return written_date(_parts_of(day), documented or ("ymd", "-"))


def _stands_in(text: str, today: datetime.date, day: datetime.date, task: str, alone: bool) -> bool:
    """Whether a date value stands where the asked day belongs: today's date, or, in the only date argument where
    the task asks about a later day, a past date it never writes ("2023-04-01" for "the upcoming Monday, assuming
    today is April 4th, 2023"). A later one may be the calendar's reading: "next Monday ... today is 2023-10-1
    monday" is answered 2023-10-09 (BFCL live_multiple dev 670), though that Monday's next is the 8th."""
    parts = date_parts(text, task)
    if parts is None or parts == _parts_of(day):
        return False
    return parts == _parts_of(today) or (alone and today < day and _parts_of(today) > parts and text not in task)


def _parts_of(day: datetime.date) -> tuple[int, int, int]:
    return day.year, day.month, day.day
