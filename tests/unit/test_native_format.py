"""The native tool format (agentcore.models.native): the template's own prompt, one grammar for text or a call,
and the reply mapped to a ModelResponse. Grammars are checked with llama.cpp's own GBNF parser and the small
matcher of test_grammar; one test drives the real model."""

from __future__ import annotations

import json

import pytest
from test_fuzz_grammar import LLAMA, llama_parses
from test_grammar import Grammar

from agentcore.errors import ModelError, UserError
from agentcore.messages import Message, ModelRequest, ToolCall, ToolSpec
from agentcore.models.native import (
    ChatTemplate,
    applies,
    has_native_tools,
    native_gbnf,
    native_messages,
    openai_tools,
    parse_native,
    uses_native,
)
from agentcore.prompting import assistant_turn, observation, system_message, task_message
from agentcore.steps import StepPlan

WEATHER = ToolSpec(
    "get_weather",
    "Current weather of a city.",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City, Country"},
            "unit": {"type": "string", "enum": ["c", "f"]},
        },
        "required": ["city"],
    },
)
ADD = ToolSpec(
    "add",
    "Add two integers.",
    {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]},
)
REQUEST = ModelRequest(messages=(Message("user", "hi"),), tools=(WEATHER, ADD))

# Qwen2.5's template, cut to what the native format uses: the tools block, assistant tool_calls, tool results.
QWEN = (
    "{%- if tools %}{{- '<|im_start|>system\\n' }}{%- if messages[0]['role'] == 'system' %}"
    "{{- messages[0]['content'] }}{%- else %}{{- 'You are Qwen.' }}{%- endif %}"
    '{{- "\\n<tools>" }}{%- for tool in tools %}{{- "\\n" }}{{- tool | tojson }}{%- endfor %}'
    "{{- '\\n</tools><|im_end|>\\n' }}{%- endif %}"
    "{%- for message in messages %}"
    "{%- if message.role == 'user' %}{{- '<|im_start|>user\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- elif message.role == 'assistant' %}{{- '<|im_start|>assistant' }}"
    "{%- if message.content %}{{- '\\n' + message.content }}{%- endif %}"
    "{%- for tool_call in message.tool_calls %}{%- set tool_call = tool_call.function %}"
    '{{- \'\\n<tool_call>\\n{"name": "\' }}{{- tool_call.name }}{{- \'", "arguments": \' }}'
    "{{- tool_call.arguments | tojson }}{{- '}\\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\\n' }}"
    "{%- elif message.role == 'tool' %}"
    "{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}"
    "{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)


def test_messages_take_the_templates_roles() -> None:
    call = ToolCall("get_weather", {"city": "Paris"})
    messages = [
        system_message("Be brief.", [WEATHER]),
        task_message("Weather in Paris?"),
        assistant_turn(call, None, raw='{"tool": "get_weather", "arguments": {"city": "Paris"}}'),
        observation("Weather in Paris?", call, "18 C"),
    ]
    out = native_messages(messages)
    assert out[0] == {"role": "system", "content": "Be brief."}  # no JSON-turn rules, no signatures
    assert out[1] == {"role": "user", "content": "Weather in Paris?"}
    assert out[2]["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": {"city": "Paris"}}
    assert out[3]["role"] == "tool" and out[3]["content"].startswith("18 C\n\nDone: get_weather.")
    prompt = ChatTemplate(QWEN).render(out, openai_tools([WEATHER]))
    assert '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' in prompt
    assert "<tool_response>\n18 C\n\nDone: get_weather. Original task: Weather in Paris?" in prompt
    assert json.loads(prompt.split("<tools>\n")[1].split("\n</tools>")[0])["function"]["name"] == "get_weather"
    assert "final_answer" not in prompt and prompt.endswith("<|im_start|>assistant\n")


def test_a_result_carries_the_loops_guidance_in_words() -> None:
    # c01 of the 48 tasks: with the bare result the model multiplied each result by 3 again until max_steps.
    plan = StepPlan(("Look up the price of a laptop", "multiply it by 3"))
    plan.advance("899")
    plan.advance("2697")
    call = ToolCall("calculator", {"expression": "899 * 3"})
    out = native_messages([observation("What do 3 laptops cost?", call, "2697", plan=plan)])
    assert out[0]["content"].startswith("2697\n\nDone: calculator.")
    assert "All 2 steps are done. Reply with the final answer now" in out[0]["content"]
    error = native_messages([observation("Weather?", call, "bad expression", error=True)])[0]["content"]
    assert error.startswith("Error: bad expression\n\nOriginal task: Weather?") and "final_answer" not in error


def test_system_without_instructions_falls_back_to_the_templates_own() -> None:
    out = native_messages([system_message("", [WEATHER]), task_message("Weather?")])
    assert out == [{"role": "user", "content": "Weather?"}]
    assert ChatTemplate(QWEN).render(out, openai_tools([WEATHER])).startswith("<|im_start|>system\nYou are Qwen.")


def test_only_tool_or_text_requests_are_native() -> None:
    assert applies(REQUEST)
    assert not applies(ModelRequest(messages=REQUEST.messages))  # no tools
    assert not applies(ModelRequest(messages=REQUEST.messages, tools=(ADD,), output_schema={"type": "integer"}))
    assert not applies(ModelRequest(messages=REQUEST.messages, tools=(ADD,), think=40))
    assert has_native_tools(QWEN) and not has_native_tools("{{ messages }}") and not has_native_tools(None)


def test_native_first_covers_the_turns_before_the_first_call() -> None:
    call = ToolCall("get_weather", {"city": "Paris"})
    first = ModelRequest(messages=(system_message("", [WEATHER]), task_message("Weather in Paris?")), tools=(WEATHER,))
    later = ModelRequest(
        messages=(*first.messages, assistant_turn(call, None), observation("Weather in Paris?", call, "18 C")),
        tools=(WEATHER,),
    )
    assert uses_native("native-first", first) and not uses_native("native-first", later)
    assert uses_native("native", first) and uses_native("native", later)
    assert not uses_native("json", first) and not uses_native("json", later)
    assert not uses_native("native-first", ModelRequest(messages=first.messages))  # no tools: JSON turns


@pytest.mark.skipif(LLAMA is None, reason="llama_cpp is not built on this machine")
def test_grammar_parses_in_llama_cpp() -> None:
    assert llama_parses(native_gbnf(REQUEST))
    assert llama_parses(native_gbnf(ModelRequest(messages=REQUEST.messages, tools=(ADD,), allow_final=False)))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>',
        '```json\n{\n  "name": "get_weather",\n  "arguments": {\n    "city": "Lyon, FR",\n    "unit": "c"\n  }\n}\n```',
        '{"name": "get_weather", "arguments": {"city": "Paris, France"}}',  # "City, Country": two parts
        "It is sunny in Paris, as far as I know.",
        "2 + 2 = 4 <b>",
        'Sure! Here is the call:\n\n```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```',
        "Use this:\n```python\nprint(add(1, 2))\n```\nDone.",
    ],
)
def test_grammar_accepts_text_and_calls(text: str) -> None:
    assert Grammar(native_gbnf(REQUEST)).accepts(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "delete_all", "arguments": {}}',  # no such tool
        '{"name": "add", "arguments": {"a": "one", "b": 2}}',  # wrong type
        '{"name": "add", "arguments": {"a": 1}}',  # missing required
        '{"name": "get_weather", "arguments": {"city": "Paris", "unit": "kelvin"}}',  # not in the enum
        '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}',  # unclosed tag
        "{ not json",
        " leading space opens nothing",
        'Here:\n```json\n{"name": "forecast", "arguments": {}}\n```',  # prose, then a made-up tool
        'Here:\n```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```\nMore text.',  # nothing after it
    ],
)
def test_grammar_rejects_malformed_calls(text: str) -> None:
    assert not Grammar(native_gbnf(REQUEST)).accepts(text)


def test_a_forced_call_admits_no_text() -> None:
    forced = native_gbnf(ModelRequest(messages=REQUEST.messages, tools=(ADD,), allow_final=False))
    assert not Grammar(forced).accepts("Hello")
    assert Grammar(forced).accepts('{"name": "add", "arguments": {"a": 1, "b": 2}}')
    with pytest.raises(UserError):
        native_gbnf(ModelRequest(messages=REQUEST.messages))


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n</tool_call>',
        '```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```',
        '{"name": "add", "arguments": {"a": 1, "b": 2}}',
    ],
)
def test_parse_reads_every_call_form(text: str) -> None:
    assert parse_native(text, REQUEST) == (None, ToolCall("add", {"a": 1, "b": 2}))


def test_prose_then_a_call_is_the_call() -> None:
    # BFCL live_multiple_5-3-0: the model explains, then writes the fenced call; it was read as a final answer.
    text = 'Certainly! To get it, call:\n\n```json\n{\n  "name": "add",\n  "arguments": {"a": 1, "b": 2}\n}\n```'
    assert parse_native(text, REQUEST) == (None, ToolCall("add", {"a": 1, "b": 2}))
    example = 'Write ```json\n{"name": ...}\n``` to call a tool.'  # an unconstrained backend's prose stays text
    assert parse_native(example, REQUEST) == (example, None)


def test_parse_text_and_bad_calls() -> None:
    assert parse_native(" Sunny. \n", REQUEST) == ("Sunny.", None)
    with pytest.raises(ModelError, match="unknown tool"):
        parse_native('{"name": "nope", "arguments": {}}', REQUEST)
    with pytest.raises(ModelError, match="not JSON"):
        parse_native("<tool_call>\n{oops", REQUEST)


def test_json_format_stays_the_default(default_model_path: str) -> None:
    from agentcore.models.llamacpp import LlamaCppModel

    assert LlamaCppModel(default_model_path).tool_format == "json"
    with pytest.raises(UserError, match="tool_format"):
        LlamaCppModel(default_model_path, tool_format="xml")
