"""`OpenAICompatModel`: a model behind an OpenAI-compatible chat completions server, over HTTP (httpx).

Servers: llama.cpp's `llama-server`, llama-cpp-python's `python -m llama_cpp.server`, vLLM, Ollama, hosted
APIs. It keeps the contract of the in-process backend for the same ModelRequest:
- A constrained turn is sent with the turn's JSON Schema (agentcore.turns), in one of four styles:
  - "json_schema": OpenAI's {"type": "json_schema", "json_schema": {...}} (llama-server, vLLM, Ollama);
  - "json_object": {"type": "json_object", "schema": ...}, the older style of llama-cpp-python's server;
  - "grammar": the GBNF grammar of the in-process backend, in the `grammar` field both llama.cpp servers
    accept: identical decoding, and no slow schema conversion (llama-cpp-python's own converter expands
    `maxLength` into hundreds of nested rules);
  - "none": no constraint; the answer is parsed all the same, a broken one is a ModelError (the loop retries).
  llama-cpp-python 0.3.x rejects "json_schema" (its response_format type is "text" or "json_object"); on that
  rejection the model switches itself to "grammar" and sends the request again.
- Greedy decoding is explicit on every request: temperature, top_p 1, and for llama.cpp servers top_k 1 and
  repeat_penalty 1.0 (`llama_params=False` drops those two for APIs that reject unknown fields).
- Connection errors, 429 and 5xx are retried with exponential backoff (`max_retries` times); other errors
  become a ModelError carrying the server's own message. A server that stays unreachable, times out or keeps
  answering 502-504 raises ModelUnavailableError (agentcore.errors): asking the model again cannot help, so the
  loop ends the run instead of retrying the turn.
- One httpx.AsyncClient per event loop: a client's connections belong to the loop that opened them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
import weakref
from functools import lru_cache
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from agentcore.errors import ContextOverflowError, ModelError, ModelUnavailableError, UserError
from agentcore.messages import ModelRequest, ModelResponse, Timings, Usage
from agentcore.models.base import check_real_model_allowed
from agentcore.turns import response_from_text, turn_schema

ResponseFormat = Literal["json_schema", "json_object", "grammar", "none"]
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
UNAVAILABLE_STATUS = frozenset({502, 503, 504})  # the gateway or server is down or overloaded, not the request

__all__ = ["ModelUnavailableError", "OpenAICompatModel", "ResponseFormat"]


class OpenAICompatModel:
    """A model served over the OpenAI chat completions API.

    `real=False` skips the gate that blocks real models in unit tests: for fake servers only.
    """

    backoff: float = 0.25  # seconds before the first retry; doubles each time
    max_backoff: float = 8.0

    def __init__(
        self,
        base_url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        temperature: float = 0.0,
        seed: int | None = 0,
        response_format: ResponseFormat = "json_schema",
        max_retries: int = 2,
        llama_params: bool = True,
        real: bool = True,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UserError(f"base_url must be an http(s) URL such as http://127.0.0.1:8080/v1, not {base_url!r}")
        if response_format not in get_args(ResponseFormat):
            raise UserError(f"response_format must be one of {get_args(ResponseFormat)}, not {response_format!r}")
        if max_retries < 0 or timeout <= 0:
            raise UserError("max_retries must be >= 0 and timeout > 0")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key or os.environ.get("AGENTCORE_API_KEY") or os.environ.get("OPENAI_API_KEY")
        self.timeout = timeout
        self.temperature = temperature
        self.seed = seed
        self.response_format: ResponseFormat = response_format
        self.max_retries = max_retries
        self.llama_params = llama_params
        self.real = real
        self._loopback = parts.hostname in LOOPBACK_HOSTS
        self._lock = threading.Lock()
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()

    @property
    def name(self) -> str:
        return f"{self.model}@{self.base_url}" if self.model else self.base_url

    def __repr__(self) -> str:  # never shows the API key
        return f"OpenAICompatModel({self.base_url!r}, model={self.model!r}, format={self.response_format!r})"

    # -- the Model protocol ----------------------------------------------------------------------------------

    async def complete(self, request: ModelRequest) -> ModelResponse:
        if self.real:
            check_real_model_allowed(f"OpenAICompatModel({self.name})")
        started = time.perf_counter()
        try:
            data = await self._post(self.request_body(request))
        except _JsonSchemaRejected:
            self.response_format = "grammar"  # llama-cpp-python's server: same constraint, as its grammar field
            data = await self._post(self.request_body(request))
        total = time.perf_counter() - started
        choice = _first_choice(data)
        text = (choice.get("message") or {}).get("content") or ""
        extra = {"usage": _usage(data), "timings": _timings(data, total)}
        return response_from_text(str(text), request, cut_off=choice.get("finish_reason") == "length", **extra)

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The JSON body of the chat completion call for `request` (public: benches and tests inspect it)."""
        body: dict[str, Any] = {
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": self.temperature,
            "top_p": 1.0,
            "stream": False,
        }
        if self.model:
            body["model"] = self.model
        if self.seed is not None:
            body["seed"] = self.seed
        if self.llama_params:
            body["top_k"] = 1 if self.temperature == 0 else 40
            body["repeat_penalty"] = 1.0
        schema = turn_schema(request) if request.constrain else None
        if schema is not None:
            body.update(_constraint(self.response_format, schema))
        return body

    # -- HTTP ------------------------------------------------------------------------------------------------

    async def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        url = f"{self.base_url}/chat/completions"
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                response = await self._client().post(url, json=body)
            except (
                httpx.ConnectError,
                httpx.ConnectTimeout,
                httpx.RemoteProtocolError,
                httpx.ReadError,
            ) as exc:
                if last:
                    raise self._unreachable(url, exc) from exc
                await asyncio.sleep(self._delay(attempt, None))
                continue
            except httpx.TimeoutException as exc:  # the server is slow, not gone: retrying would double the wait
                raise ModelUnavailableError(
                    f"the model server at {self.base_url} did not answer within {self.timeout:g}s"
                    f" ({_describe(exc)}); raise the timeout or use a faster model"
                ) from exc
            except httpx.HTTPError as exc:
                raise self._unreachable(url, exc) from exc
            if response.status_code < 400:
                return _json_body(response, url)
            message = _error_text(response)
            if self.response_format == "json_schema" and _rejects_json_schema(message):
                raise _JsonSchemaRejected(message)
            if response.status_code in RETRY_STATUS and not last:
                await asyncio.sleep(self._delay(attempt, response.headers.get("retry-after")))
                continue
            raise _status_error(url, response.status_code, message, body)
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def _unreachable(self, url: str, exc: Exception) -> ModelUnavailableError:
        return ModelUnavailableError(
            f"cannot reach the model server at {self.base_url}: is it running, and is the URL right?"
            f" (cannot reach {url}: {_describe(exc)})"
        )

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay = min(self.backoff * 2.0**attempt, self.max_backoff)
        if retry_after is not None and retry_after.strip().isdigit():
            delay = max(delay, min(float(retry_after), self.max_backoff))
        return delay

    def _client(self) -> Any:
        """This loop's client. A client bound to another (maybe closed) loop must not be used here."""
        import httpx

        loop = asyncio.get_running_loop()
        with self._lock:  # loops in other threads may share this model
            for other in [key for key in self._clients if key.is_closed()]:
                del self._clients[other]  # its connections died with their loop
            client = self._clients.get(loop)
            if client is None or client.is_closed:
                headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
                client = httpx.AsyncClient(
                    headers=headers,
                    timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, 10.0)),
                    trust_env=not self._loopback,  # a proxy from the environment must not see loopback calls
                )
                self._clients[loop] = client
        return client

    async def aclose(self) -> None:
        """Close this loop's client; clients of other loops are dropped (they cannot be closed from here)."""
        with self._lock:
            clients, self._clients = dict(self._clients), weakref.WeakKeyDictionary()
        client = clients.get(asyncio.get_running_loop())
        if client is not None:
            await client.aclose()

    async def __aenter__(self) -> OpenAICompatModel:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _JsonSchemaRejected(Exception):
    """The server does not know the "json_schema" response format (llama-cpp-python's server)."""


def _constraint(style: ResponseFormat, schema: dict[str, Any]) -> dict[str, Any]:
    if style == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "turn", "schema": schema, "strict": True},
            }
        }
    if style == "json_object":
        return {"response_format": {"type": "json_object", "schema": schema}}
    if style == "grammar":
        return {"grammar": _gbnf(json.dumps(schema))}  # key order matters: it is the grammar's order
    return {}


@lru_cache(maxsize=64)
def _gbnf(schema_json: str) -> str:
    from agentcore.grammar import schema_to_gbnf

    return schema_to_gbnf(json.loads(schema_json))


def _rejects_json_schema(message: str) -> bool:
    # llama-cpp-python answers 500: "... ('body', 'response_format', 'type'), 'msg': "Input should be
    # 'text' or 'json_object'", 'input': 'json_schema' ..."
    return "response_format" in message and "'text' or 'json_object'" in message


def _first_choice(data: dict[str, Any]) -> dict[str, Any]:
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelError(f"the server's answer has no choices: {json.dumps(data)[:300]}")
    return choices[0]


def _usage(data: dict[str, Any]) -> Usage:
    usage = data.get("usage") or {}
    details = usage.get("prompt_tokens_details") or {}
    cached = details.get("cached_tokens")
    if cached is None:  # llama-server reports its KV cache reuse in its timings
        cached = (data.get("timings") or {}).get("cache_n", 0)
    return Usage(
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        cached_tokens=int(cached or 0),
        generated_tokens=int(usage.get("completion_tokens") or 0),
        calls=1,
    )


def _timings(data: dict[str, Any], total: float) -> Timings:
    server = data.get("timings") or {}  # llama-server only: milliseconds of prompt and generation
    return Timings(
        prompt_seconds=float(server.get("prompt_ms") or 0.0) / 1000,
        generation_seconds=float(server.get("predicted_ms") or 0.0) / 1000,
        total_seconds=total,
    )


def _json_body(response: Any, url: str) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError as exc:
        raise ModelError(f"{url} answered {response.status_code} with non-JSON: {response.text[:300]!r}") from exc
    if not isinstance(data, dict):
        raise ModelError(f"{url} answered a JSON {type(data).__name__}, not an object: {response.text[:300]!r}")
    return data


def _error_text(response: Any) -> str:
    """The server's message: OpenAI's {"error": {"message": ...}}, FastAPI's {"detail": ...}, or the text."""
    try:
        data = response.json()
    except ValueError:
        return str(response.text).strip()[:500] or response.reason_phrase
    if isinstance(data, dict):
        error = data.get("error", data.get("detail", data))
        if isinstance(error, dict) and "message" in error:
            error = error["message"]
        text = error if isinstance(error, str) else json.dumps(error)
        return text.strip()[:500]
    return json.dumps(data)[:500]


def _status_error(url: str, status: int, message: str, body: dict[str, Any]) -> ModelError:
    overflow = _context_overflow(message, body)
    if overflow is not None:
        return overflow
    hint = {
        401: " (set api_key, or AGENTCORE_API_KEY / OPENAI_API_KEY)",
        403: " (is the api key allowed to use this model?)",
        404: " (is base_url right? it usually ends in /v1)",
    }.get(status, "")
    error = ModelUnavailableError if status in UNAVAILABLE_STATUS else ModelError
    return error(f"{url} answered {status}{hint}: {message}")


def _context_overflow(message: str, body: dict[str, Any]) -> ContextOverflowError | None:
    # OpenAI, vLLM, llama-cpp-python: "maximum context length is 4096 tokens ... (3000 in the messages, ..."
    window = re.search(r"maximum context length is (\d+)", message)
    prompt = re.search(r"\((\d+) in (?:the messages|your prompt)", message)
    if window is None or prompt is None:
        return None
    return ContextOverflowError(int(prompt.group(1)), int(window.group(1)), int(body.get("max_tokens") or 0))


def _describe(exc: Exception) -> str:
    return str(exc) or type(exc).__name__
