"""Built-in tools: a safe calculator, workspace-confined file tools and an allow-listed HTTP GET.

`builtin_toolset(["calculator", "files"], workspace="work/")` builds them by name, as `--tools` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from agentcore.errors import UserError
from agentcore.tools.builtin.calculator import calculator
from agentcore.tools.builtin.files import workspace_toolset
from agentcore.tools.builtin.http import http_toolset
from agentcore.tools.toolset import CombinedToolset, FunctionToolset

__all__ = ["BUILTIN_NAMES", "builtin_toolset", "calculator", "http_toolset", "workspace_toolset"]


def _calculator(workspace: str | Path | None, http_allow: Sequence[str], writable: bool) -> FunctionToolset:
    return FunctionToolset([calculator])


def _files(workspace: str | Path | None, http_allow: Sequence[str], writable: bool) -> FunctionToolset:
    if workspace is None:
        raise UserError("the 'files' tools need a workspace folder: pass workspace=... (CLI: --workspace DIR)")
    return workspace_toolset(workspace, writable=writable)


def _http(workspace: str | Path | None, http_allow: Sequence[str], writable: bool) -> FunctionToolset:
    if not http_allow:
        raise UserError(
            "the 'http' tool is off until you allow hosts: pass http_allow=['example.org', 'localhost:8080']"
            " (CLI: --http-allow HOST[:PORT])"
        )
    return http_toolset(http_allow)


_BUILDERS: dict[str, Callable[[str | Path | None, Sequence[str], bool], FunctionToolset]] = {
    "calculator": _calculator,
    "files": _files,
    "http": _http,
}
BUILTIN_NAMES = tuple(_BUILDERS)


def builtin_toolset(
    names: Sequence[str] | str,
    *,
    workspace: str | Path | None = None,
    http_allow: Sequence[str] = (),
    writable: bool = True,
) -> FunctionToolset | CombinedToolset:
    """The named built-in tools as one toolset. `names` may also be one comma-separated string.
    `writable=False` leaves out write_file (the CLI's default: a run cannot change your files unless asked)."""
    if isinstance(names, str):
        names = names.split(",")
    wanted = list(dict.fromkeys(name.strip().lower() for name in names if name.strip()))
    unknown = [name for name in wanted if name not in _BUILDERS]
    if unknown:
        raise UserError(f"unknown built-in tool(s) {', '.join(unknown)}; known: {', '.join(BUILTIN_NAMES)}")
    toolsets = [_BUILDERS[name](workspace, http_allow, writable) for name in wanted]
    if not toolsets:
        return FunctionToolset()
    if len(toolsets) == 1:
        return toolsets[0]
    return CombinedToolset(toolsets)
