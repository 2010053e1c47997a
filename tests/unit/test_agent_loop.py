"""The run loop and `Agent` on scripted models: steps, retries, limits, timeouts, cancelling, subclasses."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from pydantic import BaseModel

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.errors import RunCancelledError, RunTimeoutError, UsageLimitExceeded, UserError
from agentcore.events import Event, Notice
from agentcore.messages import Message, ModelRequest, ToolCall
from agentcore.testing import FunctionModel, ScriptedModel, Turn, call
from agentcore.tools.function import tool

tool_calls: list[dict[str, int]] = []


@tool
async def add(a: int, b: int) -> int:
    """Add two integers."""
    tool_calls.append({"a": a, "b": b})
    await asyncio.sleep(0.01)
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@tool
def explode(reason: str) -> str:
    """Always fails."""
    raise ValueError(f"boom: {reason}")


@tool(timeout=0.05)
async def sleepy() -> str:
    """Sleeps past its timeout."""
    await asyncio.sleep(1)
    return "late"


@tool
def whoami(ctx: RunContext[dict[str, str]]) -> str:
    """The user of this run."""
    return f"{ctx.deps['user']}@{ctx.step}"


def setup_function() -> None:
    tool_calls.clear()


def last_message(request: ModelRequest) -> str:
    return request.messages[-1].content


# --- the happy path -----------------------------------------------------------------------------------------


async def test_two_step_chain_completes_with_steps_usage_and_ledger() -> None:
    model = ScriptedModel([call("add", a=2, b=3), call("mul", a=5, b=4), "20"], delay=0.01)
    result = await Agent(model, tools=[add, mul]).run("What is (2+3)*4?")
    model.assert_complete()
    assert (result.status, result.output, result.ok, result.error) == ("completed", "20", True, None)
    assert len(model.requests) == 3 and [s.index for s in result.steps] == [1, 2, 3]
    assert [s.call for s in result.steps] == [
        ToolCall("add", {"a": 2, "b": 3}),
        ToolCall("mul", {"a": 5, "b": 4}),
        None,
    ]
    assert [s.result for s in result.steps] == ["5", "20", None]
    assert result.steps[-1].content == "20"
    assert result.usage.calls == 3 and result.usage.generated_tokens == 3
    assert result.usage.prompt_tokens == sum(s.usage.prompt_tokens for s in result.steps) > 0
    ledger = result.ledger
    assert ledger.model_seconds >= 0.03 and ledger.tool_seconds >= 0.01
    assert ledger.total_seconds >= ledger.model_seconds + ledger.tool_seconds
    total = ledger.model_seconds + ledger.tool_seconds + ledger.framework_seconds
    assert total == pytest.approx(ledger.total_seconds, abs=1e-9) and "total" in ledger.summary()


async def test_tool_results_reach_the_next_request_and_the_prefix_is_stable() -> None:
    model = ScriptedModel([call("add", a=2, b=3), call("mul", a=5, b=4), "20"])
    result = await Agent(model, tools=[add, mul], instructions="Be exact.").run("What is (2+3)*4?")
    first, second, third = model.requests
    task = "What is (2+3)*4?"
    assert last_message(second) == prompting.observation(task, ToolCall("add", {"a": 2, "b": 3}), "5").content
    assert last_message(third) == prompting.observation(task, ToolCall("mul", {"a": 5, "b": 4}), "20").content
    assert "20" in last_message(third) and task in last_message(third)
    assert second.messages[2] == Message("assistant", '{"tool": "add", "arguments": {"a": 2, "b": 3}}')
    system = first.messages[0]
    assert system.role == "system" and system.content.startswith("Be exact.")
    assert "- add(a: integer, b: integer): Add two integers." in system.content
    assert all(r.messages[0] == system for r in model.requests)
    for earlier, later in zip(model.requests, model.requests[1:], strict=False):
        assert later.messages[: len(earlier.messages)] == earlier.messages  # append-only
        assert len(later.messages) > len(earlier.messages)
    assert tuple(result.messages[: len(third.messages)]) == third.messages
    assert result.messages[-1] == Message("assistant", '{"final_answer": "20"}')
    assert [s.name for s in first.tools] == ["add", "mul"] and first.constrain


async def test_deps_reach_tools_through_run_context() -> None:
    model = ScriptedModel([call("whoami"), "done"])
    result = await Agent(model, tools=[whoami]).run("who?", deps={"user": "ada"})
    assert result.steps[0].result == "ada@1"


async def test_empty_task_and_bad_max_steps_are_user_errors() -> None:
    with pytest.raises(UserError, match="empty"):
        await Agent(ScriptedModel([])).run("  ")
    with pytest.raises(UserError, match="max_steps"):
        Agent(ScriptedModel([]), max_steps=0)


# --- limits and recoveries ----------------------------------------------------------------------------------


def counting_model() -> FunctionModel:
    """Calls `add` forever, each time with new arguments (so the repeat guard does not fire)."""
    return FunctionModel(lambda request: call("add", a=len(request.messages), b=1))


def slow_counting_model() -> FunctionModel:
    """Like counting_model, taking 20 ms a call, so a run left going keeps calling it."""

    async def slow(request: ModelRequest) -> ToolCall:
        await asyncio.sleep(0.02)
        return call("add", a=len(request.messages), b=1)

    return FunctionModel(slow)


async def test_max_steps_raises_with_the_partial_run() -> None:
    model = counting_model()
    with pytest.raises(UsageLimitExceeded, match="max_steps=3") as info:
        await Agent(model, tools=[add], max_steps=3).run("loop")
    partial = info.value.partial
    assert partial is not None
    assert (partial.status, partial.output) == ("max_steps", None)
    # The last turn offered only an answer (loop.last_turn); a model that calls anyway gets no more turns.
    assert len(model.requests) == 3 and model.requests[-1].tools == () and len(tool_calls) == 2
    assert len(partial.steps) == 2
    with pytest.raises(UsageLimitExceeded) as again:
        await Agent(counting_model(), tools=[add], max_steps=3).run("loop", max_steps=2)
    assert again.value.partial is not None and len(again.value.partial.steps) == 1


async def test_the_last_turn_max_steps_allows_is_an_answer_from_the_results() -> None:
    model, events = ScriptedModel([call("add", a=1, b=2), call("add", a=3, b=4), "7"]), list[Event]()
    result = await Agent(model, tools=[add], max_steps=3).run("add things", on_event=events.append)
    assert (result.status, result.output) == ("completed", "7")
    assert [r.tools != () for r in model.requests] == [True, True, False]
    assert any(isinstance(e, Notice) and "last model turn" in e.message for e in events)


async def test_the_last_turn_stays_open_before_any_result() -> None:
    model = ScriptedModel([call("add", a=1, b=2), "3"])
    result = await Agent(model, tools=[add], max_steps=2).run("add")  # a result came: the answer is offered only
    assert model.requests[-1].tools == () and result.output == "3"
    model = ScriptedModel([call("add", a="x", b=2), call("add", a=1, b=2)])  # no good result before the last turn
    with pytest.raises(UsageLimitExceeded):
        await Agent(model, tools=[add], max_steps=2).run("add")
    assert model.requests[-1].tools != ()


async def test_repeated_identical_call_leaves_only_a_final_answer() -> None:
    model = ScriptedModel([call("add", a=1, b=2), call("add", a=1, b=2), "3"])
    result = await Agent(model, tools=[add]).run("1+2")
    assert (result.status, result.output) == ("completed", "3")
    assert len(tool_calls) == 1  # the repeat was not executed
    assert model.requests[2].tools == ()
    notice = prompting.repeated_call_notice("1+2", ToolCall("add", {"a": 1, "b": 2}), "3")
    assert model.requests[2].messages[-1] == notice
    notices = [t for t in result.trace if t["kind"] == "notice" and "repeated" in t["message"]]
    assert len(notices) == 1 and notices[0]["call"] == 'add({"a": 1, "b": 2})'


async def test_repeated_call_excludes_that_tool_then_a_second_repeat_allows_only_final() -> None:
    script: list[Turn] = [
        call("add", a=1, b=2),
        call("add", a=1, b=2),
        call("mul", a=3, b=3),
        call("mul", a=3, b=3),
        "9",
    ]
    model = ScriptedModel(script)
    result = await Agent(model, tools=[add, mul]).run("(1+2)^2")
    assert result.output == "9"
    assert [[s.name for s in r.tools] for r in model.requests] == [
        ["add", "mul"],
        ["add", "mul"],
        ["mul"],
        ["add", "mul"],
        [],
    ]


async def test_tool_exception_is_shown_to_the_model_and_the_run_goes_on() -> None:
    model = ScriptedModel([call("explode", reason="disk"), "gave up"])
    result = await Agent(model, tools=[explode]).run("try")
    assert result.output == "gave up"
    seen = last_message(model.requests[1])
    failed = ToolCall("explode", {"reason": "disk"})
    assert seen == prompting.observation("try", failed, "ValueError: boom: disk", error=True).content
    assert (
        "ValueError: boom: disk" in seen
        and seen != prompting.observation("try", failed, "ValueError: boom: disk").content
    )
    assert result.steps[0].tool_error and result.steps[0].result == "ValueError: boom: disk"


async def test_tool_timeout_is_shown_to_the_model() -> None:
    model = ScriptedModel([call("sleepy"), "ok"])
    started = time.perf_counter()
    result = await Agent(model, tools=[sleepy]).run("sleep")
    assert time.perf_counter() - started < 0.9
    seen = last_message(model.requests[1])
    assert seen == prompting.observation("sleep", ToolCall("sleepy", {}), "timed out after 0.05s", error=True).content
    assert result.output == "ok" and result.steps[0].tool_error


async def test_validation_error_is_retried_with_a_message() -> None:
    model = ScriptedModel([call("add", a="two", b=1), call("add", a=2, b=1), "3"])
    result = await Agent(model, tools=[add]).run("2+1")
    assert result.output == "3" and tool_calls == [{"a": 2, "b": 1}]
    problem = result.steps[0].result
    assert problem is not None and problem.startswith("invalid arguments: a:")
    assert model.requests[1].messages[-1] == prompting.retry_message("2+1", "Calling add", problem)
    assert any("retry" in t.get("message", "") for t in result.trace)


@pytest.mark.parametrize(("max_retries", "bad_calls"), [(2, 3), (0, 1)])
async def test_validation_retries_are_bounded(max_retries: int, bad_calls: int) -> None:
    strict_add = tool(name="add", max_retries=max_retries)(mul.function)
    model = ScriptedModel([call("add", a="x", b=i) for i in range(bad_calls)])
    result = await Agent(model, tools=[strict_add]).run("add")
    model.assert_complete()  # exactly max_retries + 1 bad calls, then the run stops
    assert result.status == "error" and result.output is None
    assert result.error is not None and f"failed {bad_calls} times" in result.error


# --- output types -------------------------------------------------------------------------------------------


class City(BaseModel):
    name: str
    population: int


async def test_model_output_type() -> None:
    model = ScriptedModel(['{"name": "Oslo", "population": 700000}'])
    result = await Agent(model, output_type=City).run("Biggest city in Norway?")
    assert result.output == City(name="Oslo", population=700000)
    schema = model.requests[0].output_schema
    assert schema is not None and schema["required"] == ["name", "population"]


async def test_invalid_output_is_retried_then_accepted() -> None:
    model = ScriptedModel(['{"name": "Oslo"}', '{"name": "Oslo", "population": 1}'])
    result = await Agent(model, output_type=City).run("city?")
    assert result.output == City(name="Oslo", population=1)
    assert "the answer does not match the output type" in last_message(model.requests[1])


async def test_int_output_and_bounded_output_retries() -> None:
    result = await Agent(ScriptedModel(["42"]), output_type=int).run("answer?")
    assert result.output == 42 and isinstance(result.output, int)
    model = ScriptedModel(["forty-two"] * 3)
    failed = await Agent(model, output_type=int).run("answer?")
    model.assert_complete()
    assert failed.status == "error" and failed.output is None


# --- timeouts, cancellation ---------------------------------------------------------------------------------


async def test_run_timeout_raises_with_partial() -> None:
    started = time.perf_counter()
    with pytest.raises(RunTimeoutError, match="timed out") as info:
        await Agent(ScriptedModel(["never"], delay=1)).run("wait", timeout=0.05)
    assert time.perf_counter() - started < 0.9
    assert info.value.partial is not None and info.value.partial.status == "timeout"
    assert info.value.partial.ledger.total_seconds >= 0.05


@tool
async def stop_now(ctx: RunContext[asyncio.Event]) -> str:
    """Sets the cancel event (the deps), as a user pressing stop would. Async: Event is not thread-safe."""
    ctx.deps.set()
    return "stopping"


async def test_cancel_event_raises_with_partial() -> None:
    cancel = asyncio.Event()
    model = ScriptedModel([call("stop_now"), "never"], delay=0.01)
    started = time.perf_counter()
    with pytest.raises(RunCancelledError) as info:
        await Agent(model, tools=[stop_now]).run("wait", deps=cancel, cancel=cancel)
    assert time.perf_counter() - started < 0.9
    partial = info.value.partial
    assert partial is not None and (partial.status, partial.output) == ("cancelled", None)
    assert len(partial.steps) == 1 and partial.steps[0].result == "stopping"


async def test_plain_task_cancel_propagates() -> None:
    task = asyncio.create_task(Agent(ScriptedModel(["never"], delay=1)).run("wait"))
    await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_task_cancel_with_a_cancel_event_stops_the_run() -> None:
    model = slow_counting_model()
    task = asyncio.create_task(Agent(model, tools=[add], max_steps=50).run("loop", cancel=asyncio.Event()))
    await asyncio.sleep(0.06)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    calls_at_cancel = len(model.requests)
    try:
        for _ in range(30):  # the orphaned run would call the model again within a few ms
            await asyncio.sleep(0.01)
            if len(model.requests) > calls_at_cancel:
                break
        assert len(model.requests) == calls_at_cancel
    finally:
        for other in asyncio.all_tasks():
            if other is not asyncio.current_task():
                other.cancel()


# --- run_sync, override, subclassing ------------------------------------------------------------------------


def test_run_sync_outside_a_loop() -> None:
    result = Agent(ScriptedModel([call("mul", a=6, b=7), "42"]), tools=[mul]).run_sync("6*7")
    assert result.output == "42" and result.steps[0].result == "42"


async def test_override_swaps_and_restores_model_and_tools() -> None:
    original = ScriptedModel(["from original"])
    agent: Agent[Any, Any] = Agent(original, tools=[add])
    swapped = ScriptedModel([call("mul", a=2, b=2), "from swapped"])
    with agent.override(model=swapped, tools=[mul]):
        assert (await agent.run("x")).output == "from swapped"
    assert [s.name for s in swapped.requests[0].tools] == ["mul"]
    assert agent.model is original and (await agent.run("x")).output == "from original"
    assert [s.name for s in original.requests[0].tools] == ["add"]
    with pytest.raises(RuntimeError), agent.override(model=swapped):
        raise RuntimeError
    assert agent.model is original


HELPER_MODEL = ScriptedModel([call("add", a=1, b=1), "2"])


class Helper(Agent[None, int]):
    instructions = "You are Helper."
    tools = (add,)
    model = HELPER_MODEL
    output_type = int


async def test_subclass_attributes_are_honoured() -> None:
    result = await Helper().run("1+1")
    assert result.output == 2
    request = HELPER_MODEL.requests[0]
    assert request.messages[0].content.startswith("You are Helper.")
    assert [s.name for s in request.tools] == ["add"] and request.output_schema == {"type": "integer"}


async def test_constructor_arguments_override_subclass_attributes() -> None:
    model = ScriptedModel([call("mul", a=2, b=3), "six"])
    result = await Helper(model, instructions="Other.", tools=[mul], output_type=str).run("2*3")
    assert result.output == "six"
    assert model.requests[0].messages[0].content.startswith("Other.")
    assert [s.name for s in model.requests[0].tools] == ["mul"] and model.requests[0].output_schema is None


async def test_override_works_on_a_subclass_with_a_model_attribute() -> None:
    helper = Helper()
    with helper.override(model=ScriptedModel(["7"])):
        assert (await helper.run("x")).output == 7
    assert helper.resolve_model() is HELPER_MODEL


@pytest.mark.parametrize(("attribute", "expected"), [(None, None), ("my-model", "my-model")])
def test_model_spec_from_class_attribute_is_loaded_lazily(
    monkeypatch: pytest.MonkeyPatch, attribute: str | None, expected: str | None
) -> None:
    loaded: list[object] = []
    scripted = ScriptedModel([])

    def fake_load(spec: object) -> ScriptedModel:
        loaded.append(spec)
        return scripted

    monkeypatch.setattr("agentcore.models.loader.load_model", fake_load)
    agent_class = Agent if attribute is None else type("Named", (Agent,), {"model": attribute})
    agent = agent_class()
    assert loaded == []  # nothing is loaded until the model is needed
    assert agent.resolve_model() is scripted and agent.resolve_model() is scripted
    assert loaded == [expected]
