"""`@tool`: a typed, docstringed function (sync or async) becomes a tool with a pydantic-made JSON Schema."""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, get_type_hints, overload

from agentcore.context import RunContext
from agentcore.errors import ModelRetry, UserError
from agentcore.messages import ToolSpec

_ARG_LINE = re.compile(r"^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)$")


@dataclass(slots=True)
class Tool:
    """A callable tool. `timeout` is in seconds; `max_retries` bounds argument-validation retries.

    The timeout ends the wait, not the work. An async tool is cancelled, but a sync tool runs in a worker
    thread, and Python cannot kill a thread: after a timeout it keeps running (and holding its CPU, files and
    sockets) until it returns by itself. Worse, one long C-level operation such as a big-integer power holds
    the GIL, so the event loop itself stalls until it ends. A tool that can burn CPU must therefore bound its
    own work before doing it, as the calculator bounds every operand and argument.
    """

    name: str
    description: str
    function: Callable[..., Any]
    args_model: Any  # a pydantic model class; typed loosely so pydantic loads lazily
    takes_ctx: bool = False
    timeout: float | None = 30.0
    max_retries: int = 2
    parameters: dict[str, Any] = field(default_factory=dict)
    read_only: bool = False  # no side effects: a failed call's other enum values may be tried (agentcore.probe)

    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, self.parameters, self.read_only)

    async def call(self, arguments: dict[str, Any], ctx: RunContext[Any]) -> Any:
        """Validate, then run under the timeout. Validation errors and unknown arguments become ModelRetry."""
        from pydantic import ValidationError

        unknown = [name for name in arguments if name not in self.args_model.model_fields]
        if unknown:  # pydantic would drop them silently, and the model would never learn its call was wrong
            raise ModelRetry(_unknown_message(self.name, unknown, list(self.args_model.model_fields)))
        try:
            validated = self.args_model.model_validate(arguments)
        except ValidationError as exc:
            raise ModelRetry(_validation_message(exc)) from exc
        kwargs = {name: getattr(validated, name) for name in self.args_model.model_fields}
        args = (ctx,) if self.takes_ctx else ()
        if inspect.iscoroutinefunction(self.function):
            coro = _no_exit(self.function(*args, **kwargs))
        else:
            coro = asyncio.to_thread(_no_exit_sync, self.function, *args, **kwargs)
        return await asyncio.wait_for(coro, self.timeout)


class ToolExit(RuntimeError):
    """A tool called sys.exit: a tool error like any other, never the end of the process."""


async def _no_exit(coro: Any) -> Any:
    # asyncio re-raises SystemExit out of a task into the event loop, ending every run: convert it inside.
    try:
        return await coro
    except SystemExit as exc:
        raise ToolExit(f"the tool called sys.exit({exc.code!r})") from None


def _no_exit_sync(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return function(*args, **kwargs)
    except SystemExit as exc:
        raise ToolExit(f"the tool called sys.exit({exc.code!r})") from None


def _validation_message(exc: Any) -> str:
    parts = [f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in exc.errors()]
    return "invalid arguments: " + "; ".join(parts)


def _unknown_message(tool: str, unknown: list[str], known: list[str]) -> str:
    takes = f"its arguments are {', '.join(known)}" if known else "it takes no arguments"
    return f"invalid arguments: {tool} has no argument {', '.join(map(repr, unknown))}; {takes}"


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """(description, {param: description}) from a Google-style docstring."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    summary: list[str] = []
    params: dict[str, str] = {}
    in_args = False
    for line in lines:
        stripped = line.strip()
        if stripped.lower() in ("args:", "arguments:", "parameters:"):
            in_args = True
            continue
        if in_args:
            match = _ARG_LINE.match(line)
            if match:
                params[match.group(1)] = match.group(2).strip()
            if match or not (stripped.endswith(":") and not line.startswith((" ", "\t"))):
                continue
            in_args = False  # a new section header ("Returns:") ends Args and is checked below
        if stripped.endswith(":") and stripped[:-1].lower() in ("returns", "raises", "example", "examples"):
            break
        summary.append(stripped)
    return " ".join(" ".join(summary).split()), params


def _is_ctx(annotation: Any) -> bool:
    return annotation is RunContext or getattr(annotation, "__origin__", None) is RunContext


def make_tool(
    function: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = 30.0,
    max_retries: int = 2,
    read_only: bool = False,
) -> Tool:
    from pydantic import Field, create_model

    signature = inspect.signature(function)
    hints = get_type_hints(function)
    summary, param_docs = parse_docstring(function.__doc__)
    params = list(signature.parameters.values())
    takes_ctx = bool(params) and _is_ctx(hints.get(params[0].name))
    fields: dict[str, Any] = {}
    for param in params[1:] if takes_ctx else params:
        if param.name not in hints:
            raise UserError(f"tool {function.__name__}: parameter {param.name!r} needs a type annotation")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (hints[param.name], Field(default, description=param_docs.get(param.name)))
    tool_name = name or function.__name__
    args_model = create_model(f"{tool_name}_args", **fields)
    parameters = args_model.model_json_schema()
    return Tool(
        name=tool_name,
        description=description or summary or tool_name,
        function=function,
        args_model=args_model,
        takes_ctx=takes_ctx,
        timeout=timeout,
        max_retries=max_retries,
        parameters=parameters,
        read_only=read_only,
    )


@overload
def tool(function: Callable[..., Any], /) -> Tool: ...
@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = 30.0,
    max_retries: int = 2,
    read_only: bool = False,
) -> Callable[[Callable[..., Any]], Tool]: ...
def tool(
    function: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = 30.0,
    max_retries: int = 2,
    read_only: bool = False,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Make a tool from a typed function; use bare (`@tool`) or with options (`@tool(timeout=5, read_only=True)`)."""

    def wrap(fn: Callable[..., Any]) -> Tool:
        return make_tool(
            fn, name=name, description=description, timeout=timeout, max_retries=max_retries, read_only=read_only
        )

    return wrap(function) if function is not None else wrap
