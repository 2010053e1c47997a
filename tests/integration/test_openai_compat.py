"""OpenAICompatModel against a real llama.cpp server (llama-cpp-python's) on loopback, with the default GGUF."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from agentcore import Agent
from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, ToolSpec
from agentcore.models.openai_compat import OpenAICompatModel
from agentcore.result import RunResult
from agentcore.testing_server import LlamaServer, start_llama_server
from agentcore.tools.builtin import calculator

pytestmark = [pytest.mark.real_model, pytest.mark.server]

CALC = ToolSpec(
    "calculator",
    "Evaluate an arithmetic expression.",
    {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]},
)


@pytest.fixture(scope="module")
def server(default_model_path: str) -> Iterator[LlamaServer]:
    with start_llama_server(default_model_path, n_ctx=4096, n_threads=2) as running:
        yield running


@pytest.fixture(scope="module")
def model(server: LlamaServer) -> OpenAICompatModel:
    """One model for the module: each test has its own event loop, so this also checks the per-loop clients."""
    return OpenAICompatModel(server.base_url)


def calls(result: RunResult[Any]) -> list[str]:
    return [step.call.name for step in result.steps if step.call is not None]


async def test_agent_multiplies_with_the_calculator(model: OpenAICompatModel) -> None:
    result: RunResult[Any] = await Agent(model, tools=[calculator]).run("What is 24344 * 334?")

    assert "8130896" in str(result.output).replace(",", "")
    assert "calculator" in calls(result)
    assert result.usage.prompt_tokens > 0 and result.usage.generated_tokens > 0
    # llama-cpp-python's server rejects OpenAI's json_schema format: the model fell back to the GBNF grammar.
    assert model.response_format == "grammar"


async def test_agent_chains_two_steps(model: OpenAICompatModel) -> None:
    result: RunResult[Any] = await Agent(model, tools=[calculator]).run("Compute 17 * 23, then add 100 to the result.")

    assert "491" in str(result.output)
    assert "calculator" in calls(result)


async def test_same_turn_as_the_in_process_backend(server: LlamaServer, qwen: object) -> None:
    """Same template, same grammar, greedy: the server and llama.cpp in-process write the same turn."""
    request = ModelRequest(
        messages=(Message("system", "Use the calculator tool."), Message("user", "What is 4 * 3?")),
        tools=(CALC,),
    )
    remote = await OpenAICompatModel(server.base_url, response_format="grammar").complete(request)
    local = await qwen.complete(request)  # type: ignore[attr-defined]

    assert remote.raw == local.raw
    assert remote.tool_call == local.tool_call
    assert remote.usage.prompt_tokens == local.usage.prompt_tokens


async def test_json_object_style_with_a_schema(server: LlamaServer) -> None:
    request = ModelRequest(
        messages=(Message("user", "What is 2 + 3? Answer with the number only."),),
        output_schema={"type": "object", "properties": {"value": {"type": "integer"}}, "required": ["value"]},
    )
    response = await OpenAICompatModel(server.base_url, response_format="json_object").complete(request)
    assert isinstance(json.loads(response.content or "")["value"], int)


async def test_free_text_request_returns_content(model: OpenAICompatModel) -> None:
    request = ModelRequest(messages=(Message("user", "Say hello in one short sentence."),), constrain=False)
    response = await model.complete(request)

    assert response.content and response.content.strip()
    assert response.tool_call is None
    assert response.usage.prompt_tokens > 0 and response.usage.generated_tokens > 0
    assert response.timings.total_seconds > 0


async def test_unreachable_url_fails_fast() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = time.perf_counter()
    with pytest.raises(ModelError, match="cannot reach"):
        await OpenAICompatModel(f"http://127.0.0.1:{port}/v1").complete(
            ModelRequest(messages=(Message("user", "hi"),), constrain=False)
        )
    assert time.perf_counter() - started < 5
