"""The native tool format (LlamaCppModel(tool_format="native")) on the real Qwen 0.5B: the template's own tool
prompt, the grammar once a call starts, the reply as a ModelResponse, and a whole Agent run through it."""

from __future__ import annotations

import asyncio

import pytest

from agentcore import Agent
from agentcore.messages import Message, ModelRequest, ToolSpec
from agentcore.tools.function import tool

WEATHER = ToolSpec(
    "get_weather",
    "Current weather of a city.",
    {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City, Country"}},
        "required": ["city"],
    },
)


@pytest.fixture(scope="module")
def native_qwen(default_model_path: str) -> object:
    from agentcore.models.llamacpp import LlamaCppModel

    return LlamaCppModel(default_model_path, n_ctx=2048, n_threads=2, seed=0, tool_format="native")


@pytest.mark.real_model
def test_real_model_calls_in_its_own_format(native_qwen: object) -> None:
    request = ModelRequest(messages=(Message("user", "What is the weather in Paris, France?"),), tools=(WEATHER,))
    response = asyncio.run(native_qwen.complete(request))  # type: ignore[attr-defined]
    assert response.tool_call is not None and response.tool_call.name == "get_weather", response.raw
    assert "Paris" in response.tool_call.arguments["city"]
    assert "tool" not in response.tool_call.arguments and response.usage.prompt_tokens > 0


@pytest.mark.real_model
def test_agent_run_in_the_native_format(native_qwen: object) -> None:
    """Call, tool result as role "tool", then the answer: the loop is unchanged."""

    @tool
    def get_weather(city: str) -> str:
        """Current weather of a city."""
        return f"{city}: 18 C and sunny"

    agent = Agent(native_qwen, tools=[get_weather], max_steps=3)  # type: ignore[arg-type]
    agent.max_tokens = 64
    result = asyncio.run(agent.run("What is the weather in Paris?"))
    assert "18" in str(result.output), result


@pytest.mark.real_model
def test_agent_run_native_first(default_model_path: str) -> None:
    """tool_format="native-first": the call in the template's format, the answer after it in agentcore's turns."""
    from agentcore.models.llamacpp import LlamaCppModel

    model = LlamaCppModel(default_model_path, n_ctx=2048, n_threads=2, seed=0, tool_format="native-first")

    @tool
    def get_weather(city: str) -> str:
        """Current weather of a city."""
        return f"{city}: 18 C and sunny"

    class Recorded(Agent[None, str]):
        async def after_model_call(self, ctx: object, response: object) -> object:
            raws.append(str(getattr(response, "raw", "")))
            return response

    raws: list[str] = []
    agent = Recorded(model, tools=[get_weather], max_steps=3)
    agent.max_tokens = 64
    result = asyncio.run(agent.run("What is the weather in Paris?"))
    assert "18" in str(result.output), result
    assert raws[0] == ""  # the native call, read back as canonical JSON in the turns after it
    assert raws[-1].lstrip().startswith("{"), raws  # the answer as a JSON turn
