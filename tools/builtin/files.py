"""File tools confined to one workspace folder: read_file, write_file, list_files.

Every path the model gives is resolved (following symlinks) and must stay inside the workspace root, so
`..`, absolute paths elsewhere and symlinks that point out are all refused. The tools are closures over their
root, so two agents with two workspaces never share state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentcore.errors import UserError
from agentcore.tools.function import make_tool
from agentcore.tools.toolset import FunctionToolset

MAX_READ_CHARS = 20_000
MAX_WRITE_CHARS = 200_000
MAX_LIST_ENTRIES = 200


class Workspace:
    """A root folder, the rule that keeps every path inside it, and the file operations behind the tools."""

    def __init__(self, root: str | Path, max_read_chars: int, max_write_chars: int) -> None:
        resolved = Path(root).expanduser().resolve()
        if not resolved.is_dir():
            raise UserError(f"workspace {str(root)!r} is not an existing folder; create it or pass another path")
        self.root = resolved
        self.max_read_chars = max_read_chars
        self.max_write_chars = max_write_chars

    def resolve(self, path: str) -> Path:
        """The real path of `path` (relative to the root, or absolute inside it); ValueError outside."""
        if not path.strip():
            raise ValueError("path is empty; give a path relative to the workspace, such as notes.txt")
        if "\x00" in path:
            raise ValueError("path contains a NUL character")
        candidate = Path(path)
        real = (candidate if candidate.is_absolute() else self.root / candidate).resolve()
        if not real.is_relative_to(self.root):
            raise ValueError(f"path {path!r} is outside the workspace; use a path relative to the workspace root")
        return real

    def show(self, real: Path) -> str:
        """How a real path is shown to the model: relative to the root, with forward slashes."""
        return real.relative_to(self.root).as_posix() or "."

    def read(self, path: str) -> str:
        real = self.resolve(path)
        if real.is_dir():
            raise IsADirectoryError(f"{path!r} is a folder; call list_files to see what is inside")
        if not real.is_file():
            raise FileNotFoundError(f"no file {path!r} in the workspace; call list_files to see what exists")
        limit = self.max_read_chars
        with real.open(encoding="utf-8", errors="replace") as handle:
            text = handle.read(limit + 1)  # never load more than the cap from a huge file
        if len(text) <= limit:
            return text
        size = real.stat().st_size
        return text[:limit] + f"\n[truncated: showing the first {limit} characters of {size} bytes]"

    def write(self, path: str, content: str) -> str:
        if len(content) > self.max_write_chars:
            raise ValueError(f"content is too long ({len(content)} characters, at most {self.max_write_chars})")
        real = self.resolve(path)
        if real == self.root or real.is_dir():
            raise IsADirectoryError(f"{path!r} is a folder; give a file path such as {path.rstrip('/')}/a.txt")
        real.parent.mkdir(parents=True, exist_ok=True)
        real.write_text(content, encoding="utf-8")
        return f"wrote {len(content)} characters to {self.show(real)}"

    def listing(self, path: str) -> str:
        real = self.resolve(path)
        if not real.is_dir():
            raise NotADirectoryError(f"no folder {path!r} in the workspace; call list_files with path '.'")
        entries = sorted(real.iterdir(), key=lambda entry: entry.name)
        names = [entry.name + ("/" if entry.is_dir() else "") for entry in entries[:MAX_LIST_ENTRIES]]
        if len(entries) > MAX_LIST_ENTRIES:
            names.append(f"[{len(entries) - MAX_LIST_ENTRIES} more entries not shown]")
        return "\n".join(names) if names else f"{self.show(real)} is empty"


def workspace_toolset(
    root: str | Path,
    *,
    writable: bool = True,
    max_read_chars: int = MAX_READ_CHARS,
    max_write_chars: int = MAX_WRITE_CHARS,
) -> FunctionToolset:
    """read_file and list_files (and write_file when `writable`), all confined to the folder `root`."""
    space = Workspace(root, max_read_chars, max_write_chars)

    # Thin closures: their docstrings are what the model sees, the work is in `Workspace`.
    def read_file(path: str) -> str:
        """Read a text file from the workspace.

        Args:
            path: File path relative to the workspace, for example "notes/todo.txt".
        """
        return space.read(path)

    def write_file(path: str, content: str) -> str:
        """Write a text file in the workspace, replacing it if it exists.

        Args:
            path: File path relative to the workspace, for example "notes/todo.txt".
            content: The full text to write.
        """
        return space.write(path, content)

    def list_files(path: str = ".") -> str:
        """List the files and folders in a workspace folder (folders end with /).

        Args:
            path: Folder path relative to the workspace; "." is the workspace itself.
        """
        return space.listing(path)

    tools: list[Callable[..., Any]] = [read_file, list_files, write_file] if writable else [read_file, list_files]
    return FunctionToolset(make_tool(function, timeout=10.0) for function in tools)
