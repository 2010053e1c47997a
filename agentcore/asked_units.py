"""An answer in the unit its tool counts in, where the task asks for another: "How many weeks are there between
2024-05-01 and 2024-08-28?" answered 119, the days that `date_diff` ("Count the days between two dates") returned.

The 0.5B model takes a tool's number for the answer whatever unit the question asks in. Units of time are the
case where the tool's docs fix the unit (a converter takes its units as arguments): when the task asks for one
("how many weeks", "in hours") and the tool whose result the answer repeats says it counts another, and never
names the asked one, the answer goes back with both units named (`answer_checks.unit_check`).
"""

from __future__ import annotations

import re

TIME_UNITS = ("second", "minute", "hour", "day", "week", "month", "year")
_UNIT = "|".join(TIME_UNITS)
# "how many weeks", "the number of hours", "in minutes", "in weeks?" - the unit the task asks its answer in.
# Plural only: "Second date" is an ordinal, and a tool that counts days says "days".
_ASKED = re.compile(rf"\b(?:how many|number of|in)\s+({_UNIT})s\b", re.IGNORECASE)


def _units(text: str) -> set[str]:
    return {match.lower() for match in re.findall(rf"\b({_UNIT})s\b", text, re.IGNORECASE)}


def asked_unit(task: str, docs: str) -> tuple[str, str] | None:
    """(the unit the task asks for, the unit the docs count in), both plural, when they differ and the docs never
    name the asked one; else None."""
    asked = {match.lower() for match in _ASKED.findall(task)}
    counted = _units(docs)
    if len(asked) != 1 or len(counted) != 1 or asked & counted:
        return None
    return f"{asked.pop()}s", f"{counted.pop()}s"
