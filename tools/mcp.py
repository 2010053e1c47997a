"""An MCP server's tools as an agentcore toolset, over stdio, streamable HTTP, or in process (tests).

    time = MCPToolset.stdio("uvx", ["mcp-server-time"])      # or MCPToolset.http("http://127.0.0.1:8000/mcp")
    agent = Agent(model, tools=[time])                        # each run connects it, or: `async with time: ...`

Every request (connect, tools/list, tools/call, resources, prompts) has a timeout and fails with a clear
MCPTimeoutError instead of hanging; a server whose process died is restarted and the request sent once more.
Tool schemas go through `agentcore.schema_refs` (refs inlined against the tool's own root); the keywords the
grammar cannot enforce are listed in `unenforced`. A tool's `isError` result reaches the model as a tool error,
an invalid-params answer as a retry. Structured results come back as their JSON object.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TextIO

from agentcore.context import RunContext
from agentcore.errors import UserError
from agentcore.messages import ToolSpec
from agentcore.protocols.mcp_client import Connection, MCPServerError, MCPTimeoutError, MCPToolError, make_client
from agentcore.schema_refs import resolve_refs, unenforced
from agentcore.tools.toolset import ToolsetOps

__all__ = ["MCPServerError", "MCPTimeoutError", "MCPToolError", "MCPToolset"]


class MCPToolset(ToolsetOps):
    """The tools of one MCP server. `timeout` bounds every request; `prefix` is put before each tool's name
    (two servers with a tool of the same name); `reconnects` is how often one request may reopen a dead
    connection."""

    def __init__(
        self,
        server: Any,
        *,
        name: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        reconnects: int = 1,
        prefix: str = "",
        headers: dict[str, str] | None = None,
        errlog: TextIO | None = None,
    ) -> None:
        if not timeout > 0:
            raise UserError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.server, self.timeout, self.max_retries, self.prefix = server, timeout, max_retries, prefix
        self.name = name or _label(server)
        self.unenforced: dict[str, list[str]] = {}  # tool name -> schema keywords the grammar does not enforce
        self._specs: list[ToolSpec] | None = None
        self._connection = Connection(
            repr(self.name), lambda: make_client(server, timeout, headers, errlog), timeout, reconnects
        )

    @classmethod
    def stdio(
        cls, command: str, args: Sequence[str] = (), *, env: dict[str, str] | None = None, cwd: str | None = None,
        **options: Any,
    ) -> MCPToolset:  # fmt: skip
        """A server started as a subprocess speaking MCP on its stdin/stdout."""
        from mcp import StdioServerParameters

        params = StdioServerParameters(command=command, args=list(args), env=env, cwd=cwd)
        options.setdefault("name", " ".join([command, *args])[:60])
        return cls(params, **options)

    @classmethod
    def http(cls, url: str, *, token: str | None = None, **options: Any) -> MCPToolset:
        """A server at a streamable-HTTP endpoint; `token` is sent as a bearer token."""
        if token:
            options["headers"] = {**options.get("headers", {}), "Authorization": f"Bearer {token}"}
        return cls(url, **options)

    # -- lifecycle: the runner enters the toolset for a run (agentcore.tools.toolset.toolset_scope) --------------------

    @property
    def is_open(self) -> bool:
        return self._connection.is_open

    @property
    def reconnections(self) -> int:
        return self._connection.generation

    async def __aenter__(self) -> MCPToolset:
        await self._connection.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._connection.close()

    # -- the Toolset protocol ---------------------------------------------------------------------------------

    async def list_tools(self) -> Sequence[ToolSpec]:
        if self._specs is None:
            tools = await self._all_pages()
            self._specs = [self._spec(tool) for tool in tools]
        return self._specs

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        if self.prefix and not name.startswith(self.prefix):
            raise UserError(f"no tool named {name!r} in MCP toolset {self.name!r}")
        remote = name[len(self.prefix) :]
        result = await self._connection.request(
            f"tools/call {remote!r}", lambda client: client.call_tool(remote, arguments)
        )
        return tool_result(name, result)

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return self.timeout, self.max_retries

    # -- resources and prompts, for code that wants them (an agent sees tools only) ----------------------------

    async def list_resources(self) -> list[Any]:
        return list((await self._connection.request("resources/list", lambda c: c.list_resources())).resources)

    async def read_resource(self, uri: str) -> str:
        found = await self._connection.request(f"resources/read {uri!r}", lambda c: c.read_resource(uri))
        return "\n".join(getattr(part, "text", None) or f"<{part.mime_type} blob>" for part in found.contents)

    async def list_prompts(self) -> list[Any]:
        return list((await self._connection.request("prompts/list", lambda c: c.list_prompts())).prompts)

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> list[tuple[str, str]]:
        """The prompt's messages as (role, text) pairs."""
        found = await self._connection.request(f"prompts/get {name!r}", lambda c: c.get_prompt(name, arguments))
        return [(m.role, content_text(m.content)) for m in found.messages]

    # -- helpers ------------------------------------------------------------------------------------------------

    async def _all_pages(self) -> list[Any]:
        tools: list[Any] = []
        cursor: str | None = None
        for _ in range(100):  # a server whose pages never end cannot hang the run
            page = await self._connection.request("tools/list", _page(cursor))
            tools += page.tools
            cursor = page.next_cursor
            if cursor is None:
                return tools
        raise MCPServerError(f"MCP server {self.name!r} returned more than 100 pages of tools")

    def _spec(self, tool: Any) -> ToolSpec:
        name = self.prefix + tool.name
        try:
            parameters = resolve_refs(dict(tool.input_schema or {"type": "object"}))
        except UserError as exc:
            raise UserError(f"MCP tool {tool.name!r} of {self.name!r} has a broken input schema: {exc}") from exc
        self.unenforced[name] = unenforced(parameters)
        read_only = bool(getattr(getattr(tool, "annotations", None), "read_only_hint", False))
        return ToolSpec(name, tool.description or "", parameters, read_only)


def _page(cursor: str | None) -> Callable[[Any], Awaitable[Any]]:
    return lambda client: client.list_tools(cursor=cursor)


def tool_result(name: str, result: Any) -> Any:
    """A CallToolResult as a value: its structured content (a lone `result` key unwrapped), else its text."""
    if result.is_error:
        raise MCPToolError(" ".join(content_text(part) for part in result.content) or f"{name} failed")
    structured = result.structured_content
    if structured is not None:
        if isinstance(structured, dict) and list(structured) == ["result"]:
            return structured["result"]  # the SDKs wrap a plain return value this way
        return structured
    return "\n".join(content_text(part) for part in result.content)


def content_text(part: Any) -> str:
    """One content block as text: text as-is, other media as a short placeholder the model can mention."""
    kind = getattr(part, "type", "")
    if kind == "text":
        return str(part.text)
    if kind in ("image", "audio"):
        return f"<{kind} {part.mime_type}, {len(part.data) * 3 // 4} bytes>"
    if kind == "resource":
        inner = part.resource
        return str(getattr(inner, "text", None) or f"<resource {inner.uri}>")
    if kind == "resource_link":
        return f"<resource {part.uri}>"
    return f"<{kind or type(part).__name__} content>"


def _label(server: Any) -> str:
    if isinstance(server, str):
        return server
    command = getattr(server, "command", None)
    if command is not None:
        return " ".join([command, *getattr(server, "args", [])])[:60]
    return str(getattr(server, "name", type(server).__name__))
