"""The systems of the BFCL benchmark (bench/bfcl.py), each answering one BFCL entry with the call it would make.

- `agentcore`: an agentcore `Agent` with the entry's functions as its tools (grammar-constrained turns), run until
  it would run a tool: `before_tool_call` records that call and stops the run with `Veto(stop=True)`, so no tool
  ever runs. The model sees what an Agent run shows (agentcore's instructions or the entry's own system prompt,
  its rules and tool signatures, the task, a step plan when the task reads as one), and the loop's checks act as
  in any run: a call held back (made-up required numbers) or an answer sent back gets another turn, up to
  MAX_TURNS. The call the agent would run is the answer `[{name: arguments}]`; an accepted answer is no call.
- `agentcore-native`: the same Agent run with `LlamaCppModel(tool_format="native")`: the chat template's own
  tool prompt and call syntax, the call grammar-constrained once it starts (agentcore.models.native).
- `bare`: llama-cpp-python on its own, the way a user of the model's chat template calls tools: the GGUF's own
  Jinja template renders the messages with `tools=[{"type": "function", "function": ...}]` (Qwen2.5's
  `<tools></tools>` system block), unconstrained greedy decoding, and every `<tool_call>{"name": ...,
  "arguments": ...}</tool_call>` block of the output is a call.

All get the same JSON Schemas (bench.bfcl.tool_spec) and share one loaded llama_cpp.Llama.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agentcore.messages import ToolSpec
from agentcore.models.native import ChatTemplate, openai_tools

Calls = list[dict[str, dict[str, Any]]]  # BFCL's decoded form: [{function_name: {param: value}}]


@dataclass(slots=True)
class Answer:
    """One system's answer to one entry: the decoded calls, the model's text, and what went wrong, if anything."""

    calls: Calls
    raw: str = ""
    error: str | None = None
    seconds: float = 0.0
    prompt_tokens: int = 0
    notes: list[str] = field(default_factory=list)


def split_messages(messages: Sequence[dict[str, Any]]) -> tuple[str | None, list[tuple[str, str]], str]:
    """(system prompt, earlier turns, the last user message) of a BFCL question."""
    system = None
    rest = [(str(m["role"]), str(m.get("content") or "")) for m in messages]
    if rest and rest[0][0] == "system":
        system = rest.pop(0)[1]
    last = len(rest) - 1
    while last >= 0 and rest[last][0] != "user":
        last -= 1
    if last < 0:
        return system, rest, ""
    return system, rest[:last], rest[last][1]


# -- agentcore -----------------------------------------------------------------------------------------------


class SpecToolset:
    """A toolset of bare ToolSpecs: listed to the model, never executed (the run stops before any tool runs)."""

    def __init__(self, specs: Sequence[ToolSpec]) -> None:
        self.specs = tuple(specs)

    async def list_tools(self) -> Sequence[ToolSpec]:
        return self.specs

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: Any) -> Any:
        raise RuntimeError(f"bfcl: {name} is a description only; the first turn is the answer")

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return None, 0


def first_action_agent(
    model: Any, specs: Sequence[ToolSpec], system: str | None, max_tokens: int, policies: Sequence[Any] = ()
) -> Any:
    """An Agent that runs until it would run a tool (`agent.decided`: that call, vetoed) or answers; `agent.turns`
    are its model responses. The loop's checks on calls and answers act as in any run (a call held back for
    made-up numbers gets the next turn), so the answer is what the agent would do; `max_steps` bounds them."""
    from agentcore import Agent
    from agentcore.policy import Veto

    class FirstAction(Agent[None, str]):
        decided: Any = None
        turns: list[Any]

        async def after_model_call(self, ctx: Any, response: Any) -> Any:
            self.turns.append(response)
            return response

        async def before_tool_call(self, ctx: Any, call: Any) -> Any:
            self.decided = call
            return Veto("bfcl: the call the agent would run is the answer", stop=True)

    agent = FirstAction(
        model, tools=SpecToolset(specs), max_steps=MAX_TURNS, name="bfcl", instructions=system, policies=list(policies)
    )
    agent.turns = []
    agent.max_tokens = max_tokens
    return agent


MAX_TURNS = 4  # the first turn, and the turns after calls or answers the loop's checks sent back


async def agentcore_answer(
    model: Any,
    specs: Sequence[ToolSpec],
    messages: Sequence[dict[str, Any]],
    max_tokens: int,
    policies: Sequence[Any] = (),
) -> Answer:
    from agentcore.errors import AgentRunError
    from agentcore.messages import Message

    system, earlier, task = split_messages(messages)
    agent = first_action_agent(model, specs, system, max_tokens, policies)
    history = [Message(role, content) for role, content in earlier if role in ("user", "assistant")]  # type: ignore[arg-type]
    started = time.perf_counter()
    error = None
    try:
        await agent.run(task or " ", history=history or None)
    except AgentRunError as exc:  # max_steps after answers the loop sent back: the last turn still counts
        error = None if agent.turns else str(exc)
    except Exception as exc:  # a crash is a wrong answer, not a failed benchmark
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - started
    if not agent.turns:
        return Answer([], error=error or "no model turn", seconds=seconds)
    calls: Calls = []
    if agent.decided is not None:
        calls = [{agent.decided.name: dict(agent.decided.arguments)}]
    raw, tokens = turns_read(agent.turns)
    notes = [f"{len(agent.turns)} model turns"] if len(agent.turns) > 1 else []
    return Answer(calls, raw=raw, error=error, seconds=seconds, prompt_tokens=tokens, notes=notes)


def turns_read(turns: Sequence[Any]) -> tuple[str, int]:
    """(the model's text of every turn, one a line; the prompt tokens of all of them) of a run's responses."""
    return "\n".join(r.raw or (r.content or "") for r in turns), sum(r.usage.prompt_tokens for r in turns)


# -- bare llama-cpp-python with the chat template's native tools ---------------------------------------------

_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


def parse_tool_calls(text: str) -> Calls:
    """Every `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` block of a Qwen-style reply, in order.
    A block cut off at the end of the text counts when its JSON is complete; blocks that are not a JSON object
    with a string name are skipped (as BFCL's own Qwen handler skips them). Arguments given as a JSON string are
    decoded."""
    calls: Calls = []
    for match in _TOOL_CALL.finditer(text):
        try:
            item = json.loads(match.group(1))
        except json.JSONDecodeError:
            continue
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        arguments = item.get("arguments", item.get("parameters", {}))
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError:
                continue
        if not isinstance(arguments, dict):
            continue
        calls.append({item["name"]: arguments})
    return calls


_FENCED = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL)


def parse_lenient(text: str) -> Calls:
    """`parse_tool_calls`, else the JSON the model wrote without the tags: a fenced ```json block (or the whole
    reply) holding {"name": ..., "arguments": {...}} or a list of them. Qwen2.5-Coder-0.5B often answers that way;
    this reading is reported as its own row (`bare-lenient`), the strict one stays `bare`."""
    calls = parse_tool_calls(text)
    if calls:
        return calls
    for chunk in [*_FENCED.findall(text), text.strip()]:
        try:
            item = json.loads(chunk)
        except json.JSONDecodeError:
            continue
        items = item if isinstance(item, list) else [item]
        calls = parse_tool_calls("".join(f"<tool_call>{json.dumps(i)}</tool_call>" for i in items))
        if calls:
            return calls
    return []


class BareQwen:
    """Raw llama-cpp-python on a loaded Llama: the chat template's tool prompt, greedy, no grammar."""

    def __init__(self, llm: Any, max_tokens: int, seed: int = 0) -> None:
        self.llm, self.max_tokens, self.seed = llm, max_tokens, seed
        template = llm.metadata.get("tokenizer.chat_template")
        if not template or "<tool_call>" not in template:
            raise ValueError("the bare system needs a GGUF whose chat template has native tools (<tool_call>)")
        eos = llm.detokenize([llm.token_eos()], special=True).decode("utf-8", errors="ignore")
        self.template = ChatTemplate(template, eos_token=eos)
        self.eos = eos

    def answer(self, specs: Sequence[ToolSpec], messages: Sequence[dict[str, Any]]) -> Answer:
        started = time.perf_counter()
        chat = [{"role": m["role"], "content": m.get("content") or ""} for m in messages]
        text, tokens, error = self.reply(specs, chat)
        return Answer(parse_tool_calls(text), raw=text, error=error, seconds=time.perf_counter() - started,
                      prompt_tokens=tokens)  # fmt: skip

    def reply(self, specs: Sequence[ToolSpec], chat: Sequence[dict[str, Any]]) -> tuple[str, int, str | None]:
        """(the model's text, prompt tokens, error) for one greedy reply to `chat` in the template's roles."""
        prompt = self.template.render(list(chat), openai_tools(specs))
        tokens = self.llm.tokenize(prompt.encode(), add_bos=False, special=True)
        if len(tokens) + self.max_tokens > self.llm.n_ctx():
            return "", len(tokens), f"prompt of {len(tokens)} tokens + max_tokens over n_ctx {self.llm.n_ctx()}"
        out = self.llm.create_completion(
            prompt=tokens, max_tokens=self.max_tokens, temperature=0.0, top_k=1, repeat_penalty=1.0,
            seed=self.seed, stop=[self.eos] if self.eos else None,
        )  # fmt: skip
        return str(out["choices"][0]["text"]), len(tokens), None
