"""Messages, tool calls and model responses: the plain data every layer shares."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]

    def signature(self) -> str:
        """A canonical text of the call, used to detect repeated identical calls."""
        return f"{self.name}({json.dumps(self.arguments, sort_keys=True)})"


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What a model needs to know about a tool: name, description and the JSON Schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(slots=True)
class Usage:
    """Token counts of one or more model calls. `cached_tokens` were served from the KV cache, not evaluated."""

    prompt_tokens: int = 0
    cached_tokens: int = 0
    generated_tokens: int = 0
    calls: int = 0

    @property
    def evaluated_tokens(self) -> int:
        return self.prompt_tokens - self.cached_tokens

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.cached_tokens += other.cached_tokens
        self.generated_tokens += other.generated_tokens
        self.calls += other.calls


@dataclass(frozen=True, slots=True)
class Timings:
    prompt_seconds: float = 0.0
    generation_seconds: float = 0.0
    total_seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class ModelResponse:
    """One model turn: either a tool call or final content (text or JSON text of the output type)."""

    content: str | None = None
    tool_call: ToolCall | None = None
    usage: Usage = field(default_factory=Usage)
    timings: Timings = field(default_factory=Timings)
    raw: str = ""


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """Everything a model needs for one turn.

    `tools` empty and `output_schema` None means free text. Otherwise the backend must constrain the answer to
    one tool call (one of `tools`) or a final answer (matching `output_schema`, or a bounded string).
    `allow_final=False` forces a tool call; `tools=()` with a schema forces a final answer.
    """

    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    output_schema: dict[str, Any] | None = None
    allow_final: bool = True
    max_tokens: int = 256
    constrain: bool = True
    think: int = 0  # > 0: every turn starts with a "thought" string of at most this many characters
