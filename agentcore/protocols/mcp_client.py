"""One MCP client connection, held open by a task of its own, with a timeout on every request and a reconnect
when the server's process or connection dies.

Why a holder task: the SDK's `Client` is an anyio context manager whose cancel scopes must be left by the task
that entered them, but a toolset is opened by the first run that needs it and closed by the last one out, which
are different tasks. The holder task enters and leaves the client; every other task only sends requests on it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TextIO, TypeVar

from agentcore.errors import AgentcoreError, ModelRetry, UserError

T = TypeVar("T")


class MCPServerError(AgentcoreError):
    """An MCP server could not be reached, answered a protocol error, or went away."""


class MCPTimeoutError(MCPServerError):
    """An MCP server did not answer within the timeout (a hung or silent server)."""


class MCPToolError(AgentcoreError):
    """An MCP tool ran and reported an error (`isError: true`); the model sees the message."""


def make_client(server: Any, timeout: float | None, headers: dict[str, str] | None, errlog: TextIO | None) -> Any:
    """A fresh, unentered `mcp.Client` for `server`: a URL (streamable HTTP), StdioServerParameters, or an
    in-process `MCPServer`/`Server` (tests). A new one per connection: SDK transports can be entered once."""
    import mcp
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    target: Any = server
    if isinstance(server, str):
        if not server.startswith(("http://", "https://")):
            raise UserError(f"an MCP server URL must start with http:// or https://, got {server!r}")
        if headers:
            import httpx2

            target = streamable_http_client(server, http_client=httpx2.AsyncClient(headers=headers, timeout=timeout))
    elif isinstance(server, StdioServerParameters) and errlog is not None:
        target = stdio_client(server, errlog=errlog)
    return mcp.Client(target, read_timeout_seconds=timeout)


class Connection:
    """A connected `mcp.Client` held by a background task; `request` runs one call under the timeout and
    reconnects (then retries once) when the connection was found closed."""

    def __init__(self, label: str, factory: Callable[[], Any], timeout: float | None, reconnects: int) -> None:
        self.label, self.factory, self.timeout, self.reconnects = label, factory, timeout, reconnects
        self.client: Any = None
        self.generation = 0  # how many times a dead connection was replaced (the trace and tests read it)
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._lock = asyncio.Lock()

    @property
    def is_open(self) -> bool:
        return self.client is not None

    async def open(self) -> None:
        ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._hold(ready), name=f"mcp:{self.label}")
        try:
            self.client = await asyncio.wait_for(asyncio.shield(ready), self.timeout)
        except TimeoutError:
            await self.close()
            raise MCPTimeoutError(f"MCP server {self.label} did not finish connecting within {self.timeout}s") from None
        except Exception as exc:
            await self.close()
            raise MCPServerError(f"could not connect to MCP server {self.label}: {_describe(exc)}") from exc

    async def _hold(self, ready: asyncio.Future[Any]) -> None:
        try:
            async with self.factory() as client:
                ready.set_result(client)
                await self._stop.wait()
        except BaseException as exc:  # the connection failed or died: the next request sees it and reconnects
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else MCPServerError(_describe(exc)))
            if not isinstance(exc, Exception):
                raise

    async def close(self) -> None:
        self.client = None
        task, self._task = self._task, None
        if task is None:
            return
        self._stop.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), 5.0)
        except TimeoutError:
            task.cancel()
        except Exception:
            pass  # the connection was already broken: closing it has nothing left to report
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    async def request(self, what: str, op: Callable[[Any], Awaitable[T]]) -> T:
        """`op(client)` under the timeout; a closed connection is reopened and the request sent once more."""
        broken: int | None = None
        for attempt in range(self.reconnects + 1):
            client, generation = await self._live(broken)
            try:
                return await asyncio.wait_for(op(client), self.timeout)
            except TimeoutError:
                raise MCPTimeoutError(f"MCP server {self.label} did not answer {what} within {self.timeout}s") from None
            except Exception as exc:
                if not _closed(exc) or attempt == self.reconnects:
                    raise _translate(self.label, what, exc) from exc
                broken = generation
        raise AssertionError("unreachable")  # pragma: no cover

    async def _live(self, broken: int | None) -> tuple[Any, int]:
        """The open client and its generation; reopened first when it died or is the `broken` generation."""
        if self._task is None:
            raise UserError(f"MCP toolset {self.label} is not connected: `async with toolset:`, or give it to an Agent")
        async with self._lock:  # concurrent requests that all saw the dead connection reconnect it once
            task = self._task
            if self.client is None or task is None or task.done() or self.generation == broken:
                await self.close()
                await self.open()
                self.generation += 1
        return self.client, self.generation


def _closed(exc: BaseException) -> bool:
    """The connection is gone (server process exited, stream closed), as opposed to an error answer."""
    import anyio
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    if isinstance(exc, MCPError):
        return exc.code == CONNECTION_CLOSED
    return isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError))


def _translate(label: str, what: str, exc: Exception) -> Exception:
    from mcp import MCPError
    from mcp_types import INVALID_PARAMS, REQUEST_TIMEOUT

    if isinstance(exc, MCPError):
        if exc.code == REQUEST_TIMEOUT:
            return MCPTimeoutError(f"MCP server {label} did not answer {what} in time: {exc.message}")
        if exc.code == INVALID_PARAMS:
            return ModelRetry(f"{what} rejected the arguments: {exc.message}")
        return MCPServerError(f"MCP server {label} answered {what} with error {exc.code}: {exc.message}")
    if isinstance(exc, AgentcoreError):
        return exc
    return MCPServerError(f"MCP server {label} failed on {what}: {_describe(exc)}")


def _describe(exc: BaseException) -> str:
    inner = getattr(exc, "exceptions", None)  # an anyio task group's ExceptionGroup: name what is inside
    if inner:
        return "; ".join(_describe(e) for e in inner)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
