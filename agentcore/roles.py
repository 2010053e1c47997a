"""A value the task names next to an argument's own word belongs in that argument.

A 0.5B model mixes up arguments of one type: "a movie that stars Jennifer Connelly ... with Jim Henson as the
director" called with `directed_by="Jennifer Connelly", cast="Jim Henson"`; "my employees database on
personal_data table" with `db_name="personal_data", table="employees"`; "an album called Prequelle" with
`artist="Prequelle", album="Prequelle"`; "Pop songs from 2013" with `album="2013", year=2013`. The task says
where each value goes: the word nearest the value (within a few words, in the same sentence) that is distinctive
of one argument, a word of its name or docs that the other argument's name and docs lack ("director" for
`directed_by`, "table" for `table`), or a word of four letters or more that starts one ("user" of `username`:
without it "player statistics of 'Zelda' for user 'Sam'" sent 'Zelda' to the username, BFCL multiple_180; on
BFCL's dev ground truth this left 5 of 956 calls swapped wrongly, where it left 6). The docs' quoted examples and
the values themselves are not such words: read as one, 'men' in "It can be either 'men' or 'women'" sent
"Germany's men soccer team" to the gender. A time or date stays in an argument documented as one (`_fits_own`,
forty-fifth stop): 6 dev ground-truth calls were swapped wrongly at its start (a time sent to an alarm's name),
4 are now.

- Two values the task writes, neither named for its own argument and one named for the other's, are swapped
  (never into an enum, which takes only its own values).
- A value written once in the task and given to two arguments stays in the one it is named for, and leaves an
  optional other; where the task names neither, it stays in the one whose choices hold it and leaves an optional
  free string (forty-fifth stop: `album="2021", year="2021"`).
- A number the task writes, given to a number argument and again as a string to an optional one, leaves the
  string one.
- A value the task writes right after another free string's name ("the album Borbena"), where the model left
  that one out, goes there too (forty-fifth stop; `_moved_to_named`).
- A route's ends go where "from" and "to" put them: "traffic from Las Vegas to Los Angeles" called with
  `start_location="Los Angeles", end_location="Las Vegas"` runs with the two swapped (thirty-ninth stop; BFCL
  multiple_66). Only a pair named alike but for its start and end word (`start_location`, `end_location`;
  `origin`, `destination`), each value written right after the other's word. "from" and "to" are function words,
  so the nearest-word reading above never sees them. On BFCL's dev ground truth no such pair of the 44 that
  calls fill would be swapped.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from agentcore.doc_choices import documented_values
from agentcore.tool_fit import stems
from agentcore.tool_kinds import name_words
from agentcore.unfinished import BARE_NUMBER
from agentcore.unstated import NO_PREFERENCE

_TOKEN = re.compile(r"[a-z0-9_]+|[.?!;]")
NEAR = 4  # words either side of a value that may name its argument


def _marks(name: str, schema: Any, other: str, other_schema: Any) -> set[str]:
    """The stems of an argument's name and docs that the other argument's lack ("director", "directed": one)."""
    return stems(f"{name} {_docs(schema)}") - stems(f"{other} {_docs(other_schema)}")


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _docs(schema: Any) -> str:
    """An argument's description less its quoted examples: 'men' or 'women' are values, not what names one."""
    return _QUOTED.sub(" ", str(schema.get("description", ""))) if isinstance(schema, dict) else ""


def _starts(value: str, tokens: list[str]) -> list[int]:
    """Where `value`'s words stand, in order, among `tokens` (the task's)."""
    span = _TOKEN.findall(value.lower())
    return [i for i in range(len(tokens) - len(span) + 1) if span and tokens[i : i + len(span)] == span]


def _role(value: str, task: str, marks: dict[str, set[str]]) -> str | None:
    """The argument whose distinctive word is nearest to `value` in `task`, if exactly one is nearest."""
    tokens = _TOKEN.findall(task.lower())
    starts = _starts(value, tokens)
    if len(starts) != 1:
        return None  # written twice or not at all: no one place to read
    span = len(_TOKEN.findall(value.lower()))
    best: dict[str, int] = {}
    for index in _window(tokens, starts[0], starts[0] + span):
        for name, words in marks.items():
            if _names(tokens[index], words):
                distance = min(abs(index - starts[0]), abs(index - starts[0] - span + 1))
                best[name] = min(best.get(name, distance), distance)
    if not best:
        return None
    nearest = min(best.values())
    named = [name for name, distance in best.items() if distance == nearest]
    return named[0] if len(named) == 1 else None


def _names(token: str, marks: set[str]) -> bool:
    """Whether a word of the task is one of an argument's distinctive stems, or starts one ("user" of
    "username", which is one word to `stems`: "for user 'Sam'" names `username`)."""
    return any(mark.startswith(stem) for stem in stems(token) if len(stem) >= _PREFIX for mark in marks) or bool(
        stems(token) & marks
    )


_PREFIX = 4  # a shorter word ("age", "art") starts too many others


def _window(tokens: list[str], start: int, end: int) -> list[int]:
    """The indices within NEAR words of tokens[start:end], not across a sentence's end."""
    found = []
    for step, limit in ((-1, max(0, start - NEAR) - 1), (1, min(len(tokens), end + NEAR))):
        index = start - 1 if step < 0 else end
        while index != limit and tokens[index] not in ".?!;":
            found.append(index)
            index += step
    return found


_START = re.compile(r"(?:^|_)(start|origin|from|source|departure|begin)(?:_|$)", re.IGNORECASE)
_END = re.compile(r"(?:^|_)(end|destination|to|target|arrival|finish)(?:_|$)", re.IGNORECASE)


def _route(a: str, b: str) -> bool:
    """Whether `a` names a route's start and `b` its end, alike but for that word ("origin" and "destination" are
    alike as they stand)."""
    start, end = _START.search(a), _END.search(b)
    return bool(start and end) and _START.sub("_", a) == _END.sub("_", b)


def _after(word: str, value: str, tokens: list[str]) -> bool:
    """Whether `value` (its first comma part: "Las Vegas" of "Las Vegas, NV") is written once, right after `word`."""
    starts = _starts(value.split(",", maxsplit=1)[0], tokens)
    return len(starts) == 1 and starts[0] > 0 and tokens[starts[0] - 1] == word


def _route_order(fixed: dict[str, Any], task: str) -> None:
    """A route's start and end swapped back where the task writes "from <end> ... to <start>"."""
    tokens = _TOKEN.findall(task.lower())
    for a, b in [(a, b) for a in fixed for b in fixed if a != b and _route(a, b)]:
        start, end = fixed[a], fixed[b]
        if (
            isinstance(start, str)
            and isinstance(end, str)
            and _after("from", end, tokens)
            and _after("to", start, tokens)
        ):
            fixed[a], fixed[b] = end, start


def in_named_places(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each pair of same-typed values in the arguments the task names them for (see above)."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    fixed = dict(arguments)
    _route_order(fixed, task)
    for a, b in combinations([k for k in arguments if isinstance(properties.get(k), dict)], 2):
        if a in fixed and b in fixed:
            _place(fixed, (a, b), properties, required, task)
    _moved_to_named(fixed, properties, required, task)
    return fixed if fixed != arguments else arguments


def _moved_to_named(fixed: dict[str, Any], properties: dict[str, Any], required: set[str], task: str) -> None:
    """A value in a free string that the task writes right after another, left-out free string's name (or one
    holding its default, or "any") goes there (and stays where it is required): "a track from the album Borbena by
    Teodora" called with `track="Borbena"` and no album runs with `album="Borbena"` too (BFCL live_multiple dev
    834). On BFCL's dev ground truth this moves no value."""
    tokens = _TOKEN.findall(task.lower())
    free = [k for k, schema in properties.items() if isinstance(schema, dict) and _free_string(schema)]
    for a in [k for k in free if k in fixed and isinstance(fixed[k], str)]:
        before = _word_before(fixed[a], tokens)
        named = [b for b in free if _left_out(b, fixed, properties) and before in _name_words(b) - _name_words(a)]
        if len(named) == 1:  # a required argument keeps its value too: the task gave nothing else for it
            fixed[named[0]] = fixed[a] if a in required else fixed.pop(a)


def _left_out(name: str, fixed: dict[str, Any], properties: dict[str, Any]) -> bool:
    """Whether the call leaves an argument out, or writes its default or no preference there (`album="any"`)."""
    value = fixed.get(name)
    return value is None or (isinstance(value, str) and _default_of(value, properties[name]))


def _word_before(value: str, tokens: list[str]) -> str | None:
    """The word the task writes right before `value` (written once), past "the", "a" and "an"."""
    starts = _starts(value, tokens)
    if len(starts) != 1:
        return None
    index = starts[0] - 1
    while index >= 0 and tokens[index] in ("the", "a", "an"):
        index -= 1
    return tokens[index] if index >= 0 else None


def _name_words(name: str) -> set[str]:
    """The words of an argument's name of four letters or more: `album_name` is album."""
    return {word for word in name_words(name) if len(word) >= 4}


def _free_string(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "string" and "enum" not in schema


def _place(
    fixed: dict[str, Any], pair: tuple[str, str], properties: dict[str, Any], required: set[str], task: str
) -> None:
    a, b = pair
    va, vb = fixed[a], fixed[b]
    if _number_twice(va, vb, task):
        text = a if isinstance(va, str) else b
        if text not in required:
            del fixed[text]
        return
    if not (isinstance(va, str) and isinstance(vb, str)) or not va.strip() or not vb.strip():
        return
    values = stems(f"{va} {vb}")
    marks = {
        a: _marks(a, properties[a], b, properties[b]) - values,
        b: _marks(b, properties[b], a, properties[a]) - values,
    }
    if va.casefold() == vb.casefold():
        role = _role(va, task, marks) or _choice_of(va, (a, b), properties)
        other = b if role == a else a if role == b else None
        if other is not None and other not in required:
            del fixed[other]
        return
    if not (_written(va, task) and _written(vb, task)) or "enum" in properties[a] or "enum" in properties[b]:
        return  # a value the model made up has no place in the task to read; an enum takes only its own values
    if _fits_own(va, properties[a], properties[b]) or _fits_own(vb, properties[b], properties[a]):
        return
    role_a, role_b = _role(va, task, marks), _role(vb, task, marks)
    if (role_a == b or role_b == a) and role_a != a and role_b != b:
        fixed[a], fixed[b] = vb, va


_CLOCK = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}", re.I)
_WHEN = re.compile(r"\b(?:time|date|day|hh|mm|yyyy)\b", re.I)


def _fits_own(value: str, own: Any, other: Any) -> bool:
    """Whether `value` is a time or date where its own argument's docs name one and the other's do not: "set a new
    alarm at 17:15" keeps `new_alarm_time="17:15"` though "set" stands nearer "new alarm" (BFCL live_multiple dev
    814, where the swap had sent the time to the alarm's name)."""
    return bool(_CLOCK.fullmatch(value.strip())) and bool(_WHEN.search(_docs(own))) and not _WHEN.search(_docs(other))


def _choice_of(value: str, pair: tuple[str, str], properties: dict[str, Any]) -> str | None:
    """The one argument of `pair` whose enum holds `value`, where the other is a free string: "Metal songs
    released in 2019" called with `album="Metal", genre="Metal"` keeps the genre (BFCL live_multiple dev 830)."""
    holding = [name for name in pair if value.casefold() in _choices(properties[name])]
    free = [name for name in pair if "enum" not in properties[name]]
    if len(holding) != 1 or len(free) != 1 or free[0] == holding[0] or _default_of(value, properties[free[0]]):
        return None
    return holding[0]


def _default_of(value: str, schema: dict[str, Any]) -> bool:
    """Whether `value` is a free string's own default or says no preference ("dontcare"), which it may take beside
    an enum's."""
    defaults = {str(schema.get("default")).casefold(), *map(str.casefold, documented_values(schema))}
    return value.casefold() in defaults | NO_PREFERENCE


def _choices(schema: dict[str, Any]) -> set[str]:
    return {str(choice).casefold() for choice in schema.get("enum") or ()}


def _written(value: str, task: str) -> bool:
    return bool(_starts(value, _TOKEN.findall(task.lower())))


def _number_twice(va: Any, vb: Any, task: str) -> bool:
    """A number the task writes, given as a number and again as a string ("2013" beside 2013)."""
    for text, number in ((va, vb), (vb, va)):
        if isinstance(text, str) and isinstance(number, int | float) and not isinstance(number, bool):
            return BARE_NUMBER.fullmatch(text.strip()) is not None and float(text) == number and _written(text, task)
    return False
