"""The model's own tool format (`LlamaCppModel(tool_format="native")`): its chat template's tool prompt and call
syntax, with the call constrained by a grammar once it starts.

- The GGUF's Jinja template renders the request with the tools as JSON Schemas (Qwen2.5: the `<tools></tools>`
  system block), as transformers' apply_chat_template does; agentcore's own rules and tool signatures are left out.
- The model answers in free text or calls a tool in the template's syntax. One grammar holds both: free text that
  does not start like a call, or a call (`<tool_call>` block, a fenced ```json block, or bare JSON, the forms
  Qwen2.5-Coder-0.5B writes) whose `{"name": ..., "arguments": ...}` is typed by the tools' argument schemas.
  So a call still cannot be malformed or name an unknown tool.
- Earlier turns go in the template's own roles: calls as the assistant's `tool_calls`, results as role "tool".
It maps to the same ModelResponse, so the loop, policies and the Model protocol are unchanged. Requests with an
output schema or a "thought" keep agentcore's JSON turn format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from agentcore.errors import ModelError, UserError
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import (
    CallPart,
    FinalPart,
    Message,
    ModelRequest,
    NoticePart,
    ObservationPart,
    SystemPart,
    TaskPart,
    ToolCall,
    ToolSpec,
)
from agentcore.notice_texts import clip
from agentcore.prompting import observation_guidance, text_of
from agentcore.turns import bound_schema, spelled_arguments

# "native-first": the template's format for the run's first choice of call (no call made yet), agentcore's JSON
# turns after it. Measured on the 1.5B: native picks and fills the first call best (BFCL multiple), while its
# turns after results echo the loop's guidance as the answer (the 48 tasks' distractors).
TOOL_FORMATS = ("json", "native", "native-first")
# Whitespace inside a call: the model pretty-prints its JSON (newlines, two-space indents); bounded so that it
# cannot fill max_tokens with it.
NATIVE_WS = "[ \\n]{0,24}"


def _tojson(value: Any, indent: int | None = None, **_: Any) -> str:
    """transformers' `tojson` for chat templates: key order kept, no HTML escaping (Jinja's own sorts and escapes)."""
    return json.dumps(value, ensure_ascii=False, indent=indent)


class ChatTemplate:
    """A GGUF's own chat template, rendered as transformers' apply_chat_template renders it."""

    def __init__(self, template: str, eos_token: str = "", bos_token: str = "") -> None:
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
        env.filters["tojson"] = _tojson
        self._template = env.from_string(template)
        self.eos_token, self.bos_token = eos_token, bos_token

    def render(self, messages: Sequence[dict[str, Any]], tools: list[dict[str, Any]] | None) -> str:
        def raise_exception(message: str) -> None:
            raise ValueError(message)

        return self._template.render(
            messages=list(messages),
            tools=tools or None,
            add_generation_prompt=True,
            eos_token=self.eos_token,
            bos_token=self.bos_token,
            raise_exception=raise_exception,
        )


def has_native_tools(template: str | None) -> bool:
    """Whether a chat template renders tools and has a call syntax we parse (Qwen2.5/Hermes `<tool_call>`)."""
    return bool(template) and "tools" in str(template) and "<tool_call>" in str(template)


def openai_tools(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {"type": "function", "function": {"name": s.name, "description": s.description, "parameters": s.parameters}}
        for s in specs
    ]


def applies(request: ModelRequest) -> bool:
    """Native turns cover tool-or-text requests; typed outputs and thoughts keep the JSON turn format."""
    return request.constrain and bool(request.tools) and request.output_schema is None and request.think == 0


def uses_native(tool_format: str, request: ModelRequest) -> bool:
    """Whether a model in `tool_format` renders this request in the template's format."""
    if tool_format == "native-first" and any(isinstance(m.part, (CallPart, ObservationPart)) for m in request.messages):
        return False
    return tool_format != "json" and applies(request)


# -- the prompt ----------------------------------------------------------------------------------------------------


def native_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The messages in the template's roles: agentcore's rules and tool signatures dropped from the system prompt
    (the template shows the tools), calls as `tool_calls`, results as role "tool"."""
    out: list[dict[str, Any]] = []
    for message in messages:
        part = message.part
        if isinstance(part, SystemPart):
            kept = tuple(s for s in part.sections if s.kind not in ("rules", "tools"))
            if kept:
                out.append({"role": "system", "content": text_of(SystemPart(kept))})
        elif isinstance(part, TaskPart):
            out.append({"role": "user", "content": text_of(part) if part.steps else part.task})
        elif isinstance(part, CallPart):
            call = {"type": "function", "function": {"name": part.call.name, "arguments": part.call.arguments}}
            out.append({"role": "assistant", "content": "", "tool_calls": [call]})
        elif isinstance(part, FinalPart):
            out.append({"role": "assistant", "content": part.content})
        elif isinstance(part, ObservationPart):
            out.append({"role": "tool", "content": _observation(part)})
        elif isinstance(part, NoticePart):
            out.append({"role": "user", "content": _plain(message.content)})
        else:
            out.append({"role": message.role, "content": message.content})
    return out


def _observation(part: ObservationPart) -> str:
    """The result, then the loop's guidance (what is done, the next step or "answer now"): without it the model
    re-applies the task's last operation to each result (c01: 899 * 3, then 2697 * 3, ... until max_steps)."""
    result = clip(part.result)
    text = f"Error: {result}" if part.error else result
    if not part.guidance:
        return text
    return _plain(f"{text}\n\n{observation_guidance(part)}")


def _plain(text: str) -> str:
    """agentcore's guidance in words: "final_answer" is a key of its own JSON format, not of the template's."""
    return text.replace("final_answer", "final answer")


# -- the grammar ---------------------------------------------------------------------------------------------------


def call_schema(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """`{"name": <one of the tools>, "arguments": <its arguments>}`, one branch per tool."""
    branches = [
        {
            "type": "object",
            "properties": {"name": {"const": spec.name}, "arguments": bound_schema(spec.parameters)},
            "required": ["name", "arguments"],
            "additionalProperties": False,
        }
        for spec in tools
    ]
    return branches[0] if len(branches) == 1 else {"oneOf": branches}


def native_gbnf(request: ModelRequest) -> str:
    """Free text (when a final answer is allowed) or one call in the template's syntax, typed by the tools' schemas.
    Text may not start with `{`, `<` or a backtick, nor with whitespace: those open a call. Text may end in a
    ```json-fenced or tagged call ("prose, then a call": the 0.5B model often explains first), which is then the reply;
    other fenced code (```python) stays text."""
    if not request.tools:
        raise UserError("the native tool format needs at least one tool")
    body = schema_to_gbnf(call_schema(request.tools))
    body = body.replace("root ::= ", "call ::= ", 1).replace('ws ::= " "?', f"ws ::= {NATIVE_WS}", 1)
    body += 'block ::= "<tool_call>\\n" call "\\n</tool_call>" | "```" "json"? "\\n" call "\\n```"\n'
    forms = ["block", "call"]
    if request.allow_final:
        forms.append("text")
        body += "text ::= [^{<`\\x00-\\x20] textchar* prosecall?\n" + PROSE_CALL
        body += TEXT_CHAR
    return f"root ::= {' | '.join(forms)}\n" + body


# A character of free text: anything but the start of a call block in prose ("```json", "<tool_call>"); other
# fences (```python, a closing ```) stay text. "<to" is given up to calls.
PROSE_CALL = 'prosecall ::= "<tool_call>\\n" call "\\n</tool_call>" | "```json\\n" call "\\n```"\n'
TEXT_CHAR = (
    'textchar ::= [^`<\\x00] | "`" [^`\\x00] | "``" [^`\\x00] | "```" [^j\\x00] | "```j" [^s\\x00]'
    ' | "```js" [^o\\x00] | "```jso" [^n\\x00] | "<" [^t\\x00] | "<t" [^o\\x00]\n'
)


# -- the reply -----------------------------------------------------------------------------------------------------

# Where a call block opens inside prose; the last one is the call (the grammar admits nothing after it).
_PROSE_CALL = re.compile(r"(?:<tool_call>|```json\n)\s*\{")
_WRAPPED = re.compile(r"^(?:<tool_call>|```(?:json)?)\s*(.*?)\s*(?:</tool_call>|```)?\s*$", re.DOTALL)


def parse_native(text: str, request: ModelRequest) -> tuple[str | None, ToolCall | None]:
    """(content, tool_call) of a native reply; prose ending in a call block is that call. Raises ModelError for a
    call that is not one of the tools (the grammar prevents it; an unconstrained backend may not)."""
    stripped = text.strip()
    if stripped.startswith(("{", "<tool_call>", "```")):
        return None, _call(stripped, text, request)
    openers = [match.start() for match in _PROSE_CALL.finditer(stripped)]
    if openers:
        try:
            return None, _call(stripped[openers[-1] :], text, request)
        except ModelError:
            pass  # an example in prose, not a call: without the grammar the text is the answer
    return stripped, None


def _call(block: str, text: str, request: ModelRequest) -> ToolCall:
    match = _WRAPPED.match(block)
    body = match.group(1) if match else block
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise ModelError(f"model's tool call is not JSON: {text[:200]!r}") from exc
    names = {spec.name for spec in request.tools}
    name = data.get("name") if isinstance(data, dict) else None
    arguments = data.get("arguments", {}) if isinstance(data, dict) else None
    if not isinstance(name, str) or name not in names or not isinstance(arguments, dict):
        raise ModelError(f"model called an unknown tool or gave bad arguments: {text[:200]!r}")
    return ToolCall(name=name, arguments=spelled_arguments(request, name, arguments))
