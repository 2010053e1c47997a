"""Messages, tool calls and model responses: the plain data every layer shares."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]
MessageKind = Literal["text", "system", "task", "call", "final", "observation", "notice"]
SectionKind = Literal["instructions", "rules", "tools", "block", "memory"]
NoticeKind = Literal[
    "retry",
    "repeat",
    "missing_tool",
    "closer_tool",
    "finder_tool",
    "review",
    "unfinished",
    "again",
    "named_rest",
    "power",
    "unsourced",
    "stale",
    "placeholder",
    "made_up",
    "doubled",
    "unsupplied",
    "wrong_row",
    "unit",
    "copied",
    "beside",
    "convert",
    "used_up",
    "redone",
    "portion",
    "made_up_result",
    "counted_twice",
    "counts_multiplied",
    "done_again",
    "refill",
    "mixed_units",
    "held_step",
    "mixed_kinds",
]


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]

    def signature(self) -> str:
        """A canonical text of the call, used to detect repeated identical calls."""
        return f"{self.name}({json.dumps(self.arguments, sort_keys=True)})"


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What a model needs to know about a tool: name, description and the JSON Schema of its arguments.
    `read_only`: calling it changes nothing (MCP's readOnlyHint), so the loop may try a failed call's other enum
    values (agentcore.probe)."""

    name: str
    description: str
    parameters: dict[str, Any]
    read_only: bool = False


# -- typed message parts: what a message says, as fields. `agentcore.prompting` alone renders them as text. ----


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One recalled memory: a stored fact or past exchange (`fact`), or a lesson from past runs (`guiding` or
    `cautionary` principle, `experience`). `ref` is its id in its store, so the model may cite it."""

    kind: str
    text: str
    ref: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """One paragraph group of the system prompt: the agent's instructions, the fixed tool rules, the tool list,
    a policy's block (advice), or recalled memory (`items`, rendered as advice, never as instructions)."""

    kind: SectionKind
    text: str = ""
    tools: tuple[ToolSpec, ...] = ()
    items: tuple[MemoryItem, ...] = ()


@dataclass(frozen=True, slots=True)
class SystemPart:
    kind: ClassVar[MessageKind] = "system"
    sections: tuple[Section, ...]

    def texts(self, *kinds: SectionKind) -> list[str]:
        return [s.text for s in self.sections if s.kind in kinds and s.text]

    def tools(self) -> tuple[ToolSpec, ...]:
        return tuple(spec for s in self.sections if s.kind == "tools" for spec in s.tools)


@dataclass(frozen=True, slots=True)
class TaskPart:
    """The user's task; with a step plan its first step is named too, and `hints` spell out its arithmetic phrases
    whose order is not the expression's (agentcore.phrasing)."""

    kind: ClassVar[MessageKind] = "task"
    task: str
    steps: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CallPart:
    """An assistant turn that called a tool. `raw` is the model's exact text (it keeps the KV prefix exact)."""

    kind: ClassVar[MessageKind] = "call"
    call: ToolCall
    raw: str = ""


@dataclass(frozen=True, slots=True)
class FinalPart:
    kind: ClassVar[MessageKind] = "final"
    content: str
    raw: str = ""


@dataclass(frozen=True, slots=True)
class Progress:
    """A step plan's state when an observation was written: `done` of `total` steps, the next one, and the short
    results carried into it."""

    done: int
    total: int
    current: str | None
    results: tuple[str, ...] = ()
    items: tuple[str, ...] = ()  # the task's items the next step names that no call has fetched yet
    again: bool = False  # the step is the one the last call worked on: it names more items to fetch


@dataclass(frozen=True, slots=True)
class ObservationPart:
    """The user turn after a tool call. `guidance=False` drops the closing lines (what is done, the task, the
    decision to make): policies that shorten old observations set it."""

    kind: ClassVar[MessageKind] = "observation"
    task: str
    call: ToolCall
    result: str
    error: bool = False
    progress: Progress | None = None
    guidance: bool = True


@dataclass(frozen=True, slots=True)
class NoticePart:
    """A loop notice to the model: a retry (`what` failed with `message`), a repeated call (`call` had `result`,
    `latest` is the newest good result), a missing named tool (`names`), a reviewer's objection, or an unfinished
    chain (`names`: the task's numbers no call used yet; `result`: the answer that only repeated a result), or an
    unsourced answer (`names`: its numbers that no tool returned; `result`: the latest tool result), or a stale call
    (it took `names` from an earlier call's input instead of that call's `result`; `call` is the call with the
    result written in), or an answer computed from made-up inputs (`names`: the inputs; `result`: the answer's tool
    result; `what`: the tools to get real values with; `results`: the task's items still to get), or a call that
    used one result twice (`result`: that value; `names`: the item still to get; `call`: the call for it), or a
    placeholder call (`names`: values copied from the tool's docs; `message`: the task's words to use instead;
    `result`: the error it got; `call`: the call written with the first word), or a call whose required values the
    conversation never gave (`names`: them, as `name=value`; `call`: that call; `what`: "again" when it was the
    second such call, and the next turn may only answer), or an answer taken from the wrong line of a result
    (`result`: the answer; `message`: the line the task names), or a conversion still due (`names`: the task's word
    for the unit to reach; `call`: the conversion written out), or an answer that a later computation already used
    up (`message`: the answer; `call`: that computation; `result`: its result), or an answer from a line that a
    later call started again (`message`: the answer; `what`: the call that gave it; `names`: the later call;
    `result`: its result; `call`: the first call again on that result, where it can be written), or a value the task
    still takes to a power (`result`: that value; `what`: the expression; `names`: "square" or "cube"; `call`: the
    next call written out, when a tool took an expression before), or a first call of a tool that another offered
    tool fits better (`call`: that call; `names`: the better tool; `what`: the task's words its docs share), or an
    action to do again on the task's other numbers (`what`: the tool; `names`: those numbers; `results`: the numbers
    the last call took; `result`: its status; `call`: the call written out, where it can be; `latest`: the task's
    words it took, not to copy; `message`: "repeat" when the model repeated the last call), or tools the task
    names that no call used (`names`: those tools; `results`: the task's words that name each)."""

    kind: ClassVar[MessageKind] = "notice"
    notice: NoticeKind
    task: str
    what: str = ""
    message: str = ""
    call: ToolCall | None = None
    result: str = ""
    latest: str | None = None
    names: tuple[str, ...] = ()
    results: tuple[str, ...] = ()  # an unfinished chain's results that no call used yet, when more than one


Part = SystemPart | TaskPart | CallPart | FinalPart | ObservationPart | NoticePart


@dataclass(frozen=True, slots=True)
class Message:
    """A chat message. `content` is what a backend sees; `part`, when set, is what it says as typed fields.

    Messages the loop writes always carry a part, rendered by `agentcore.prompting` (the only place that turns
    fields into text); policies read and edit the part and re-render it. A message without a part is plain text.
    """

    role: Role
    content: str
    part: Part | None = field(default=None, compare=False, repr=False)

    @property
    def kind(self) -> MessageKind:
        return self.part.kind if self.part is not None else "text"


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
    # The model for this turn when a policy chose one (routing tiers); None: the run's model. Policies after the
    # one that chose still run: the choice travels with the request down the chain.
    model: Model | None = None


@runtime_checkable
class Model(Protocol):
    """An async model: one request (messages, tool specs, output schema) in, one response out. It lives with the
    request and response types it speaks (`agentcore.models.base` re-exports it with the backends' helpers)."""

    @property
    def name(self) -> str: ...

    async def complete(self, request: ModelRequest) -> ModelResponse: ...
