""" "The limit": a hand-written minimal agent loop on raw llama-cpp-python, to price what a framework costs.

One grammar-constrained `create_completion` per step, a minimal ChatML prompt (tool signatures and the reply
format), append-only so llama.cpp reuses the KV cache prefix, greedy decoding. The grammar comes from
agentcore's turn schema (the same constraint agentcore decodes under); prompt, loop and parsing are its own.
Two rules only: a repeated identical call is answered with "give the final answer" and the grammar drops the
tools; a tool error is shown as the result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bench import toolbox
from bench.suite import Task
from bench.systems.common import CallTimer, Emit, Settings, TaskResult, load_llama, trace_line, warm_up

REPLY = (
    'Reply with JSON only: {"tool": NAME, "arguments": {...}} to call one tool, '
    'or {"final_answer": ANSWER} when you know the answer.'
)


def run(tasks: Iterable[Task], settings: Settings, emit: Emit) -> dict[str, Any]:
    import llama_cpp

    started = time.perf_counter()
    llm = load_llama(settings)
    if "<|im_start|>" not in str(llm.metadata.get("tokenizer.chat_template", "")):
        raise ValueError("the raw loop writes ChatML prompts; this GGUF's chat template is not ChatML")
    warm_up(llm)
    timer = CallTimer(llm)
    load_s = time.perf_counter() - started
    for task in tasks:
        timer.take()
        emit(run_task(llm, timer, task, settings))
    return {"load_s": load_s, "version": f"llama-cpp-python {llama_cpp.__version__}"}


@dataclass(slots=True)
class _State:
    prompt: str
    seen: set[str] = field(default_factory=set)
    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0
    generated_tokens: int = 0
    tool_s: float = 0.0
    tool_calls: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)


def run_task(llm: Any, timer: CallTimer, task: Task, settings: Settings) -> TaskResult:
    started, cpu_started = time.perf_counter(), time.process_time()
    specs = [tool.spec() for tool in toolbox.agent_tools(task.tools)]
    state = _State(_turn("system", _system(specs)) + _turn("user", task.task) + "<|im_start|>assistant\n")
    grammars = {True: _grammar(task.tools), False: _grammar(())}
    status, output, error = "max_steps", None, None
    final_only = False
    while state.calls < settings.max_steps:
        if time.perf_counter() - started > settings.timeout:
            status, error = "timeout", f"timed out after {settings.timeout}s"
            break
        text = _complete(llm, state, grammars[not final_only], settings)
        try:  # the grammar guarantees the shape; only max_tokens can cut a turn short
            turn = json.loads(text)
        except json.JSONDecodeError:
            status, error = "error", f"turn cut short at max_tokens: {text[:80]!r}"
            break
        state.prompt += text + "<|im_end|>\n"
        if "final_answer" in turn:
            status, output = "completed", str(turn["final_answer"])
            break
        key = json.dumps(turn, sort_keys=True)
        if key in state.seen:
            final_only = True
            reply = "You already made this call. Give the final_answer now."
        else:
            state.seen.add(key)
            reply = _call_tool(state, turn["tool"], turn["arguments"])
        state.prompt += _turn("user", reply) + "<|im_start|>assistant\n"
    return TaskResult(
        id=task.id, family=task.family, status=status, output=output,
        wall_s=time.perf_counter() - started, cpu_s=time.process_time() - cpu_started,
        model_s=timer.take(), tool_s=state.tool_s,
        calls=state.calls, prompt_tokens=state.prompt_tokens, cached_tokens=state.cached_tokens,
        generated_tokens=state.generated_tokens, tool_calls=state.tool_calls, trace=state.trace, error=error,
    )  # fmt: skip


def _turn(role: str, content: str) -> str:
    return f"<|im_start|>{role}\n{content}<|im_end|>\n"


def _system(specs: Sequence[Any]) -> str:
    if not specs:
        return 'Reply with JSON only: {"final_answer": ANSWER}.'
    lines = [f"- {spec.name}({_args(spec.parameters)}): {spec.description}" for spec in specs]
    return "Tools:\n" + "\n".join(lines) + "\n" + REPLY


def _args(parameters: dict[str, Any]) -> str:
    """`value: number, unit: km|mi`: names and types, with the allowed values of enums."""
    props: dict[str, Any] = parameters.get("properties", {})
    return ", ".join(f"{name}: {'|'.join(p['enum']) if 'enum' in p else p.get('type')}" for name, p in props.items())


@cache
def _grammar(tools: tuple[str, ...]) -> Any:
    """The grammar of one turn with these tools (a final answer only, when there are none)."""
    from llama_cpp import LlamaGrammar  # type: ignore[attr-defined]

    from agentcore.grammar import schema_to_gbnf
    from agentcore.messages import ModelRequest
    from agentcore.turns import final_branch, turn_schema

    specs = tuple(tool.spec() for tool in toolbox.agent_tools(tools))
    schema = turn_schema(ModelRequest(messages=(), tools=specs)) if specs else final_branch(None)
    return LlamaGrammar.from_string(schema_to_gbnf(schema or final_branch(None)), verbose=False)


def _complete(llm: Any, state: _State, grammar: Any, settings: Settings) -> str:
    tokens = llm.tokenize(state.prompt.encode(), add_bos=False, special=True)
    held = list(llm._input_ids[: llm.n_tokens])  # what the KV cache holds; llama.cpp reuses the common prefix
    same = [a == b for a, b in zip(held, tokens, strict=False)]
    prefix = same.index(False) if False in same else len(same)
    out = llm.create_completion(
        prompt=tokens, max_tokens=settings.max_tokens, temperature=0.0, top_k=1, repeat_penalty=1.0,
        seed=settings.seed, grammar=grammar,
    )  # fmt: skip
    state.calls += 1
    state.prompt_tokens += len(tokens)
    state.cached_tokens += min(prefix, len(tokens) - 1)
    state.generated_tokens += int(out["usage"]["completion_tokens"])
    return str(out["choices"][0]["text"])


def _call_tool(state: _State, name: str, arguments: dict[str, Any]) -> str:
    state.tool_calls.append(name)
    started = time.perf_counter()
    try:
        value = toolbox.call(name, arguments)
        result = f"Result: {value}\nIf this answers the task, reply with the final_answer."
    except Exception as exc:  # the model sees the error, as in any agent loop
        value = result = f"Error: {exc}"
    state.tool_s += time.perf_counter() - started
    state.trace.append(trace_line(name, arguments, value))
    return result
