"""Toolsets: where an agent gets its tools. Composable (`a | b`) and filterable (`ts.filtered(...)`).

The `Toolset` protocol is async on purpose: an MCP server lists and calls its tools over a connection, and it
passes through every wrapper (filters, Tool-Guard) unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.messages import ToolSpec
from agentcore.tools.function import Tool, make_tool


@runtime_checkable
class Toolset(Protocol):
    async def list_tools(self) -> Sequence[ToolSpec]: ...

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any: ...

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        """(timeout seconds, max validation retries) for the named tool."""
        ...


class ToolsetOps:
    """Composition helpers shared by every concrete toolset."""

    def __or__(self, other: Toolset) -> CombinedToolset:
        return CombinedToolset([self, other])  # type: ignore[list-item]

    def filtered(
        self, names: Iterable[str] | None = None, predicate: Callable[[ToolSpec], bool] | None = None
    ) -> FilteredToolset:
        allowed = set(names) if names is not None else None

        def keep(spec: ToolSpec) -> bool:
            return (allowed is None or spec.name in allowed) and (predicate is None or predicate(spec))

        return FilteredToolset(self, keep)  # type: ignore[arg-type]


class FunctionToolset(ToolsetOps):
    """Tools made from Python functions (or `Tool`s made by `@tool`)."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any]] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            self.add(item)

    def add(self, item: Tool | Callable[..., Any]) -> Tool:
        made = item if isinstance(item, Tool) else make_tool(item)
        if made.name in self._tools:
            raise UserError(f"two tools are named {made.name!r}; give one of them another name")
        self._tools[made.name] = made
        return made

    async def list_tools(self) -> Sequence[ToolSpec]:
        return [t.spec() for t in self._tools.values()]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        return await self._get(name).call(arguments, ctx)

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        found = self._get(name)
        return found.timeout, found.max_retries

    def _get(self, name: str) -> Tool:
        try:
            return self._tools[name]
        except KeyError:
            raise UserError(f"no tool named {name!r}") from None


class CombinedToolset(ToolsetOps):
    """Several toolsets seen as one. Tool names must be unique across them. Entering it enters each part that
    needs connecting (an MCP server among plain functions), so a run connects them all."""

    def __init__(self, toolsets: Sequence[Toolset]) -> None:
        self.toolsets = list(toolsets)
        self._owner: dict[str, Toolset] = {}
        self._scopes: contextlib.AsyncExitStack | None = None

    async def __aenter__(self) -> CombinedToolset:
        async with contextlib.AsyncExitStack() as stack:
            for toolset in self.toolsets:
                await stack.enter_async_context(toolset_scope(toolset))
            self._scopes = stack.pop_all()
        return self

    async def __aexit__(self, *exc: object) -> None:
        scopes, self._scopes = self._scopes, None
        if scopes is not None:
            await scopes.aclose()

    async def list_tools(self) -> Sequence[ToolSpec]:
        specs: list[ToolSpec] = []
        self._owner = {}
        for toolset in self.toolsets:
            for spec in await toolset.list_tools():
                if spec.name in self._owner:
                    raise UserError(f"two toolsets both provide a tool named {spec.name!r}")
                self._owner[spec.name] = toolset
                specs.append(spec)
        return specs

    async def _owner_of(self, name: str) -> Toolset:
        if name not in self._owner:
            await self.list_tools()
        if name not in self._owner:
            raise UserError(f"no tool named {name!r}")
        return self._owner[name]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        return await (await self._owner_of(name)).call_tool(name, arguments, ctx)

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        owner = self._owner.get(name)
        return owner.tool_settings(name) if owner else (30.0, 2)


class FilteredToolset(ToolsetOps):
    """A view of a toolset that shows (and allows calling) only the tools `keep` accepts."""

    def __init__(self, inner: Toolset, keep: Callable[[ToolSpec], bool]) -> None:
        self.inner = inner
        self.keep = keep
        self._visible: set[str] = set()
        self._scope: contextlib.AbstractAsyncContextManager[None] | None = None

    async def __aenter__(self) -> FilteredToolset:
        scope = toolset_scope(self.inner)
        await scope.__aenter__()
        self._scope = scope
        return self

    async def __aexit__(self, *exc: object) -> None:
        scope, self._scope = self._scope, None
        if scope is not None:
            await scope.__aexit__(None, None, None)

    async def list_tools(self) -> Sequence[ToolSpec]:
        specs = [spec for spec in await self.inner.list_tools() if self.keep(spec)]
        self._visible = {spec.name for spec in specs}
        return specs

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        if not self._visible:
            await self.list_tools()
        if name not in self._visible:
            raise UserError(f"tool {name!r} is filtered out of this toolset")
        return await self.inner.call_tool(name, arguments, ctx)

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return self.inner.tool_settings(name)


def as_toolset(tools: Toolset | Iterable[Tool | Callable[..., Any] | Toolset] | None) -> Toolset:
    """Accept a toolset, or a list mixing tools, functions and toolsets, and return one toolset."""
    if tools is None:
        return FunctionToolset()
    if isinstance(tools, Toolset):
        return tools
    functions: list[Tool | Callable[..., Any]] = []
    toolsets: list[Toolset] = []
    for item in tools:
        if isinstance(item, Toolset):
            toolsets.append(item)
        else:
            functions.append(item)
    if not toolsets:
        return FunctionToolset(functions)
    return CombinedToolset([FunctionToolset(functions), *toolsets])


class _Shared:
    """One toolset connection shared by the runs inside its scope; `users` counts runs inside or waiting."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0
        self.open = False


_shared: dict[int, _Shared] = {}


@contextlib.asynccontextmanager
async def toolset_scope(toolset: Toolset) -> AsyncIterator[None]:
    """Connect a toolset that is an async context manager (an MCP server, say) for the run, unless it is already
    open (the user entered it once for many runs). Concurrent runs share one connection: the first run in opens
    it (runs that start meanwhile wait for it rather than open a second), the last one out closes it."""
    if not hasattr(toolset, "__aenter__") or (getattr(toolset, "is_open", False) and id(toolset) not in _shared):
        yield
        return
    key = id(toolset)
    shared = _shared.setdefault(key, _Shared())
    shared.users += 1
    try:
        async with shared.lock:
            if not shared.open:
                await toolset.__aenter__()
                shared.open = True
    except BaseException:
        await _leave(key, shared, toolset)
        raise
    try:
        yield
    finally:
        await _leave(key, shared, toolset)


async def _leave(key: int, shared: _Shared, toolset: Any) -> None:
    async with shared.lock:
        shared.users -= 1
        if shared.users == 0:
            del _shared[key]
            if shared.open:
                shared.open = False
                await toolset.__aexit__(None, None, None)
