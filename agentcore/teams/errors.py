"""Errors of team files: every problem names the file, the line and the field, and says what is allowed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentcore.errors import UserError


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a team file. `rule` names the check that found it (tests and tools match on it)."""

    rule: str
    field: str
    message: str
    file: str = "<team>"
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.field or '(top level)'}: {self.message}"


class TeamSpecError(UserError):
    """A team file that cannot run: not YAML, the wrong shape, or a topology that fails validation.
    `problems` lists every problem found, each with its file, line and field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in team file"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))

    def rules(self) -> list[str]:
        return [p.rule for p in self.problems]
