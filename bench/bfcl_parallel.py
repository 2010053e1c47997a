"""BFCL's parallel categories: one request that needs several calls, scored as one list by the AST checker.

`parallel` (one function, called several times: "the area of triangles with bases 10 and 15"), `parallel_multiple`
(several functions, several of them to call), and their live_ versions. No stop before the fifty-second ran or
read them, so they are held-out data again; `parallel_multiple` picks among functions the way `multiple` does.

BFCL asks for every call in one reply. An agentcore turn holds one call, and a real run gets each call's result
before the next turn, so `agentcore` here is an Agent run to its end: each call it makes is recorded and answered
with `TOOL_RESULT` (BFCL gives no results to show), until it answers in text or MAX_STEPS turns have passed. Its
calls, in order, are its answer; the checker matches them to the expected calls in any order, as it does a
model's one-turn list. The bare model writes its `<tool_call>` blocks in one reply, as its template lets it; and
since agentcore gets turns after results, `bare-loop` gives the bare model the same: its calls go back in the
template's own roles, each answered the same way, until it makes no new call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from agentcore.messages import ToolSpec
from bench.bfcl_systems import Answer, Calls, SpecToolset, split_messages, turns_read

PARALLEL_CATEGORIES = ("parallel", "parallel_multiple", "live_parallel", "live_parallel_multiple")
# The most calls an entry expects is 5 (parallel_multiple); the rest leaves room for turns the checks send back.
MAX_STEPS = 8
TOOL_RESULT = "done"  # the same neutral result for every call: BFCL has no results, and shows the model none


def is_parallel(category: str) -> bool:
    return category in PARALLEL_CATEGORIES


class RecordingToolset(SpecToolset):
    """The entry's functions as tools that run: each call is recorded and answers TOOL_RESULT."""

    def __init__(self, specs: Sequence[ToolSpec]) -> None:
        super().__init__(specs)
        self.calls: Calls = []

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: Any) -> Any:
        self.calls.append({name: dict(arguments)})
        return TOOL_RESULT


def all_calls_agent(model: Any, tools: RecordingToolset, system: str | None, max_tokens: int) -> Any:
    """An Agent over `tools` that runs to its end; `agent.turns` are its model responses."""
    from agentcore import Agent

    class AllCalls(Agent[None, str]):
        turns: list[Any]

        async def after_model_call(self, ctx: Any, response: Any) -> Any:
            self.turns.append(response)
            return response

    agent = AllCalls(model, tools=tools, max_steps=MAX_STEPS, name="bfcl", instructions=system)
    agent.turns = []
    agent.max_tokens = max_tokens
    return agent


async def agentcore_calls(
    model: Any, specs: Sequence[ToolSpec], messages: Sequence[dict[str, Any]], max_tokens: int
) -> Answer:
    """Every call an agentcore run makes for the entry's request, in order (see the module doc)."""
    from agentcore.errors import AgentRunError
    from agentcore.messages import Message

    system, earlier, task = split_messages(messages)
    tools = RecordingToolset(specs)
    agent = all_calls_agent(model, tools, system, max_tokens)
    history = [Message(role, content) for role, content in earlier if role in ("user", "assistant")]  # type: ignore[arg-type]
    started = time.perf_counter()
    error = None
    try:
        await agent.run(task or " ", history=history or None)
    except AgentRunError as exc:  # out of steps: the calls made so far are the answer
        error = None if tools.calls else str(exc)
    except Exception as exc:  # a crash is a wrong answer, not a failed benchmark
        error = f"{type(exc).__name__}: {exc}"
    raw, tokens = turns_read(agent.turns)
    return Answer(
        list(tools.calls), raw=raw, error=error, seconds=time.perf_counter() - started, prompt_tokens=tokens,
        notes=[f"{len(agent.turns)} model turns"],
    )  # fmt: skip


def bare_loop_calls(bare: Any, specs: Sequence[ToolSpec], messages: Sequence[dict[str, Any]]) -> Answer:
    """`bare-loop`: the bare model in the simplest loop a user would write around its template. Each reply's calls
    (`read_calls`) go back as the assistant's `tool_calls`, each answered with
    TOOL_RESULT in the template's "tool" role, until a reply brings no new call or MAX_STEPS replies have passed.
    A call identical to an earlier one ends the loop and is not counted (the guard any loop needs)."""
    started = time.perf_counter()
    chat: list[dict[str, Any]] = [{"role": m["role"], "content": m.get("content") or ""} for m in messages]
    calls: Calls = []
    texts: list[str] = []
    tokens, error = 0, None
    for _ in range(MAX_STEPS):
        text, used, error = bare.reply(specs, chat)
        texts.append(text)
        tokens += used
        new = [c for c in read_calls(text) if c not in calls]
        if error or not new:
            break
        calls += new
        chat.append({"role": "assistant", "content": "", "tool_calls": [_tool_call(c) for c in new]})
        chat += [{"role": "tool", "content": TOOL_RESULT} for _ in new]
    return Answer(calls, raw="\n".join(texts), error=error, seconds=time.perf_counter() - started,
                  prompt_tokens=tokens, notes=[f"{len(texts)} model turns"])  # fmt: skip


def read_calls(text: str) -> Calls:
    """`parse_lenient`'s calls, else every JSON call object written one after another without tags or fences
    (after a tool result the 0.5B writes its next calls as bare JSON lines)."""
    from bench.bfcl_systems import parse_lenient, parse_tool_calls

    calls = parse_lenient(text)
    if calls:
        return calls
    decoder, found, at = json.JSONDecoder(), [], text.find("{")
    while at >= 0:
        try:
            item, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            at = text.find("{", at + 1)
            continue
        found.append(item)
        at = text.find("{", end)
    return parse_tool_calls("".join(f"<tool_call>{json.dumps(i)}</tool_call>" for i in found))


def _tool_call(call: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ((name, arguments),) = call.items()
    return {"type": "function", "function": {"name": name, "arguments": arguments}}
