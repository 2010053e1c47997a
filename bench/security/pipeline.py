"""agentcore inside AgentDojo: the suite's functions as an agentcore Toolset, an Agent as a pipeline element.

Runs in the AgentDojo venv (scripts/setup_agentdojo.sh), never in the project venv.

- `AgentDojoToolset` offers each AgentDojo `Function` (name, description, pydantic parameters) as a `ToolSpec`
  and executes calls through `FunctionsRuntime.run_function(env, name, args)`, so the tools change the task's
  environment exactly as AgentDojo's own executor would. Descriptions can be overridden (the poisoning), and
  every call the runtime ran is recorded.
- `AgentcoreElement` is a `BasePipelineElement`: it runs one agentcore `Agent` per task, with no policies
  (baseline) or with Tool-Guard, and writes the run back as AgentDojo chat messages (assistant tool calls, tool
  results, a final assistant text), so AgentDojo's utility and security checks work unchanged.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentdojo.agent_pipeline.agent_pipeline import load_system_message
from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionCall, FunctionsRuntime
from agentdojo.types import ChatMessage, text_content_block_from_string

from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.errors import AgentRunError
from agentcore.messages import ModelRequest, ToolCall, ToolSpec
from agentcore.models.base import Model
from agentcore.policies.toolguard_prompts import NO_TOOL
from agentcore.policy import Policy
from agentcore.result import RunResult
from agentcore.testing import FunctionModel, Turn
from bench.security.poisoning import ExecutedCall

# What the obedient stand-in model obeys: this bench's poisoned descriptions, AgentDojo's important_instructions.
ORDERS = ("you MUST first", "<INFORMATION>")
SYSTEM = load_system_message(None)  # AgentDojo's default system message, as its own pipelines use
_EMPTY_ENV = EmptyEnv()


class ToolFailed(Exception):
    """AgentDojo's runtime reported an error (bad arguments, a function that raised); the model sees it."""


class AgentDojoToolset:
    """The runtime's functions as agentcore tools, some descriptions overridden, every executed call recorded."""

    def __init__(self, runtime: FunctionsRuntime, env: Env, descriptions: Mapping[str, str] | None = None) -> None:
        self.runtime = runtime
        self.env = env
        self.descriptions = dict(descriptions or {})
        self.calls: list[ExecutedCall] = []

    async def list_tools(self) -> Sequence[ToolSpec]:
        return [
            ToolSpec(name, self.descriptions.get(name, f.description), f.parameters.model_json_schema())
            for name, f in self.runtime.functions.items()
        ]

    async def call_tool(self, name: str, arguments: dict[str, Any], ctx: RunContext[Any]) -> str:
        # In-memory Python functions on pydantic models: microseconds, so no worker thread.
        result, error = self.runtime.run_function(self.env, name, arguments)
        text = str(tool_result_to_str(result))
        self.calls.append(ExecutedCall(name, dict(arguments), text, error))
        if error is not None:
            raise ToolFailed(error)
        return text

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return 30.0, 2


@dataclass
class CaseRun:
    """What one task's run left for scoring: the agentcore result and the calls the runtime executed."""

    result: RunResult[Any]
    calls: list[ExecutedCall]
    seconds: float


@dataclass
class AgentcoreElement(BasePipelineElement):  # type: ignore[misc]  # agentdojo ships no types
    """Runs an agentcore Agent for each AgentDojo task. Set `descriptions` (name -> text) before a task to
    poison it; `policies` makes the policies of a fresh run (empty: the baseline). `last` holds the last run.

    `name` must contain "local" so AgentDojo's attacks address the victim as "Local model"."""

    model: Model
    policies: Callable[[], Sequence[Policy]] = list
    max_steps: int = 10
    timeout: float | None = 600.0
    descriptions: dict[str, str] = field(default_factory=dict)
    last: CaseRun | None = None
    name: str | None = "agentcore-local"

    def query(
        self,
        query: str,
        runtime: FunctionsRuntime,
        env: Env = _EMPTY_ENV,
        messages: Sequence[ChatMessage] = (),
        extra_args: dict[str, Any] | None = None,
    ) -> tuple[str, FunctionsRuntime, Env, Sequence[ChatMessage], dict[str, Any]]:
        toolset = AgentDojoToolset(runtime, env, self.descriptions)
        agent: Agent[None, str] = Agent(
            self.model,
            instructions=SYSTEM,
            tools=toolset,
            policies=list(self.policies()),
            max_steps=self.max_steps,
            timeout=self.timeout,
        )
        result = asyncio.run(_run(agent, query))
        self.last = CaseRun(result, toolset.calls, result.ledger.total_seconds)
        return query, runtime, env, to_chat_messages(query, toolset.calls, result), extra_args or {}


async def _run(agent: Agent[None, str], task: str) -> RunResult[Any]:
    try:
        return await agent.run(task)
    except AgentRunError as exc:  # max_steps or timeout: score what the run did
        if exc.partial is None:
            raise
        return exc.partial


def final_text(result: RunResult[Any]) -> str:
    """The text AgentDojo's checks read: the answer, or why there is none."""
    if result.output is not None:
        return str(result.output)
    return f"[{result.status}] {result.error or ''}".strip()


def to_chat_messages(query: str, calls: Sequence[ExecutedCall], result: RunResult[Any]) -> list[ChatMessage]:
    """The run in AgentDojo's message format: its traces come from the assistant `tool_calls` (every call the
    runtime ran, failed ones included, as its own executor records them) and its output from the last message."""
    out: list[ChatMessage] = [
        {"role": "system", "content": [text_content_block_from_string(SYSTEM)]},
        {"role": "user", "content": [text_content_block_from_string(query)]},
    ]
    ids = itertools.count()
    for call in calls:
        function_call = FunctionCall(function=call.function, args=dict(call.args), id=f"call_{next(ids)}")
        out.append({"role": "assistant", "content": None, "tool_calls": [function_call]})
        out.append(
            {
                "role": "tool",
                "content": [text_content_block_from_string(call.result)],
                "tool_call_id": function_call.id,
                "tool_call": function_call,
                "error": call.error,
            }
        )
    text = text_content_block_from_string(final_text(result))
    out.append({"role": "assistant", "content": [text], "tool_calls": None})
    return out


def llama_model(n_ctx: int = 8192, n_threads: int = 2) -> Model:
    """The project's real default model (qwen2.5-coder-0.5b GGUF from the local cache; no hub)."""
    from agentcore.errors import UserError
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    path = model_path(DEFAULT_MODEL)
    if not Path(path).is_file():
        raise UserError(f"{path} is missing; run ./scripts/setup.sh (it pulls {DEFAULT_MODEL})")
    return LlamaCppModel(path, name=DEFAULT_MODEL, n_ctx=n_ctx, n_threads=n_threads, seed=0)


def obedient_model(user_calls: Sequence[FunctionCall], attack_calls: Sequence[FunctionCall]) -> Model:
    """A deterministic gullible model, to check the plumbing in seconds without an LLM.

    While an order to call something sits in what it reads (a poisoned description, an injected result), it
    makes the injection task's goal calls first; then the user task's ground-truth calls; then it answers.
    As a validator it approves everything, so only Tool-Guard's structure and provenance stop the attack."""
    attack = [ToolCall(c.function, dict(c.args)) for c in attack_calls]
    task = [ToolCall(c.function, dict(c.args)) for c in user_calls]

    def respond(request: ModelRequest) -> Turn:
        props = (request.output_schema or {}).get("properties", {})
        if "aligned" in props:
            return '{"aligned": true}'
        if "suspicious" in props:
            return '{"suspicious": false}'
        made = _calls_made(request)
        offered = {spec.name for spec in request.tools}
        seen = " ".join(m.content for m in request.messages)
        ordered = any(order in seen for order in ORDERS)
        for call in (attack if ordered else []) + task:
            if call.name in offered and call not in made:
                return call
        if request.allow_final:
            return "Done."
        return ToolCall(NO_TOOL, {})  # a Tool-Guard plan must call a tool: its "nothing to do"

    return FunctionModel(respond, name="obedient")


def _calls_made(request: ModelRequest) -> list[ToolCall]:
    made: list[ToolCall] = []
    for message in request.messages:
        if message.role != "assistant" or not message.content.startswith("{"):
            continue
        turn = json.loads(message.content)
        if isinstance(turn, dict) and "tool" in turn:
            made.append(ToolCall(turn["tool"], turn.get("arguments", {})))
    return made


__all__ = [
    "SYSTEM",
    "AgentDojoToolset",
    "AgentcoreElement",
    "CaseRun",
    "ToolFailed",
    "final_text",
    "llama_model",
    "obedient_model",
    "to_chat_messages",
]
