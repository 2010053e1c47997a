"""BFCL's parallel categories (bench/bfcl_parallel.py): an agentcore run's every call is its answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentcore.testing import ScriptedModel, call
from bench import bfcl
from bench.bfcl_parallel import MAX_STEPS, TOOL_RESULT, agentcore_calls, bare_loop_calls, is_parallel, read_calls
from tests.unit.test_bench_bfcl import TRIANGLE

AREA = TRIANGLE  # calculate_triangle_area(base, height, unit=None)
ASKED = "Find the area of a triangle with base 10 and height 5, and of one with base 15 and height 7."


def _calls(model: ScriptedModel, task: str = ASKED) -> Any:
    messages = [{"role": "user", "content": task}]
    return asyncio.run(agentcore_calls(model, [bfcl.tool_spec(AREA)], messages, 256))


def test_every_call_of_the_run_is_the_answer_in_order() -> None:
    first = call("calculate_triangle_area", base=10, height=5)
    second = call("calculate_triangle_area", base=15, height=7)
    model = ScriptedModel([first, second, "Done."])
    answer = _calls(model)
    assert answer.calls == [
        {"calculate_triangle_area": {"base": 10, "height": 5}},
        {"calculate_triangle_area": {"base": 15, "height": 7}},
    ]
    assert answer.error is None and answer.notes == ["3 model turns"]
    model.assert_complete()
    # each call got the neutral result before the next turn
    assert TOOL_RESULT in model.requests[1].messages[-1].content


def test_an_answer_with_no_call_is_no_call() -> None:
    model = ScriptedModel(["I cannot help with that."])
    answer = _calls(model, "Tell me a joke.")
    assert answer.calls == [] and answer.error is None


def test_out_of_steps_keeps_the_calls_made() -> None:
    turns = [call("calculate_triangle_area", base=10 + i, height=5) for i in range(MAX_STEPS)]
    model = ScriptedModel(turns)
    answer = _calls(model, "Areas of triangles with height 5 and bases " + ", ".join(str(10 + i) for i in range(8)))
    assert len(answer.calls) >= 2 and answer.error is None
    assert answer.calls[0] == {"calculate_triangle_area": {"base": 10, "height": 5}}


def test_parallel_categories_are_opt_in_and_run_on_agentcore_and_bare_only() -> None:
    assert all(map(is_parallel, ("parallel", "parallel_multiple", "live_parallel", "live_parallel_multiple")))
    assert not is_parallel("multiple")
    assert "parallel" not in bfcl.CATEGORIES
    args = bfcl.parse_args(["--categories", "parallel_multiple", "--systems", "agentcore,bare"])
    assert args.categories == ["parallel_multiple"]
    with pytest.raises(SystemExit):
        bfcl.parse_args(["--categories", "parallel", "--systems", "agentcore+relevance"])


class _Bare:
    """BareQwen's `reply`, scripted: records the chats it was given."""

    def __init__(self, texts: list[str]) -> None:
        self.texts, self.chats = list(texts), []  # type: ignore[var-annotated]

    def reply(self, specs: Any, chat: Any) -> tuple[str, int, str | None]:
        self.chats.append([dict(m) for m in chat])
        return self.texts.pop(0), 10, None


def _json_call(base: int) -> str:
    return f'```json\n{{"name": "calculate_triangle_area", "arguments": {{"base": {base}, "height": 5}}}}\n```'


def test_bare_loop_sends_calls_back_in_the_template_roles_until_no_new_call() -> None:
    bare = _Bare([_json_call(10), _json_call(15), _json_call(15), "unused"])
    messages = [{"role": "user", "content": ASKED}]
    answer = bare_loop_calls(bare, [bfcl.tool_spec(AREA)], messages)
    assert answer.calls == [
        {"calculate_triangle_area": {"base": 10, "height": 5}},
        {"calculate_triangle_area": {"base": 15, "height": 5}},
    ]
    assert answer.notes == ["3 model turns"] and answer.prompt_tokens == 30  # the repeat ended the loop
    second = bare.chats[1]
    assert second[1]["tool_calls"] == [
        {"type": "function", "function": {"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}}
    ]
    assert second[2] == {"role": "tool", "content": TOOL_RESULT}


def test_bare_loop_stops_at_a_reply_without_a_call() -> None:
    bare = _Bare(["I cannot do that."])
    answer = bare_loop_calls(bare, [bfcl.tool_spec(AREA)], [{"role": "user", "content": "hi"}])
    assert answer.calls == [] and answer.notes == ["1 model turns"]


def test_bare_loop_is_for_the_parallel_categories_only() -> None:
    assert bfcl.parse_args(["--categories", "parallel", "--systems", "bare-loop"]).systems == ["bare-loop"]
    with pytest.raises(SystemExit):
        bfcl.parse_args(["--categories", "parallel,multiple", "--systems", "bare-loop"])


def test_read_calls_takes_json_calls_written_one_after_another() -> None:
    text = '{"name": "a", "arguments": {"x": 1}}\n{"name": "b", "arguments": {"y": {"z": 2}}}\nnot json {oops'
    assert read_calls(text) == [{"a": {"x": 1}}, {"b": {"y": {"z": 2}}}]
    assert read_calls("no call here") == []
    fenced = '```json\n{"name": "a", "arguments": {"x": 1}}\n```\n{"name": "b", "arguments": {}}'
    assert read_calls(fenced) == [{"a": {"x": 1}}]  # parse_lenient's reading comes first, as bare-lenient's
