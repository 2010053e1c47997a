"""Peer: pydantic-ai's Agent with its OpenAI chat model, against llama-cpp-python's server on loopback.

pydantic-ai has no in-process llama.cpp model, so it talks HTTP to the same server agentcore-http uses
(`agentcore.testing_server.start_llama_server`: same GGUF, n_ctx and threads, the GGUF's own chat template). Its
defaults are kept: no instructions (no system prompt), text output (`output_type=str`), native tool calling
(the tools go in the request's `tools`, `tool_choice="auto"`), one retry for a tool call with bad arguments.

Settings chosen, and why:
- Greedy on every request (`ModelSettings`): temperature 0, seed Settings.seed, and in `extra_body` top_k 1,
  repeat_penalty 1 (the server's default is 1.1) and `max_tokens` Settings.max_tokens: pydantic-ai sends the
  limit as `max_completion_tokens`, which this server ignores (it would generate up to the context size).
- `UsageLimits(request_limit=Settings.max_steps)`: a run that needs more model requests ends as "max_steps".
- The OpenAI client makes no retries (`max_retries=0`, its default is 2) and times out after Settings.timeout;
  the whole run is bounded by Settings.timeout too (status "timeout").

Tool calls: the server's pitfalls (llama-cpp-python 0.3.36) left one honest configuration, which makes the server
do what llama.cpp's own `llama-server --jinja` does for Hermes-style models, and changes nothing in pydantic-ai.
- `--chat_format chatml-function-calling` crashes on tool_choice="required", and with "auto" its follow-up
  grammar only admits a function name or end of turn, so it never returns a tool call. Not used.
- The GGUF's own template (Qwen2.5) renders the tools into the system turn and asks for
  `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`; the model answers that way (this 0.5B model mostly
  bare or in a ```json fence), but the server returns it as plain content: it has no tool-call parser. So the
  client's HTTP transport parses the content as llama-server's Hermes parser does (`parse_tool_calls`: from the
  first `{"name"` to the end, only calls, tagged, fenced or bare) into the message's `tool_calls`, when the
  request offered tools. Anything else stays text, which pydantic-ai takes as the final answer.
- The template writes `arguments | tojson`, which double-encodes OpenAI's JSON-text arguments of earlier calls
  (the model then imitates the quoted form). llama-server decodes them before rendering; our server process
  (`serve`, the same command line as agentcore-http's) does the same (`object_arguments`).
- The server's request model rejects `content: null` beside tool_calls (HTTP 500) and system content given as a
  list of parts (pydantic-ai sends no system message, so that one never arises): the transport drops a null
  assistant content (`fix_request`); the template then renders no text for it.
Tool errors: pydantic-ai ends a run on any exception a tool raises, except ModelRetry (shown to the model, with its
default budget of one retry per tool). The toolbox raises ValueError with a message for the model, so each tool
re-raises that as ModelRetry, which is how a pydantic-ai user writes such a tool.

Metering, as for agentcore-http: model time is what the client waits for per request (HTTP and server time
count as model time), prompt and generated tokens are the server's usage counts, the server does not report
KV cache reuse (cached tokens 0, `cache_unreported`), and the server's CPU seconds are added per task.
Tool time is not measured apart (the toolbox functions take microseconds), as for the smolagents peer.

pydantic-ai lives in its own folder (`pydantic-ai-slim[openai]`, pinned): ./scripts/setup_peers.sh
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import sys
import time
import typing
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bench import toolbox
from bench.suite import Task
from bench.systems.agentcore_http import _with_server_cpu
from bench.systems.common import Emit, Settings, TaskResult, output_text, trace_line

LIBRARY = Path(__file__).resolve().parents[1] / "peers" / ".venv-pydantic-ai"
VERSION = "2.68.0"
# Where a call starts, and the wrappers around calls, as llama.cpp's Hermes 2 Pro parser (common/chat.cpp) accepts.
_OPENING = re.compile(r'(?:```(?:json|xml)?\s*)?(?:<tool_call>\s*)?\{\s*"name"')
_WRAPPERS = re.compile(r"</?tool_call>|```(?:json|xml)?")
_HOP_HEADERS = ("content-length", "content-encoding", "transfer-encoding")


def parse_tool_calls(content: str) -> tuple[str, list[dict[str, Any]]] | None:
    """Hermes-style tool calls in an assistant's content, as llama-server's parser reads them: (the text before the
    first call, OpenAI `tool_calls`), or None when the content holds no call or the calls do not parse.

    From the first `{"name"` (with an optional ```json fence and <tool_call> tag before it) to the end, the content
    must be only calls, {"name": str, "arguments": object or JSON string}, each optionally tagged or fenced.
    """
    opening = _OPENING.search(content)
    if opening is None:
        return None
    objects = _json_objects(_WRAPPERS.sub(" ", content[opening.start() :]))
    calls = []
    for obj in objects or ():
        arguments = obj.get("arguments", {}) if isinstance(obj, dict) else None
        if not (isinstance(obj, dict) and isinstance(obj.get("name"), str) and isinstance(arguments, dict | str)):
            return None
        encoded = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        function = {"name": obj["name"], "arguments": encoded}
        calls.append({"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function", "function": function})
    return (content[: opening.start()].strip(), calls) if calls else None


def _json_objects(text: str) -> list[Any] | None:
    """The JSON values that make up `text` (separated by whitespace), or None if anything else is in it."""
    decoder, values, index = json.JSONDecoder(), [], 0
    text = text.strip()
    while index < len(text):
        try:
            value, index = decoder.raw_decode(text, index)
        except json.JSONDecodeError:
            return None
        values.append(value)
        while index < len(text) and text[index].isspace():
            index += 1
    return values or None


def fix_request(body: dict[str, Any]) -> dict[str, Any]:
    """The request with `content: null` dropped from assistant messages: OpenAI allows it beside tool_calls, but
    this server's request model takes only a string there (HTTP 500); the chat template then renders no text."""
    for message in body.get("messages", []):
        if message.get("role") == "assistant" and message.get("content", "") is None:
            del message["content"]
    return body


def rewrite_completion(body: dict[str, Any]) -> dict[str, Any]:
    """The server's chat completion with Hermes-style calls in the content moved to `tool_calls`."""
    for choice in body.get("choices", []):
        message = choice.get("message") or {}
        parsed = parse_tool_calls(message.get("content") or "") if not message.get("tool_calls") else None
        if parsed:
            message["content"], message["tool_calls"] = parsed[0] or None, parsed[1]
            choice["finish_reason"] = "tool_calls"
    return body


@dataclass(slots=True)
class _Meter:
    """Requests, usage and seconds waited, counted by the client's transport; `reset()` per task."""

    calls: int = 0
    prompt_tokens: int = 0
    generated_tokens: int = 0
    seconds: float = 0.0

    def reset(self) -> None:
        self.calls = self.prompt_tokens = self.generated_tokens = 0
        self.seconds = 0.0

    def add(self, body: dict[str, Any], seconds: float) -> None:
        usage = body.get("usage") or {}
        self.calls += 1
        self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        self.generated_tokens += int(usage.get("completion_tokens") or 0)
        self.seconds += seconds


def _transport(meter: _Meter) -> Any:
    """An httpx2 transport that meters chat completions, applies `fix_request` to the requests and
    `rewrite_completion` to the answers of requests that offered tools."""
    import httpx2

    class ToolCallTransport(httpx2.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            chat = request.url.path.endswith("/chat/completions")
            sent = json.loads(request.content) if chat else {}
            if chat:
                headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_HEADERS}
                content = json.dumps(fix_request(sent)).encode()
                request = httpx2.Request(request.method, request.url, headers=headers, content=content)
            started = time.perf_counter()
            response = await self.inner.handle_async_request(request)
            data = await response.aread()  # decoded: drop the length and encoding of what came over the wire
            headers = {k: v for k, v in response.headers.items() if k.lower() not in _HOP_HEADERS}
            if chat and response.status_code == 200:
                body = json.loads(data)
                meter.add(body, time.perf_counter() - started)
                data = json.dumps(rewrite_completion(body) if sent.get("tools") else body).encode()
            return httpx2.Response(response.status_code, headers=headers, content=data)

        async def aclose(self) -> None:
            await self.inner.aclose()

    return ToolCallTransport()


def run(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    if not (LIBRARY / "pydantic_ai").is_dir():
        raise RuntimeError(f"pydantic-ai is not installed for the benchmark: ./scripts/setup_peers.sh (into {LIBRARY})")
    sys.path.append(str(LIBRARY))  # last, so the project's own packages win where both have one
    import pydantic_ai

    started = time.perf_counter()
    with _server(settings) as server:
        load_s = asyncio.run(_run_all(server.base_url, tasks, settings, _with_server_cpu(emit), started))
    version = f"pydantic-ai {pydantic_ai.__version__} + llama_cpp.server"
    return {"load_s": load_s, "version": version, "cache_unreported": True}


def _server(settings: Settings) -> Any:
    """agentcore-http's server (same command line), started through `serve` below."""
    from agentcore.testing_server import LlamaServer, start_llama_server

    plain = start_llama_server(settings.model_path, n_ctx=settings.n_ctx, n_threads=settings.n_threads)
    args = [sys.executable, "-m", __name__, *plain._args[3:]]  # its arguments after "-m llama_cpp.server"
    return LlamaServer(plain.model_path, plain.host, plain.port, args, plain.ready_timeout)


def object_arguments(message: dict[str, Any]) -> dict[str, Any]:
    """An assistant message whose tool calls' arguments (JSON text, as OpenAI sends them) are objects again."""
    calls = message.get("tool_calls")
    if not calls:
        return message
    decoded = []
    for call in calls:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except (TypeError, json.JSONDecodeError):
            arguments = function.get("arguments")
        decoded.append({**call, "function": {**function, "arguments": arguments}})
    return {**message, "tool_calls": decoded}


def serve(argv: list[str]) -> None:
    """llama-cpp-python's server, whose GGUF-template formatter sees tool-call arguments as objects.

    Chat templates (Qwen's among them) write `arguments | tojson`, which double-encodes OpenAI's JSON text, so the
    model would read its own earlier calls in a shape it was not trained on; llama-server parses the arguments
    before rendering, and so do we. The request validation and everything else are the server's.
    """
    import runpy

    from llama_cpp import llama_chat_format

    render: Any = llama_chat_format.Jinja2ChatFormatter.__call__

    def call(self: Any, *, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        return render(self, messages=[object_arguments(m) for m in messages], **kwargs)

    llama_chat_format.Jinja2ChatFormatter.__call__ = call  # type: ignore[method-assign,assignment]
    sys.argv = ["llama_cpp.server", *argv]
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


async def _run_all(base_url: str, tasks: Iterable[Task], settings: Settings, emit: Emit, started: float) -> float:
    """Warm up, then run the tasks one by one, in one event loop (the HTTP client's pool is bound to it).
    Returns the load time: server start and warm-up."""
    meter = _Meter()
    model = _model(base_url, meter, settings)
    await _warm_up(model)
    load_s = time.perf_counter() - started
    for task in tasks:
        meter.reset()
        emit(await run_task(model, meter, task, settings))
    return load_s


def _model(base_url: str, meter: _Meter, settings: Settings) -> Any:
    import httpx2
    from openai import AsyncOpenAI
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    http = httpx2.AsyncClient(transport=_transport(meter), timeout=settings.timeout)
    client = AsyncOpenAI(base_url=base_url, api_key="local", http_client=http, max_retries=0)
    return OpenAIChatModel("local-gguf", provider=OpenAIProvider(openai_client=client))


def model_settings(settings: Settings) -> Any:
    from pydantic_ai.settings import ModelSettings

    extra = {"top_k": 1, "repeat_penalty": 1.0, "max_tokens": settings.max_tokens}
    return ModelSettings(
        temperature=0.0, seed=settings.seed, max_tokens=settings.max_tokens, timeout=settings.timeout, extra_body=extra
    )


async def _warm_up(model: Any) -> None:
    """One tiny request, as the other systems make one tiny completion (weights paged in, HTTP set up)."""
    from pydantic_ai import Agent
    from pydantic_ai.settings import ModelSettings

    await Agent(model).run("Hello", model_settings=ModelSettings(max_tokens=1, extra_body={"max_tokens": 1}))


async def run_task(model: Any, meter: _Meter, task: Task, settings: Settings) -> TaskResult:
    from pydantic_ai import Agent, UsageLimits, capture_run_messages
    from pydantic_ai.exceptions import UnexpectedModelBehavior, UsageLimitExceeded

    agent = Agent(model, tools=[_tool(name) for name in task.tools])
    started, cpu_started = time.perf_counter(), time.process_time()
    status, output, error = "completed", None, None
    with capture_run_messages() as messages:
        try:
            limits = UsageLimits(request_limit=settings.max_steps)
            run = agent.run(task.task, model_settings=model_settings(settings), usage_limits=limits)
            output = output_text((await asyncio.wait_for(run, settings.timeout)).output)
        except TimeoutError:
            status, error = "timeout", f"timed out after {settings.timeout}s"
        except UsageLimitExceeded as exc:
            status, error = "max_steps", str(exc)
        except UnexpectedModelBehavior as exc:
            status, error = "error", f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # a crash is a failed task
            status, error = "crash", f"{type(exc).__name__}: {exc}"
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    names, trace = tool_trace(messages)
    return TaskResult(
        id=task.id, family=task.family, status=status, output=output, wall_s=wall, cpu_s=cpu,
        model_s=meter.seconds, tool_s=0.0, calls=meter.calls, prompt_tokens=meter.prompt_tokens,
        cached_tokens=0, generated_tokens=meter.generated_tokens, tool_calls=names, trace=trace, error=error,
    )  # fmt: skip


@cache
def _tool(name: str) -> Any:
    """A toolbox function as a pydantic-ai tool. Its ValueError becomes ModelRetry, pydantic-ai's way to show the
    model an error it can act on (any other exception ends the run); the retry budget stays pydantic-ai's default.
    """
    from pydantic_ai import ModelRetry, Tool

    function = toolbox.FUNCTIONS[name]

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> str:
        try:
            return function(*args, **kwargs)
        except ValueError as exc:
            raise ModelRetry(str(exc)) from exc

    call.__annotations__ = typing.get_type_hints(function)  # resolved here: the toolbox's names are not in scope
    return Tool(call)


def tool_trace(messages: list[Any]) -> tuple[list[str], list[str]]:
    """The tool calls of a run (names, and "name(arguments) -> result" lines) from its pydantic-ai messages."""
    parts = [part for message in messages for part in getattr(message, "parts", ())]
    results = {p.tool_call_id: p.content for p in parts if p.part_kind in ("tool-return", "retry-prompt")}
    calls = [p for p in parts if p.part_kind == "tool-call"]
    lines = [trace_line(c.tool_name, c.args_as_dict(), str(results.get(c.tool_call_id, ""))) for c in calls]
    return [c.tool_name for c in calls], lines


if __name__ == "__main__":  # the server process of `_server`
    serve(sys.argv[1:])
