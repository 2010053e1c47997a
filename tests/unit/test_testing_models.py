"""The test models that ship in `agentcore.testing`: ScriptedModel and FunctionModel."""

from __future__ import annotations

import asyncio

import pytest

from agentcore.agent import Agent
from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall, ToolSpec, Usage
from agentcore.models.base import Model
from agentcore.testing import FunctionModel, ScriptedModel, call
from agentcore.tools.function import tool

ADD = ToolSpec("add", "Add.", {"type": "object", "properties": {"a": {"type": "integer"}}})
REQUEST = ModelRequest(messages=(Message("system", "s"), Message("user", "Task: add two and two")), tools=(ADD,))


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_call_shorthand() -> None:
    assert call("add", a=1, b=2) == ToolCall("add", {"a": 1, "b": 2})


def test_test_models_satisfy_the_model_protocol() -> None:
    assert isinstance(ScriptedModel([]), Model)
    assert isinstance(FunctionModel(lambda request: "x"), Model)
    assert ScriptedModel([], name="s1").name == "s1" and FunctionModel(lambda r: "x", name="f1").name == "f1"


async def test_scripted_model_plays_turns_in_order_and_records_requests() -> None:
    custom = ModelResponse(content="raw", usage=Usage(prompt_tokens=9, generated_tokens=2, calls=1))
    model = ScriptedModel([call("add", a=1), "four", custom])
    first = await model.complete(REQUEST)
    assert first.tool_call == ToolCall("add", {"a": 1}) and first.content is None
    second = await model.complete(REQUEST)
    assert second.content == "four" and second.tool_call is None
    assert second.usage == Usage(prompt_tokens=6, generated_tokens=1, calls=1)  # word count of the prompt
    third = await model.complete(REQUEST)
    assert third.usage == Usage(prompt_tokens=9, generated_tokens=2, calls=1)  # given usage is kept
    assert model.requests == [REQUEST, REQUEST, REQUEST]
    model.assert_complete()


async def test_scripted_model_fails_on_an_unexpected_extra_call() -> None:
    model = ScriptedModel(["only"])
    await model.complete(REQUEST)
    with pytest.raises(AssertionError, match="unexpected call #2; only 1 turns were scripted"):
        await model.complete(REQUEST)


async def test_assert_complete_fails_when_turns_are_left() -> None:
    model = ScriptedModel(["a", "b"])
    await model.complete(REQUEST)
    with pytest.raises(AssertionError, match="2 turns scripted, 1 used"):
        model.assert_complete()


async def test_scripted_call_to_a_tool_not_offered_is_an_error() -> None:
    model = ScriptedModel([call("delete", path="/")])
    with pytest.raises(ModelError, match=r"scripted call to 'delete', but the request offers only \['add'\]"):
        await model.complete(REQUEST)


async def test_scripted_model_delay_is_awaited() -> None:
    model = ScriptedModel(["late"], delay=5)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(model.complete(REQUEST), 0.05)
    assert len(model.requests) == 1


async def test_an_agent_run_past_the_script_raises() -> None:
    model = ScriptedModel([call("add", a=1, b=2)])
    with pytest.raises(AssertionError, match="unexpected call #2"):
        await Agent(model, tools=[add]).run("add")


async def test_function_model_sync() -> None:
    def answer(request: ModelRequest) -> str:
        return f"{len(request.messages)} messages"

    model = FunctionModel(answer)
    response = await model.complete(REQUEST)
    assert response.content == "2 messages" and response.usage.calls == 1
    assert model.requests == [REQUEST]


async def test_function_model_async_and_tool_calls() -> None:
    async def answer(request: ModelRequest) -> ToolCall | str:
        await asyncio.sleep(0)
        return call("add", a=2) if request.tools else "done"

    model = FunctionModel(answer)
    assert (await model.complete(REQUEST)).tool_call == ToolCall("add", {"a": 2})
    assert (await model.complete(ModelRequest(messages=REQUEST.messages))).content == "done"


async def test_function_model_checks_offered_tools_too() -> None:
    model = FunctionModel(lambda request: call("delete"))
    with pytest.raises(ModelError, match="scripted call to 'delete'"):
        await model.complete(REQUEST)


async def test_function_model_drives_an_agent_by_the_prompt() -> None:
    def answer(request: ModelRequest) -> ToolCall | str:
        if len(request.messages) == 2:  # system prompt and task: nothing done yet
            return call("add", a=2, b=2)
        return "saw 4" if "4" in request.messages[-1].content else "no result"

    result = await Agent(FunctionModel(answer), tools=[add]).run("two plus two")
    assert result.output == "saw 4" and result.usage.calls == 2
