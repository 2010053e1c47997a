"""An arithmetic argument that runs on: one operation repeated to the end of the string.

A 0.5B model in a decoding loop writes `5 * 2 * 2 * 2 * ...` until max_tokens cuts the string, often on a
dangling operator (compose10's h16, "How many liters do 5 jugs of 2 gallons hold?"). No one means a hundred
doublings: the loop repeats the last thing written. So an argument whose tail repeats one operation on one number
MIN_REPEATS times or more, to its end, goes with that operation once (`5 * 2`), and the checks that read the
call then see what the model was writing (here the stale check: 2 is the jug's gallons, not its liters).
"""

from __future__ import annotations

import re
from typing import Any

MIN_REPEATS = 6  # "2 * 2 * 2 * 2 * 2" (2 to the 5th) is written by hand; more, to the end, is a loop
_UNIT = r"\s*[-+*/]\s*\d+(?:\.\d+)?"
_RUNS_ON = re.compile(rf"^(?P<head>.*?)(?P<unit>{_UNIT})(?:(?P=unit)){{{MIN_REPEATS - 1},}}\s*[-+*/]?\s*$", re.DOTALL)


def cut_short(arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` with each string that runs on cut to its repeated operation once; the same dict if none."""
    fixed = {key: _once(value) if isinstance(value, str) else value for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _once(value: str) -> str:
    match = _RUNS_ON.match(value)
    return f"{match.group('head')}{match.group('unit')}".strip() if match else value
