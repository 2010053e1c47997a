"""Team files as data with positions: YAML through `yaml.safe_load`, plus a map from each field's path to its line.

Anchors and aliases are refused (a few lines of aliases can expand to gigabytes: the "billion laughs"), and so
are duplicate keys (YAML keeps the last one silently). Every refusal is a located `TeamSpecError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentcore.teams.errors import Problem, TeamSpecError

MAX_BYTES = 1_000_000  # a team file is a page or two; anything this large is a mistake
Path_ = tuple[str | int, ...]


@dataclass(slots=True)
class Source:
    """A loaded team file: its data, its name, and the line of each field (1-based)."""

    data: dict[str, Any]
    name: str = "<team>"
    lines: dict[Path_, int] = field(default_factory=dict)
    path: Path | None = None

    def line_of(self, loc: Path_) -> int | None:
        """The line of `loc`, or of its nearest enclosing field that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get((), None)

    def problem(self, rule: str, loc: Path_, message: str) -> Problem:
        return Problem(rule, dotted(loc), message, self.name, self.line_of(loc))


def dotted(loc: Path_) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def load_file(path: str | Path) -> Source:
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise TeamSpecError(
            [Problem("file", "", f"cannot read the team file: {exc.strerror or exc}", str(file))]
        ) from None
    if len(raw) > MAX_BYTES:
        raise TeamSpecError([Problem("file", "", f"the file has {len(raw)} bytes; at most {MAX_BYTES}", str(file))])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TeamSpecError([Problem("file", "", f"not UTF-8 text (byte {exc.start})", str(file))]) from None
    source = load_text(text, str(file))
    source.path = file
    return source


def load_text(text: str, name: str = "<team>") -> Source:
    """Parse YAML text into a `Source`. Raises TeamSpecError (located) for anything that is not a usable mapping."""
    import yaml

    try:
        _refuse_anchors(text, name)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        message = f"not valid YAML: {exc.problem or exc.context}"
        if "expected ',' or" in message:
            message += ' (inside { } or [ ], quote values that hold brackets: type: "list[str]")'
        raise TeamSpecError([Problem("yaml", "", message, name, line)]) from None
    except yaml.YAMLError as exc:
        raise TeamSpecError([Problem("yaml", "", f"not valid YAML: {exc}", name)]) from None
    if not isinstance(data, dict) or root is None:
        kind = "empty" if data is None else f"a {type(data).__name__}"
        message = f"a team file is a mapping with the keys team, state, nodes and topology; this one is {kind}"
        raise TeamSpecError([Problem("shape", "", message, name, 1)])
    lines: dict[Path_, int] = {}
    problems: list[Problem] = []
    _walk(root, (), lines, problems, name)
    if problems:
        raise TeamSpecError(problems)
    return Source(data, name, lines)


def _refuse_anchors(text: str, name: str) -> None:
    import yaml

    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            what = "alias" if isinstance(event, yaml.AliasEvent) else "anchor"
            message = f"YAML {what} '{anchor}' is not allowed in team files: write each value out"
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            raise TeamSpecError([Problem("yaml", "", message, name, line)])


def _walk(node: Any, loc: Path_, lines: dict[Path_, int], problems: list[Problem], name: str) -> None:
    import yaml

    lines[loc] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            label = str(key.value)
            if label in seen:
                message = f"duplicate key '{label}' (first on line {seen[label]}): YAML would keep only the last"
                problems.append(Problem("yaml", dotted((*loc, label)), message, name, key.start_mark.line + 1))
            seen[label] = key.start_mark.line + 1
            _walk(value, (*loc, label), lines, problems, name)
            lines[(*loc, label)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*loc, index), lines, problems, name)


def from_mapping(data: Mapping[str, Any], name: str = "<team>") -> Source:
    """A Source for a team given as Python data (no lines to report)."""
    return Source(dict(data), name)
