"""The BFCL adapter's own parts (bench/bfcl.py, bench/bfcl_systems.py) on inline fixtures: no bfcl-eval, no model.

bfcl-eval's data and checker are exercised by `python -m bench.bfcl` (and `scripts/setup_bfcl.sh` checks that they
load); nothing here needs them, so nothing here is skipped when they are not installed.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from agentcore.messages import ToolSpec
from agentcore.testing import ScriptedModel, call
from bench import bfcl
from bench.bfcl_systems import (
    ChatTemplate,
    agentcore_answer,
    openai_tools,
    parse_lenient,
    parse_tool_calls,
    split_messages,
)

# BFCL v4 docs as the package ships them (simple_python_0, a float, a tuple, a nested dict, a list of dicts).
TRIANGLE = {
    "name": "calculate_triangle_area",
    "description": "Calculate the area of a triangle given its base and height.",
    "parameters": {
        "type": "dict",
        "properties": {
            "base": {"type": "integer", "description": "The base of the triangle."},
            "height": {"type": "integer", "description": "The height of the triangle."},
            "unit": {"type": "string", "description": "The unit of measure (defaults to 'units' if not specified)"},
        },
        "required": ["base", "height"],
    },
}
MIXED = {
    "name": "geo.plan_route",
    "description": "Plan a route.",
    "parameters": {
        "type": "dict",
        "properties": {
            "speed": {"type": "float", "description": "Average speed.", "default": 50.0},
            "start": {"type": "tuple", "description": "Start point.", "items": {"type": "float"}},
            "mode": {"type": "string", "enum": ["car", "bike"], "description": "How."},
            "anything": {"type": "any", "description": "Whatever."},
            "odd": {"type": "HashMap", "description": "A Java-ish type."},
            "untyped": {"description": "No type given."},
            "options": {
                "type": "dict",
                "description": "Options.",
                "properties": {"tolls": {"type": "boolean", "description": "Allow tolls."}, "cap": {"type": "float"}},
            },
            "stops": {
                "type": "array",
                "description": "Stops.",
                "items": {"type": "dict", "properties": {"name": {"type": "string"}, "wait": {"type": "float"}}},
            },
            "grid": {"type": "array", "items": {"type": "list", "items": {"type": "integer"}}},
        },
        "required": ["start"],
    },
}


# --- function docs -> ToolSpecs -------------------------------------------------------------------------------


def test_tool_spec_simple() -> None:
    spec = bfcl.tool_spec(TRIANGLE)
    assert spec == ToolSpec(
        name="calculate_triangle_area",
        description="Calculate the area of a triangle given its base and height.",
        parameters={
            "type": "object",
            "properties": {
                "base": {"type": "integer", "description": "The base of the triangle."},
                "height": {"type": "integer", "description": "The height of the triangle."},
                "unit": {"type": "string", "description": "The unit of measure (defaults to 'units' if not specified)"},
            },
            "required": ["base", "height"],
        },
    )


def test_tool_spec_casts_types_as_bfcl_convert_to_tool() -> None:
    spec = bfcl.tool_spec(MIXED)
    props = spec.parameters["properties"]
    assert spec.name == "geo.plan_route"  # dots kept: the checker runs with underscore_to_dot False
    assert spec.parameters["type"] == "object" and spec.parameters["required"] == ["start"]
    assert props["speed"] == {
        "type": "number",
        "format": "float",
        "description": "Average speed. This is a float type value.",
        "default": 50.0,
    }
    assert props["start"] == {"type": "array", "description": "Start point.", "items": {"type": "number"}}
    assert props["mode"] == {"type": "string", "enum": ["car", "bike"], "description": "How."}
    assert props["anything"]["type"] == "string"
    assert props["odd"]["type"] == "object"  # HashMap -> object, as GORILLA_TO_OPENAPI maps it
    assert props["untyped"] == {"description": "No type given.", "type": "string"}
    # nested properties are cast recursively (a float in there gets its note even without a description)
    assert props["options"]["type"] == "object"
    assert props["options"]["properties"]["tolls"]["type"] == "boolean"
    assert props["options"]["properties"]["cap"] == {
        "type": "number",
        "format": "float",
        "description": " This is a float type value.",
    }
    # list items: the item type, and the properties of dict items
    assert props["stops"]["items"]["type"] == "object"
    assert props["stops"]["items"]["properties"]["wait"]["type"] == "number"
    assert props["grid"]["items"] == {"type": "array", "items": {"type": "integer"}}


def test_tool_spec_does_not_mutate_the_doc() -> None:
    before = json.dumps(MIXED, sort_keys=True)
    bfcl.tool_spec(MIXED)
    bfcl.tool_spec(MIXED)
    assert json.dumps(MIXED, sort_keys=True) == before


def test_tool_spec_compiles_to_agentcore_grammar() -> None:
    from agentcore.grammar import schema_to_gbnf
    from agentcore.messages import ModelRequest
    from agentcore.turns import turn_schema

    specs = (bfcl.tool_spec(TRIANGLE), bfcl.tool_spec(MIXED))
    schema = turn_schema(ModelRequest(messages=(), tools=specs))
    assert schema is not None
    assert "root" in schema_to_gbnf(schema)


# --- the split --------------------------------------------------------------------------------------------


def test_split_even_dev_odd_test() -> None:
    entries = [f"e{i}" for i in range(7)]
    assert bfcl.split_entries(entries, "dev") == ["e0", "e2", "e4", "e6"]
    assert bfcl.split_entries(entries, "test") == ["e1", "e3", "e5"]
    assert bfcl.split_entries(entries, "dev", 2) == ["e0", "e2"]
    assert bfcl.split_entries(entries, "test", 1, skip=1) == ["e3"]  # a fresh slice after the entries seen
    assert bfcl.split_entries(entries, "test", 10) == ["e1", "e3", "e5"]
    assert set(bfcl.split_entries(entries, "dev")).isdisjoint(bfcl.split_entries(entries, "test"))
    with pytest.raises(ValueError):
        bfcl.split_entries(entries, "train")


def test_args() -> None:
    args = bfcl.parse_args(["--split", "dev", "--limit", "3", "--categories", "multiple,irrelevance"])
    assert (args.split, args.limit, args.categories, args.systems) == (
        "dev",
        3,
        ["multiple", "irrelevance"],
        ["agentcore", "agentcore+relevance", "bare"],
    )
    assert bfcl.parse_args([]).split == "test"
    assert bfcl.parse_args([]).categories == list(bfcl.CATEGORIES)
    with pytest.raises(SystemExit):
        bfcl.parse_args(["--categories", "simple_java"])
    with pytest.raises(SystemExit):
        bfcl.parse_args(["--systems", "gpt"])


# --- results ----------------------------------------------------------------------------------------------


def test_result_files(tmp_path: Path) -> None:
    scores = bfcl.empty_scores(bfcl.rows(["agentcore", "bare"]), ["simple_python", "irrelevance"])
    assert list(scores) == ["agentcore", "bare", "bare-lenient"]
    scores["agentcore"]["simple_python"] = {"correct": 3, "n": 4}
    scores["bare"]["irrelevance"] = {"correct": 1, "n": 4}
    data = bfcl.results_json(scores, "dev", 4)
    records = [{"system": "agentcore", "id": "simple_python_0", "ok": True}]
    md = bfcl.write_results(tmp_path, data, ["- model: x"], records)

    saved = json.loads((tmp_path / "bfcl.json").read_text())
    assert set(saved) == {"systems", "split", "limit"}
    assert (saved["split"], saved["limit"]) == ("dev", 4)
    for system in saved["systems"].values():
        for counts in system.values():
            assert set(counts) == {"correct", "n"}
            assert all(isinstance(v, int) for v in counts.values())
    assert saved["systems"]["agentcore"]["simple_python"] == {"correct": 3, "n": 4}

    text = md.read_text()
    assert "| category | agentcore | bare | bare-lenient |" in text
    assert "| simple_python | 3/4 (75%) | - | - |" in text
    assert "| **all** | 3/4 (75%) | 1/4 (25%) | - |" in text
    assert "- model: x" in text
    assert json.loads((tmp_path / "bfcl_entries.jsonl").read_text()) == records[0]


# --- parsing the bare model's output ------------------------------------------------------------------------


def test_parse_tool_calls() -> None:
    one = '<tool_call>\n{"name": "math.hypot", "arguments": {"x": 4, "y": 5}}\n</tool_call>'
    assert parse_tool_calls(one) == [{"math.hypot": {"x": 4, "y": 5}}]
    two = (
        'Sure.\n<tool_call>\n{"name": "a", "arguments": {"q": 1}}\n</tool_call>\n'
        '<tool_call>{"name": "b", "arguments": "{\\"r\\": [1, 2]}"}</tool_call>'
    )
    assert parse_tool_calls(two) == [{"a": {"q": 1}}, {"b": {"r": [1, 2]}}]  # arguments as a JSON string too
    assert parse_tool_calls('<tool_call>\n{"name": "a", "arguments": {}}\n') == [{"a": {}}]  # cut-off closing tag
    assert parse_tool_calls("The answer is 42.") == []
    assert parse_tool_calls("<tool_call>\n{not json}\n</tool_call>") == []
    assert parse_tool_calls('<tool_call>{"arguments": {"x": 1}}</tool_call>') == []  # no name
    assert parse_tool_calls('<tool_call>{"name": "a", "arguments": [1]}</tool_call>') == []
    # a JSON call without the tags is not a call for the strict reading
    assert parse_tool_calls('```json\n{"name": "a", "arguments": {"x": 1}}\n```') == []


def test_parse_lenient() -> None:
    fenced = '```json\n{\n  "name": "math.hypot",\n  "arguments": {"x": 4, "y": 5}\n}\n```'
    assert parse_lenient(fenced) == [{"math.hypot": {"x": 4, "y": 5}}]
    assert parse_lenient('{"name": "a", "arguments": {"x": 1}}') == [{"a": {"x": 1}}]
    assert parse_lenient('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]') == [{"a": {}}, {"b": {}}]
    assert parse_lenient("```python\nprint('hi')\n```") == []
    assert parse_lenient("Certainly! Here is how.") == []
    tagged = '<tool_call>{"name": "t", "arguments": {}}</tool_call> ```json\n{"name": "u", "arguments": {}}\n```'
    assert parse_lenient(tagged) == [{"t": {}}]  # tags first


QWEN_TEMPLATE_EXCERPT = (
    "{%- if tools %}{{- '<|im_start|>system\\n' }}{%- if messages[0]['role'] == 'system' %}"
    "{{- messages[0]['content'] }}{%- else %}{{- 'You are Qwen.' }}{%- endif %}"
    '{{- "\\n<tools>" }}{%- for tool in tools %}{{- "\\n" }}{{- tool | tojson }}{%- endfor %}'
    "{{- '\\n</tools><|im_end|>\\n' }}{%- endif %}"
    "{%- for message in messages %}{%- if message.role == 'user' %}"
    "{{- '<|im_start|>user\\n' + message.content + '<|im_end|>\\n' }}{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)


def test_chat_template_renders_tools_like_transformers() -> None:
    tools = openai_tools([bfcl.tool_spec(TRIANGLE)])
    assert tools[0]["type"] == "function" and tools[0]["function"]["name"] == "calculate_triangle_area"
    prompt = ChatTemplate(QWEN_TEMPLATE_EXCERPT).render([{"role": "user", "content": "Area of 10 by 5?"}], tools)
    line = prompt.split("<tools>\n")[1].split("\n</tools>")[0]
    assert json.loads(line) == tools[0]
    assert line.index('"name"') < line.index('"description"') < line.index('"parameters"')  # key order kept
    assert "'units'" in line  # no HTML escaping (Jinja's own tojson writes \u0027)
    assert prompt.endswith("<|im_start|>user\nArea of 10 by 5?<|im_end|>\n<|im_start|>assistant\n")
    bare = ChatTemplate(QWEN_TEMPLATE_EXCERPT).render([{"role": "user", "content": "hi"}], [])
    assert "<tools>" not in bare


# --- the agentcore system: one Agent turn, captured -----------------------------------------------------------


def test_split_messages() -> None:
    assert split_messages([{"role": "user", "content": "q"}]) == (None, [], "q")
    messages = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
        {"role": "user", "content": "c"},
    ]
    assert split_messages(messages) == ("S", [("user", "a"), ("assistant", "b")], "c")


def _answer(model: Any, messages: list[dict[str, Any]], docs: list[dict[str, Any]]) -> Any:
    return asyncio.run(agentcore_answer(model, [bfcl.tool_spec(d) for d in docs], messages, 256))


def test_agentcore_tool_call_is_the_answer_and_never_runs() -> None:
    model = ScriptedModel([call("calculate_triangle_area", base=10, height=5)])
    answer = _answer(model, [{"role": "user", "content": "Area of a triangle, base 10, height 5?"}], [TRIANGLE])
    assert answer.calls == [{"calculate_triangle_area": {"base": 10, "height": 5}}]
    assert answer.error is None
    model.assert_complete()  # one model turn only: the veto stopped the run before the tool
    request = model.requests[0]
    assert [s.name for s in request.tools] == ["calculate_triangle_area"]
    assert request.constrain and request.allow_final
    assert request.messages[0].role == "system" and "calculate_triangle_area" in request.messages[0].content
    assert request.messages[-1].content.endswith("Area of a triangle, base 10, height 5?")


def test_agentcore_final_answer_is_no_call() -> None:
    model = ScriptedModel(["I cannot help with that."])
    answer = _answer(model, [{"role": "user", "content": "Tell me a joke"}], [TRIANGLE])
    assert answer.calls == []
    assert answer.error is None
    model.assert_complete()


def test_agentcore_answer_is_the_call_the_agent_would_run() -> None:
    # the loop sends a final answer back once when the task names a tool; the call it then makes is the answer
    model = ScriptedModel(["no", call("calculate_triangle_area", base=1, height=2)])
    answer = _answer(model, [{"role": "user", "content": "use calculate_triangle_area"}], [TRIANGLE])
    assert answer.calls == [{"calculate_triangle_area": {"base": 1, "height": 2}}]
    assert answer.error is None and answer.notes == ["2 model turns"]
    model.assert_complete()


def test_agentcore_call_with_made_up_numbers_is_held_back_and_the_answer_counts() -> None:
    model = ScriptedModel([call("calculate_triangle_area", base=10, height=50), "Base and height are not given."])
    answer = _answer(model, [{"role": "user", "content": "What is the area of a triangle?"}], [TRIANGLE])
    assert answer.calls == [] and answer.error is None
    assert answer.notes == ["2 model turns"]
    model.assert_complete()


def test_agentcore_uses_the_entry_system_prompt_and_history() -> None:
    model = ScriptedModel(["ok"])
    messages = [
        {"role": "system", "content": "You are a route planner."},
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "hi"},
        {"role": "user", "content": "plan it"},
    ]
    _answer(model, messages, [MIXED])
    sent = model.requests[0].messages
    assert sent[0].content.startswith("You are a route planner.")
    assert [m.content for m in sent[1:3]] == ["hello", "hi"]
    assert sent[-1].content.endswith("plan it")


def _tiers_entry(*docs: dict[str, Any]) -> bfcl.Entry:
    question = ({"role": "user", "content": "Area of a triangle, base 10, height 5?"},)
    return bfcl.Entry("multiple_1", "multiple", question, docs, None)


def test_tiers_answer_runs_two_functions_on_the_large_model() -> None:
    from agentcore.policies.routing import RoutingPolicy

    small, large = ScriptedModel([]), ScriptedModel([call("calculate_triangle_area", base=10, height=5)])
    routing = RoutingPolicy(tiers={"small": small, "large": large}, allow_direct=False)
    args = bfcl.parse_args(["--max-tokens", "256"])
    plain = object()  # plain agentcore's reply: not reused on the large tier
    reply = bfcl.tiers_answer(small, routing, _tiers_entry(TRIANGLE, MIXED), args, plain)
    assert reply is not plain
    assert reply.calls == [{"calculate_triangle_area": {"base": 10, "height": 5}}]
    large.assert_complete()
    assert small.requests == []


def test_tiers_answer_reuses_plain_agentcore_on_the_small_tier() -> None:
    from agentcore.policies.routing import RoutingPolicy

    small, large = ScriptedModel([call("calculate_triangle_area", base=10, height=5)]), ScriptedModel([])
    routing = RoutingPolicy(tiers={"small": small, "large": large}, allow_direct=False)
    args = bfcl.parse_args(["--max-tokens", "256"])
    plain = object()
    assert bfcl.tiers_answer(small, routing, _tiers_entry(TRIANGLE), args, plain) is plain
    reply = bfcl.tiers_answer(small, routing, _tiers_entry(TRIANGLE), args, None)  # no plain reply: run it
    assert reply.calls == [{"calculate_triangle_area": {"base": 10, "height": 5}}]
    assert large.requests == []


def test_agentcore_no_tools() -> None:
    model = ScriptedModel(["fine"])
    answer = _answer(model, [{"role": "user", "content": "How are you?"}], [])
    assert answer.calls == [] and answer.error is None
    assert model.requests[0].tools == ()


# --- the checker stub ---------------------------------------------------------------------------------------


def test_model_config_stub(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "bfcl_eval.constants.model_config"
    monkeypatch.delitem(sys.modules, name, raising=False)
    bfcl.install_model_config_stub()
    stub = sys.modules[name]
    assert stub.MODEL_CONFIG_MAPPING["agentcore"].underscore_to_dot is False
    assert stub.MODEL_CONFIG_MAPPING["any/other"].underscore_to_dot is False
    monkeypatch.delitem(sys.modules, name)


def test_merge_results_adds_counts_and_renames(tmp_path: Path) -> None:
    second = {"agentcore": {"simple_python": {"correct": 1, "n": 2}, "multiple": {"correct": 0, "n": 1}}}
    for name, scores in [("a", {"agentcore": {"simple_python": {"correct": 2, "n": 3}}}), ("b", second)]:
        folder = tmp_path / name
        bfcl.write_results(folder, bfcl.results_json(scores, "test", 8), [], [{"system": "agentcore", "id": name}])
    data, records = bfcl.merge_results([tmp_path / "a", tmp_path / "b"], {f"{tmp_path / 'b'}:agentcore": "other"})
    assert data["systems"] == {
        "agentcore": {"simple_python": {"correct": 2, "n": 3}},
        "other": {"simple_python": {"correct": 1, "n": 2}, "multiple": {"correct": 0, "n": 1}},
    }
    assert [r["system"] for r in records] == ["agentcore", "other"]


def test_unstated_replay_sorts_ground_truth_values(capsys: pytest.CaptureFixture[str]) -> None:
    from collections import Counter

    from bench.bfcl_unstated import _tally

    question = ({"role": "user", "content": "Find the area of a triangle with base 10 and height 5 in meters."},)
    counts: Counter[tuple[str, str]] = Counter()
    needed: list[str] = []
    for unit, entry_id in ((["meters"], "a"), (["units", ""], "b"), (["centimeters"], "c")):
        truth = [{"calculate_triangle_area": {"base": [10], "height": [5], "unit": unit}}]
        _tally(bfcl.Entry(entry_id, "simple_python", question, (TRIANGLE,), truth), counts, needed)
    assert counts == Counter({("str", "kept"): 1, ("str", "absent ok"): 1, ("str", "needed"): 1})
    assert needed == ["c: unit='centimeters'"]


def test_bfcl_places_picks_entries_whose_right_call_fills_a_documented_place() -> None:
    from bench.bfcl_places import _fills_a_place

    docs = {"name": "find_bus", "parameters": {"type": "dict", "properties": {
        "from_city": {"type": "string", "description": "The city, in the format of 'City, State'."},
        "when": {"type": "string", "description": "The date."},
    }}}  # fmt: skip

    def entry(answer: dict[str, Any]) -> bfcl.Entry:
        return bfcl.Entry("live_multiple_0", "live_multiple", (), (docs,), [{"find_bus": answer}])

    assert _fills_a_place(entry({"from_city": ["Austin, TX"], "when": [""]}))
    assert not _fills_a_place(entry({"from_city": [""], "when": ["today"]}))  # the place left to its default
    assert not _fills_a_place(entry({"when": ["today"]}))


def test_rewrites_replay_counts_right_calls_a_rule_would_change() -> None:
    from bench.bfcl_rewrites import replay

    docs = {"name": "find_salon", "parameters": {"type": "dict", "properties": {
        "city": {"type": "string", "description": "The city."},
        "is_unisex": {"type": "boolean", "description": "Whether the salon serves everyone."},
        "time": {"type": "string", "description": "The time, 'HH:MM'."},
    }}}  # fmt: skip
    question = ({"role": "user", "content": "A unisex salon in Berkeley at 13:30, please."},)
    right = [{"find_salon": {"city": ["Berkeley"], "is_unisex": [True], "time": ["14:30"]}}]
    counts = replay([bfcl.Entry("live_multiple_0", "live_multiple", question, (docs,), right)])
    assert counts["right calls"] == 1 and counts["times.as_task_time"] == 1  # a time the task does not write
    assert counts["named_flags: set true"] == 1 and counts["named_flags: set true where true is not right"] == 0
    assert counts["relative_dates.on_asked_day"] == 0


def test_rewrites_replay_counts_needed_values_a_rule_would_leave_out() -> None:
    from bench.bfcl_rewrites import replay

    docs = {"name": "find_cleaner", "parameters": {"type": "dict", "required": ["province_id"], "properties": {
        "province_id": {"type": "integer", "description": "ID of the province: 1 for Bangkok, 2 for Chiang Mai."},
        "district_name": {"type": "string", "description": "The district."},
        "start_date": {"type": "string", "description": "Available from, YYYY-MM-DD."},
        "url": {"type": "string", "description": "The endpoint, 'https://{ip}/api'."},
    }}}  # fmt: skip
    question = ({"role": "user", "content": "A cleaner in Bangkok, please; ask the server at 10.0.0.2."},)
    right = [{"find_cleaner": {"province_id": [1], "district_name": ["Bangkok"], "start_date": ["2024-03-22", ""],
                               "url": ["https://10.0.0.1/api"]}}]  # fmt: skip
    counts = replay([bfcl.Entry("live_multiple_0", "live_multiple", question, (docs,), right)])
    assert counts["doc_codes.named_again: needed values left out"] == 1  # the ground truth wants the district
    assert counts["ungiven.undated_optional: needed values left out"] == 0  # the date may be left out
    assert counts["url_templates.from_templates"] == 1  # a host the task never writes: the template, filled
