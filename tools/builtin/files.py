"""File tools confined to one workspace folder: read_file, write_file, list_files.

Paths are never handed to the kernel whole. Each component is opened relative to its parent folder's file
descriptor with O_NOFOLLOW, so the kernel follows no symlink; a symlink is read and resolved here instead,
and must stay inside the root. Checking a path and then opening it would leave a gap in which another process
swaps a folder for a symlink to /etc; here what was checked is what is opened. `..`, absolute paths elsewhere
and symlinks that point out are all refused. The tools are closures over their root, so two agents with two
workspaces never share state. POSIX only (`dir_fd` and O_NOFOLLOW).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from agentcore.errors import UserError
from agentcore.tools.function import make_tool
from agentcore.tools.toolset import FunctionToolset

MAX_READ_CHARS = 20_000
MAX_WRITE_CHARS = 200_000
MAX_LIST_ENTRIES = 200
MAX_SYMLINKS = 40  # as the kernel's own limit: a loop of links ends with an error, not a hang

# getattr: these flags are POSIX-only, and importing the built-ins must still work elsewhere (calculator).
_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR: int = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW
# O_NONBLOCK: opening a FIFO planted in the workspace must not hang the tool; regular files ignore it.
_READ: int = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW
_WRITE: int = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW


class Workspace:
    """A root folder, the rule that keeps every path inside it, and the file operations behind the tools."""

    def __init__(self, root: str | Path, max_read_chars: int, max_write_chars: int) -> None:
        if not ({os.open, os.mkdir, os.readlink} <= os.supports_dir_fd and hasattr(os, "O_NOFOLLOW")):
            raise UserError("the file tools need a POSIX system (os.open with dir_fd); they are not available here")
        try:
            resolved = Path(root).expanduser().resolve()
            found = resolved.is_dir()
        except (OSError, RuntimeError) as exc:  # a name too long, a symlink loop: not a usable folder either
            raise UserError(f"workspace {str(root)[:200]!r} cannot be used: {exc}") from exc
        if not found:
            raise UserError(f"workspace {str(root)[:200]!r} is not an existing folder; create it or pass another path")
        self.root = resolved
        self.max_read_chars = max_read_chars
        self.max_write_chars = max_write_chars

    def read(self, path: str) -> str:
        fd, _ = self._open(path, _READ)
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(f"{path!r} is a folder; call list_files to see what is inside")
            if not stat.S_ISREG(info.st_mode):
                raise ValueError(f"{path!r} is not a regular file")
        except BaseException:
            os.close(fd)
            raise
        limit = self.max_read_chars
        with open(fd, encoding="utf-8", errors="replace") as handle:
            text = handle.read(limit + 1)  # never load more than the cap from a huge file
        if len(text) <= limit:
            return text
        return text[:limit] + f"\n[truncated: showing the first {limit} characters of {info.st_size} bytes]"

    def write(self, path: str, content: str) -> str:
        if len(content) > self.max_write_chars:
            raise ValueError(f"content is too long ({len(content)} characters, at most {self.max_write_chars})")
        fd, shown = self._open(path, _WRITE, create=True)
        with open(fd, "w", encoding="utf-8") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ValueError(f"{path!r} is not a regular file")
            handle.write(content)
        return f"wrote {len(content)} characters to {shown}"

    def listing(self, path: str) -> str:
        try:
            fd, shown = self._open(path, _DIR)
        except (FileNotFoundError, NotADirectoryError):
            raise NotADirectoryError(f"no folder {path!r} in the workspace; call list_files with path '.'") from None
        try:
            with os.scandir(fd) as scan:  # scandir works on a duplicate; the descriptor stays ours to close
                entries = sorted(scan, key=lambda entry: entry.name)
            # follow_symlinks=False: listing must not touch whatever a link points to.
            names = [entry.name + ("/" if entry.is_dir(follow_symlinks=False) else "") for entry in entries]
        finally:
            os.close(fd)
        if len(names) > MAX_LIST_ENTRIES:
            names = [*names[:MAX_LIST_ENTRIES], f"[{len(names) - MAX_LIST_ENTRIES} more entries not shown]"]
        return "\n".join(names) if names else f"{shown} is empty"

    def _open(self, path: str, flags: int, *, create: bool = False) -> tuple[int, str]:
        """(descriptor, path as shown) of `path` opened with `flags`; its last name is opened with O_NOFOLLOW,
        so a symlink swapped in after `_walk` looked makes the open fail instead of escaping."""
        folder, name, shown = self._walk(path, create=create)
        try:
            return _checked_open(name, flags, folder, path), shown
        finally:
            os.close(folder)

    def _walk(self, path: str, *, create: bool = False) -> tuple[int, str, str]:
        """(descriptor of the parent folder, last name, path as shown) for `path`, every symlink resolved here.

        The last name is "." when the path is a folder itself. `create` makes missing folders (write_file).
        """
        todo = list(reversed(self._parts(path)))
        stack: list[tuple[str, int]] = [("", os.open(self.root, _DIR))]
        links = 0
        try:
            while todo:
                name = todo.pop()
                if name == "..":
                    if len(stack) == 1:
                        raise ValueError(_outside(path))
                    os.close(stack.pop()[1])
                    continue
                target = _readlink(name, stack[-1][1])
                if target is not None:
                    links += 1
                    if links > MAX_SYMLINKS:
                        raise ValueError(f"path {path!r} has too many symbolic links (a loop?)")
                    todo.extend(reversed(self._link_parts(target, path, stack)))
                elif todo:
                    stack.append((name, _open_folder(name, stack[-1][1], path, create)))
                else:
                    return self._keep_top(stack, name)
            return self._keep_top(stack, ".")
        except BaseException:
            for _, fd in stack:
                os.close(fd)
            raise

    @staticmethod
    def _keep_top(stack: list[tuple[str, int]], name: str) -> tuple[int, str, str]:
        for _, fd in stack[:-1]:
            os.close(fd)
        shown = "/".join([*(part for part, _ in stack[1:]), *([name] if name != "." else [])])
        return stack[-1][1], name, shown or "."

    def _parts(self, path: str) -> list[str]:
        """The components of `path` relative to the root (an absolute path must name a place inside it)."""
        if not path.strip():
            raise ValueError("path is empty; give a path relative to the workspace, such as notes.txt")
        if "\x00" in path:
            raise ValueError("path contains a NUL character")
        candidate = PurePosixPath(path)
        if candidate.is_absolute():
            if not candidate.is_relative_to(self.root):
                raise ValueError(_outside(path))
            candidate = candidate.relative_to(self.root)
        return [part for part in candidate.parts if part != "."]

    def _link_parts(self, target: str, path: str, stack: list[tuple[str, int]]) -> list[str]:
        """The components a symlink stands for, continuing from its folder (or from the root if absolute)."""
        if target.startswith("/"):
            if not PurePosixPath(target).is_relative_to(self.root):
                raise ValueError(_outside(path))
            while len(stack) > 1:
                os.close(stack.pop()[1])
            return self._parts(target)
        return [part for part in PurePosixPath(target).parts if part != "."]


def _readlink(name: str, folder: int) -> str | None:
    """The target of `name` if it is a symlink now; None if it is anything else or missing."""
    try:
        return os.readlink(name, dir_fd=folder)
    except OSError as exc:
        if exc.errno in (errno.EINVAL, errno.ENOENT, errno.ENOTDIR):
            return None
        raise


def _open_folder(name: str, folder: int, path: str, create: bool) -> int:
    if create:
        with contextlib.suppress(FileExistsError):  # it exists, or another writer just made it
            os.mkdir(name, 0o755, dir_fd=folder)
    try:
        return _checked_open(name, _DIR, folder, path)
    except FileNotFoundError:
        raise FileNotFoundError(f"no folder {name!r} in {path!r}; call list_files to see what exists") from None
    except NotADirectoryError:
        raise NotADirectoryError(f"{name!r} in {path!r} is a file, not a folder") from None


def _checked_open(name: str, flags: int, folder: int, path: str) -> int:
    """os.open of one name in `folder`, never following a symlink, with errors the model can act on."""
    try:
        return os.open(name, flags, 0o644, dir_fd=folder)
    except FileNotFoundError:
        raise FileNotFoundError(f"no file {path!r} in the workspace; call list_files to see what exists") from None
    except IsADirectoryError:
        raise IsADirectoryError(f"{path!r} is a folder; give a file path such as {path.rstrip('/')}/a.txt") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # it became a symlink after `_walk` looked: refuse rather than follow
            raise ValueError(f"path {path!r} changed while it was opened; try again") from None
        raise


def _outside(path: str) -> str:
    return f"path {path!r} is outside the workspace; use a path relative to the workspace root"


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
            path: File path relative to the workspace root.
        """
        return space.read(path)

    def write_file(path: str, content: str) -> str:
        """Write a text file in the workspace, replacing it if it exists.

        Args:
            path: File path relative to the workspace root.
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
