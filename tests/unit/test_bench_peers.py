"""The benchmark's peer adapters (effgen, pydantic-ai): their pure parts, without the peers installed or a model."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx2
import pytest

from bench.systems import DEFAULT_SYSTEMS, SYSTEMS
from bench.systems import peer_effgen as effgen
from bench.systems import peer_pydantic_ai as pai


def test_peers_are_registered_but_not_run_by_default() -> None:
    assert SYSTEMS["effgen"] == "bench.systems.peer_effgen"
    assert SYSTEMS["pydantic-ai"] == "bench.systems.peer_pydantic_ai"
    assert "effgen" not in DEFAULT_SYSTEMS and "pydantic-ai" not in DEFAULT_SYSTEMS
    assert callable(effgen.run) and callable(pai.run)


# --- effgen -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("success", "reason", "status"),
    [
        (True, "final_answer", "completed"),
        (False, "max_iterations_exhausted", "max_steps"),
        (False, "max_iterations_partial", "max_steps"),
        (False, "loop_detected", "loop_detected"),
        (False, None, "error"),
    ],
)
def test_effgen_status(success: bool, reason: str | None, status: str) -> None:
    got, error = effgen.run_status(success, reason)
    assert got == status
    assert (error is None) == success


def test_effgen_call_arguments() -> None:
    assert effgen.call_arguments('{"expression": "2 * 3"}') == {"expression": "2 * 3"}
    assert effgen.call_arguments({"a": 1}) == {"a": 1}
    assert effgen.call_arguments("not json") == {"input": "not json"}
    assert effgen.call_arguments("[1, 2]") == {"input": [1, 2]}
    assert effgen.call_arguments(None) == {}


# --- pydantic-ai: tool calls in the content -----------------------------------------------------------------


def _calls(content: str) -> list[tuple[str, Any]] | None:
    parsed = pai.parse_tool_calls(content)
    return (
        None if parsed is None else [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in parsed[1]]
    )


@pytest.mark.parametrize(
    "content",
    [
        '{"name": "calculator", "arguments": {"expression": "3 * 2"}}',
        '<tool_call>\n{"name": "calculator", "arguments": {"expression": "3 * 2"}}\n</tool_call>',
        '```json\n{\n  "name": "calculator",\n  "arguments": {"expression": "3 * 2"}\n}\n```',
        '{"name": "calculator", "arguments": "{\\"expression\\": \\"3 * 2\\"}"}',  # arguments as JSON text
    ],
)
def test_one_call_in_any_wrapping(content: str) -> None:
    assert _calls(content) == [("calculator", {"expression": "3 * 2"})]


def test_several_calls_and_the_text_before_them() -> None:
    content = 'First the price.\n<tool_call>\n{"name": "lookup", "arguments": {"key": "laptop"}}\n</tool_call>\n'
    content += '<tool_call>\n{"name": "calculator", "arguments": {}}\n</tool_call>'
    parsed = pai.parse_tool_calls(content)
    assert parsed is not None
    assert parsed[0] == "First the price."
    assert [c["function"]["name"] for c in parsed[1]] == ["lookup", "calculator"]
    assert len({c["id"] for c in parsed[1]}) == 2
    assert all(c["type"] == "function" for c in parsed[1])


@pytest.mark.parametrize(
    "content",
    [
        "The answer is 6.",
        '{"answer": 6}',  # JSON, but not a call
        '{"name": "calculator", "arguments": {"expression": "3 * 2"}} so the answer is 6',  # text after the call
        '{"name": "calculator", "arguments": {"expression": "3 *',  # cut off at max_tokens
        '{"name": "calculator", "arguments": 6}',
        '{"name": "calculator", "arguments": {}}\n{"error": "bad"}',  # a call, then something else
    ],
)
def test_anything_else_stays_text(content: str) -> None:
    assert pai.parse_tool_calls(content) is None


def test_rewrite_completion_moves_calls_and_leaves_answers() -> None:
    call = '{"name": "calculator", "arguments": {"expression": "1 + 1"}}'
    body = {"choices": [{"message": {"role": "assistant", "content": call}, "finish_reason": "stop"}]}
    choice = pai.rewrite_completion(body)["choices"][0]
    assert choice["message"]["content"] is None
    assert choice["message"]["tool_calls"][0]["function"]["name"] == "calculator"
    assert choice["finish_reason"] == "tool_calls"
    answer = {"choices": [{"message": {"role": "assistant", "content": "2"}, "finish_reason": "stop"}]}
    assert pai.rewrite_completion(json.loads(json.dumps(answer))) == answer


def test_fix_request_drops_only_null_assistant_content() -> None:
    calls = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    body: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": calls},
            {"role": "tool", "content": None, "tool_call_id": "c1"},
            {"role": "assistant", "content": "done"},
        ]
    }
    messages = pai.fix_request(body)["messages"]
    assert "content" not in messages[1] and messages[1]["tool_calls"] == calls
    assert messages[2]["content"] is None  # the server accepts a null tool content
    assert messages[3]["content"] == "done"


def test_object_arguments_for_the_template() -> None:
    calls: list[dict[str, Any]] = [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": '{"x": 1}'}},
        {"id": "b", "type": "function", "function": {"name": "g", "arguments": "not json"}},
    ]
    message = {"role": "assistant", "tool_calls": calls}
    decoded = pai.object_arguments(message)
    assert [c["function"]["arguments"] for c in decoded["tool_calls"]] == [{"x": 1}, "not json"]
    assert calls[0]["function"]["arguments"] == '{"x": 1}'  # the request itself is left as it was
    plain = {"role": "user", "content": "hi"}
    assert pai.object_arguments(plain) is plain


def test_tool_trace_pairs_calls_with_results() -> None:
    call = SimpleNamespace(part_kind="tool-call", tool_name="calculator", tool_call_id="c1")
    call.args_as_dict = lambda: {"expression": "2 + 2"}
    done = SimpleNamespace(part_kind="tool-return", tool_call_id="c1", content="4")
    messages = [SimpleNamespace(parts=[call]), SimpleNamespace(parts=[done]), SimpleNamespace(parts=[])]
    names, trace = pai.tool_trace(messages)
    assert names == ["calculator"]
    assert trace == ['calculator({"expression": "2 + 2"}) -> 4']


# --- pydantic-ai: the transport, against httpx2's MockTransport ----------------------------------------------


async def test_transport_fixes_requests_rewrites_answers_and_meters() -> None:
    seen: list[dict[str, Any]] = []

    def server(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.content))
        content = '{"name": "calculator", "arguments": {"expression": "2 + 2"}}'
        usage = {"prompt_tokens": 120, "completion_tokens": 17}
        return httpx2.Response(200, json={"choices": [{"message": {"content": content}}], "usage": usage})

    meter = pai._Meter()
    transport = pai._transport(meter)
    transport.inner = httpx2.MockTransport(server)
    history = [{"role": "user", "content": "2+2?"}, {"role": "assistant", "content": None, "tool_calls": []}]
    async with httpx2.AsyncClient(transport=transport) as client:
        offered = await client.post("http://x/v1/chat/completions", json={"messages": history, "tools": [{}]})
        plain = await client.post("http://x/v1/chat/completions", json={"messages": history[:1]})
    assert "content" not in seen[0]["messages"][1]
    assert offered.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "calculator"
    assert plain.json()["choices"][0]["message"]["content"].startswith('{"name"')  # no tools offered: untouched
    assert (meter.calls, meter.prompt_tokens, meter.generated_tokens) == (2, 240, 34)
    meter.reset()
    assert (meter.calls, meter.prompt_tokens, meter.seconds) == (0, 0, 0.0)
