"""A time written in another layout than its argument's docs name: "10:00 AM" where they say "in the format
'HH:MM'", "2024-03-19 12:00" where they say "'YYYY-MM-DD HH:mm:ss'", "03:00" for the task's "3:00 p.m.".

The 0.5B model copies a time as the task writes it, or drops its half of the day. Where an argument's docs name
one time layout (HH:MM, HH:MM:SS, or either with AM/PM) and the value ends in a plain time, the call runs with that
time in the documented layout, whatever comes before it (a date) kept as written. An hour the value writes without
AM or PM takes the half of the day the task writes for that same time ("3:00 p.m." makes "03:00" 15:00, and "4:30
in the afternoon" makes "04:30" 16:30, forty-fifth stop); a time the task does not write is taken as written.
Any other value (a range, a duration, a time in words) is left alone.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any, NamedTuple

from agentcore.formats import each_free_string

# The documented layout: "HH:MM", "HH:mm:ss", "hh:mm AM/PM".
_LAYOUT = re.compile(r"\bhh:mm(?P<seconds>:ss)?(?P<half>\s*(?:am|a\.m\.|\[?am/pm\]?|pm))?\b", re.I)
# A value's time, at its end: "15:00", "2:30 PM", "2024-03-19 12:00", "10 a.m.".
_TIME = re.compile(
    r"(?P<head>^|.*?[\sT])(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?::(?P<second>\d{2}))?"
    r"\s*(?P<half>[ap]\.?m\.?)?$",
    re.I,
)
# A time the task writes with its half of the day: "3:00 p.m.", "10am", "2:30 PM".
# Its half of the day in words: "5 in the afternoon", "7:30 in the evening", "10 o'clock in the morning".
_HALF_WORDS = r"(?:o'clock\s+)?(in the morning|in the afternoon|in the evening|at night|tonight)"
_TASK_TIME = re.compile(rf"\b(\d{{1,2}})(?::(\d{{2}}))?\s*(?:([ap])\.?m\b\.?|{_HALF_WORDS})", re.I)


def _half(letter: str | None, words: str | None) -> str:
    """ "a", "p" or "" for a time's half of the day as the task writes it ("pm", "in the evening")."""
    if letter:
        return letter.lower()
    return ("a" if "morning" in words.lower() else "p") if words else ""


class Layout(NamedTuple):
    seconds: bool  # "HH:mm:ss"
    twelve_hour: bool  # "HH:MM AM/PM"


def documented_time(description: str) -> Layout | None:
    """The one time layout `description` names, or None when it names none or several."""
    found = {Layout(bool(m.group("seconds")), bool(m.group("half"))) for m in _LAYOUT.finditer(description)}
    return found.pop() if len(found) == 1 else None


def _task_half(hour: int, minute: int, task: str) -> str | None:
    """ "a" or "p" where the task writes `hour`:`minute` (12-hour) with one half of the day only, else None."""
    halves = {
        _half(letter, words)
        for h, m, letter, words in _TASK_TIME.findall(task)
        if int(h) % 12 == hour % 12 and int(m or 0) == minute
    }
    return halves.pop() if len(halves) == 1 else None


def _in_layout(value: str, schema: dict[str, Any], task: str = "") -> str | None:
    layout = documented_time(str(schema.get("description", "")))
    match = _TIME.fullmatch(value.strip()) if layout else None
    if layout is None or match is None or (match.group("minute") is None and match.group("half") is None):
        return None  # "15" alone is no time
    hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
    half = (match.group("half") or "")[:1].lower() or (_task_half(hour, minute, task) if hour <= 12 else None)
    if (half and not 1 <= hour <= 12) or hour > 23 or minute > 59:
        return None
    hour = hour % 12 + 12 if half == "p" else hour % 12 if half == "a" else hour
    written = _written(hour, minute, int(match.group("second") or 0), layout)
    head = match.group("head")
    if _DATE_HEAD.fullmatch(head) and not _DATE_WORDS.search(str(schema.get("description", ""))):
        head = ""  # a time argument's date: `time="2021-08-15 20:00"` beside `date` (forty-sixth stop)
    fixed = f"{head}{written}"
    return fixed if fixed != value else None


# A date before a value's time ("2021-08-15 ", "08/15/2021T"), and docs that ask for a date with the time.
_DATE_HEAD = re.compile(r"\s*\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}[\sT]")
_DATE_WORDS = re.compile(r"\b(?:date|day|yyyy|yy|dd|datetime|timestamp)\b", re.I)


def _written(hour: int, minute: int, second: int, layout: Layout) -> str:
    if layout.twelve_hour:
        return f"{hour % 12 or 12:02d}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"
    return f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if layout.seconds else "")


def in_documented_time(arguments: dict[str, Any], parameters: dict[str, Any], task: str = "") -> dict[str, Any]:
    """`arguments` with each top-level string that ends in a time written in the time layout its docs name (the
    half of the day taken from `task` where the value has none). The same dict when nothing changes."""
    return each_free_string(arguments, parameters, partial(_in_layout, task=task))


# A clock time the task writes: "13:30", "2:30 PM", "10am", "5 in the afternoon" (an hour alone needs its half
# of the day).
_CLOCK = re.compile(rf"\b(\d{{1,2}})(?::(\d{{2}}))?(?::\d{{2}})?\s*(?:([ap])\.?m\b\.?|{_HALF_WORDS})?", re.I)
_PLAIN = re.compile(r"(\d{1,2}):(\d{2})(:\d{2})?")


def _task_clocks(task: str) -> set[tuple[int, int, bool]]:
    """The clock times `task` writes, as (hour 0-23, minute, whether its half of the day is written); an hour
    without AM or PM as written."""
    found = set()
    for match in _CLOCK.finditer(task):
        hour, minute, half = int(match.group(1)), match.group(2), _half(match.group(3), match.group(4))
        if (minute is None and not half) or hour > 23 or int(minute or 0) > 59:
            continue
        day_hour = hour % 12 + 12 if half == "p" else hour % 12 if half == "a" else hour
        found.add((day_hour, int(minute or 0), bool(half)))
    return found


# The clock of a date and time: "2023-11-01T14:00:00Z", "2024-03-12 16:00:00", "20/06/2022 15:00".
_DATED = re.compile(r"(\d{4}-\d{1,2}-\d{1,2}[T ]|\d{1,2}/\d{1,2}/\d{2,4} )(\d{1,2}):(\d{2})((?::\d{2})?.*)")


def as_task_time(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with a time that the task does not write, where it writes one time only, set to that time:
    "a table ... at 13:30 for 4 people" called with `time="14:30"` (BFCL live_multiple dev 850), and the clock of
    a date and time too, "to November 1, 2023 at 4pm London time" called with `dateOrTime="2023-11-01T14:00:00Z"`
    (BFCL live_simple dev 138; forty-sixth stop). Only a plain "HH:MM" value of an argument named or documented as
    a time, or a date and time in an argument named or documented as either; an hour the task writes without its
    half of the day matches either half, one it writes with its half ("11 PM") only that half. Where some value
    already holds the task's time, the others are other times ("from 9:00 for 3 hours": an end at 12:00) and stay.
    The same dict when nothing changes."""
    clocks = _task_clocks(task)
    if len(clocks) != 1:
        return arguments
    (hour, minute, exact), properties = clocks.pop(), parameters.get("properties") or {}
    found = {name: _clock_of(value, name, properties.get(name)) for name, value in arguments.items()}
    clocked = {name: parts for name, parts in found.items() if parts is not None}
    if any(_same_time(int(h), int(m), hour, minute, exact) for _, h, m, _ in clocked.values()):
        return arguments
    fixed = dict(arguments)
    for name, (before, _, _, after) in clocked.items():
        fixed[name] = f"{before}{hour:02d}:{minute:02d}{after}"
    return fixed if fixed != arguments else arguments


def _clock_of(value: Any, name: str, schema: Any) -> tuple[str, str, str, str] | None:
    """(text before the clock, hour, minute, text after) of a time or date-and-time value of a time or date
    argument; None for any other value."""
    if not isinstance(value, str) or not isinstance(schema, dict):
        return None
    plain = _PLAIN.fullmatch(value.strip())
    if plain is not None:
        return ("", plain.group(1), plain.group(2), plain.group(3) or "") if _names_time(name, schema) else None
    dated = _DATED.fullmatch(value.strip())
    if dated is None or not (_names_time(name, schema) or "date" in f"{name} {schema.get('description', '')}".lower()):
        return None
    if re.search(r"[ap]\.?m\b", dated.group(4), re.I):
        return None  # a 12-hour clock: its layout is `in_documented_time`'s
    return dated.group(1), dated.group(2), dated.group(3), dated.group(4)


def _same_time(hour: int, minute: int, task_hour: int, task_minute: int, exact: bool) -> bool:
    """Whether a value's clock is the task's: to the hour where the task writes its half of the day ("11 PM" is
    no 11:00; BFCL live_multiple dev 950), either half where it does not."""
    return minute == task_minute and (hour == task_hour if exact else hour % 12 == task_hour % 12)


def _names_time(name: str, schema: dict[str, Any]) -> bool:
    return "time" in name.lower() or documented_time(str(schema.get("description", ""))) is not None
