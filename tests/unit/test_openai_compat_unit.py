"""OpenAICompatModel against a tiny scripted HTTP server on loopback: request shape, parsing, retries, errors."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agentcore.errors import ContextOverflowError, ModelError, RealModelBlockedError, UserError
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import Message, ModelRequest, ToolSpec
from agentcore.models.openai_compat import OpenAICompatModel
from agentcore.result import RunResult
from agentcore.turns import turn_schema

CALC = ToolSpec(
    "calculator",
    "Evaluate arithmetic.",
    {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]},
)
TOOL_REQUEST = ModelRequest(messages=(Message("system", "Be brief."), Message("user", "2+2?")), tools=(CALC,))
TEXT_REQUEST = ModelRequest(messages=(Message("user", "Say hi"),), constrain=False, max_tokens=20)


def completion(content: str, finish: str = "stop", **extra: Any) -> dict[str, Any]:
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17},
        **extra,
    }


@dataclass
class FakeServer:
    """Answers POSTs with scripted (status, body) pairs in order and records what it received."""

    base_url: str = ""
    script: list[tuple[int, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def reply(self, status: int, body: Any) -> FakeServer:
        self.script.append((status, body))
        return self


def _handler(fake: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, so clients pool connections as with real servers

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            fake.requests.append({"path": self.path, "headers": dict(self.headers), "body": json.loads(raw)})
            status, body = fake.script.pop(0) if fake.script else (500, {"error": {"message": "script empty"}})
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

    return Handler


@pytest.fixture
def fake() -> Iterator[FakeServer]:
    state = FakeServer()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


def model(fake: FakeServer, **kwargs: Any) -> OpenAICompatModel:
    m = OpenAICompatModel(fake.base_url, real=False, **kwargs)
    m.backoff = 0.01
    return m


async def test_constrained_request_sends_schema_and_greedy_settings(fake: FakeServer) -> None:
    fake.reply(200, completion('{"tool": "calculator", "arguments": {"expression": "2+2"}}'))
    response = await model(fake, api_key="sk-test").complete(TOOL_REQUEST)

    assert response.tool_call is not None and response.tool_call.arguments == {"expression": "2+2"}
    sent = fake.requests[0]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["headers"]["Authorization"] == "Bearer sk-test"
    body = sent["body"]
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "2+2?"},
    ]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "turn", "schema": turn_schema(TOOL_REQUEST), "strict": True},
    }
    assert (body["temperature"], body["top_p"], body["top_k"], body["repeat_penalty"]) == (0.0, 1.0, 1, 1.0)
    assert body["seed"] == 0 and body["max_tokens"] == TOOL_REQUEST.max_tokens and body["stream"] is False
    assert "model" not in body


def test_other_constraint_styles() -> None:
    schema = turn_schema(TOOL_REQUEST)
    assert schema is not None
    url = "http://127.0.0.1:9/v1"
    as_object = OpenAICompatModel(url, response_format="json_object").request_body(TOOL_REQUEST)
    assert as_object["response_format"] == {"type": "json_object", "schema": schema}
    as_grammar = OpenAICompatModel(url, response_format="grammar").request_body(TOOL_REQUEST)
    assert as_grammar["grammar"] == schema_to_gbnf(schema) and "response_format" not in as_grammar
    bare = OpenAICompatModel(url, response_format="none", llama_params=False, model="m").request_body(TOOL_REQUEST)
    assert "response_format" not in bare and "grammar" not in bare and "top_k" not in bare
    assert bare["model"] == "m"


async def test_free_text_is_unconstrained_and_usage_is_parsed(fake: FakeServer) -> None:
    usage = {"prompt_tokens": 40, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 32}}
    fake.reply(200, {**completion("Hello there"), "usage": usage, "timings": {"prompt_ms": 250, "predicted_ms": 500}})
    response = await model(fake).complete(TEXT_REQUEST)

    assert response.content == "Hello there" and response.tool_call is None
    assert "response_format" not in fake.requests[0]["body"]
    assert (response.usage.prompt_tokens, response.usage.cached_tokens, response.usage.generated_tokens) == (
        40,
        32,
        3,
    )
    assert response.usage.calls == 1
    assert response.timings.prompt_seconds == 0.25 and response.timings.generation_seconds == 0.5
    assert response.timings.total_seconds > 0


async def test_server_error_is_retried_then_succeeds(fake: FakeServer) -> None:
    fake.reply(500, {"error": {"message": "boom"}}).reply(200, completion('{"final_answer": "4"}'))
    response = await model(fake).complete(TOOL_REQUEST)
    assert response.content == "4"
    assert len(fake.requests) == 2


async def test_retries_are_bounded(fake: FakeServer) -> None:
    for _ in range(5):
        fake.reply(503, {"error": {"message": "overloaded"}})
    with pytest.raises(ModelError, match=r"503.*overloaded"):
        await model(fake, max_retries=2).complete(TOOL_REQUEST)
    assert len(fake.requests) == 3


async def test_client_error_carries_the_server_message_without_retry(fake: FakeServer) -> None:
    fake.reply(400, {"error": {"message": "max_tokens is too large", "type": "invalid_request_error"}})
    with pytest.raises(ModelError, match="400: max_tokens is too large"):
        await model(fake).complete(TOOL_REQUEST)
    assert len(fake.requests) == 1


async def test_not_found_hints_at_the_base_url(fake: FakeServer) -> None:
    fake.reply(404, "Not Found")
    with pytest.raises(ModelError, match=r"404 \(is base_url right.*Not Found"):
        await model(fake).complete(TOOL_REQUEST)


async def test_context_overflow_becomes_context_overflow_error(fake: FakeServer) -> None:
    message = (
        "This model's maximum context length is 4096 tokens. However, you requested 5020 tokens"
        " (5000 in the messages, 20 in the completion). Please reduce the length of the messages or completion."
    )
    fake.reply(400, {"error": {"message": message, "code": "context_length_exceeded"}})
    with pytest.raises(ContextOverflowError) as info:
        await model(fake).complete(TEXT_REQUEST)
    assert (info.value.prompt_tokens, info.value.n_ctx, info.value.max_tokens) == (5000, 4096, 20)


async def test_llama_cpp_python_rejection_of_json_schema_falls_back_to_grammar(fake: FakeServer) -> None:
    # What llama-cpp-python 0.3.36's server answers to a json_schema response_format.
    rejection = (
        "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'),"
        " 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}"
    )
    fake.reply(500, {"error": {"message": rejection, "type": "internal_server_error"}})
    fake.reply(200, completion('{"final_answer": 4}'))
    m = model(fake)
    response = await m.complete(TOOL_REQUEST)

    assert response.content == "4"
    assert m.response_format == "grammar"
    assert "grammar" in fake.requests[1]["body"] and "response_format" not in fake.requests[1]["body"]


async def test_broken_json_from_a_server_that_ignores_schemas_is_a_model_error(fake: FakeServer) -> None:
    fake.reply(200, completion("Sure! The answer is 4."))
    fake.reply(200, completion('{"tool": "calc', finish="length"))
    m = model(fake, response_format="none")
    with pytest.raises(ModelError, match="not JSON"):
        await m.complete(TOOL_REQUEST)
    with pytest.raises(ModelError, match="ran past max_tokens=256 without closing") as cut:
        await m.complete(TOOL_REQUEST)
    assert "calc" not in str(cut.value)  # the runaway text is not quoted back to the model


async def test_non_json_success_body_is_a_model_error(fake: FakeServer) -> None:
    fake.reply(200, "<html>proxy login</html>")
    with pytest.raises(ModelError, match="non-JSON"):
        await model(fake).complete(TEXT_REQUEST)


async def test_real_model_gate_blocks_by_default(fake: FakeServer) -> None:
    with pytest.raises(RealModelBlockedError):
        await OpenAICompatModel(fake.base_url).complete(TEXT_REQUEST)
    assert fake.requests == []


async def test_unreachable_server_is_a_quick_model_error() -> None:
    import socket

    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    m = OpenAICompatModel(f"http://127.0.0.1:{port}/v1", real=False)
    started = time.perf_counter()
    with pytest.raises(ModelError, match=f"cannot reach http://127.0.0.1:{port}/v1/chat/completions"):
        await m.complete(TEXT_REQUEST)
    assert time.perf_counter() - started < 5


def test_one_client_per_event_loop(fake: FakeServer) -> None:
    fake.reply(200, completion("one")).reply(200, completion("two"))
    m = model(fake)
    # Two loops in turn: the client of the first (closed) loop must not be reused by the second.
    assert asyncio.run(m.complete(TEXT_REQUEST)).content == "one"
    assert asyncio.run(m.complete(TEXT_REQUEST)).content == "two"


async def test_aclose_closes_the_client(fake: FakeServer) -> None:
    fake.reply(200, completion("a")).reply(200, completion("b"))
    async with model(fake) as m:
        await m.complete(TEXT_REQUEST)
        first = m._client()
    assert first.is_closed
    assert (await m.complete(TEXT_REQUEST)).content == "b"  # a new client after close


def test_bad_settings_are_user_errors() -> None:
    with pytest.raises(UserError, match="http"):
        OpenAICompatModel("127.0.0.1:8080")
    with pytest.raises(UserError, match="response_format"):
        OpenAICompatModel("http://127.0.0.1:8080/v1", response_format="xml")  # type: ignore[arg-type]


def test_api_key_from_environment_is_not_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("AGENTCORE_API_KEY", "sk-secret")
    m = OpenAICompatModel("http://127.0.0.1:8080/v1/")
    assert m.api_key == "sk-secret" and "sk-secret" not in repr(m)
    assert m.base_url == "http://127.0.0.1:8080/v1"


async def test_agent_runs_through_the_fake_server(fake: FakeServer) -> None:
    from agentcore import Agent
    from agentcore.tools.builtin import calculator

    fake.reply(200, completion('{"tool": "calculator", "arguments": {"expression": "6 * 7"}}'))
    fake.reply(200, completion('{"final_answer": "42"}'))
    result: RunResult[Any] = await Agent(model(fake), tools=[calculator]).run("What is 6 * 7?")

    assert result.output == "42"
    assert [step.call.name for step in result.steps if step.call] == ["calculator"]
    assert "42" in fake.requests[1]["body"]["messages"][-1]["content"]  # the tool result went back to the model
