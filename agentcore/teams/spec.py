"""The team format as pydantic models: `state` (the typed contract), `nodes` (one uniform interface) and
`topology` (entry, exit, edges with conditions, fan-out, joins and bounded loops). See docs/teams.md.

These models check each field's shape; `agentcore.teams.validate` checks the whole (reachability, loop bounds,
reads before writes, reducers on parallel writes, unknown names).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator

FieldType = str  # checked against TYPE_PATTERN: str, int, float, bool, dict, any, list, list[str|int|float|bool|dict]
TYPE_PATTERN = r"^(str|int|float|bool|dict|any|list|list\[(str|int|float|bool|dict|any)\])$"
TYPES_ALLOWED = "str, int, float, bool, dict, any, list, list[str], list[int], list[float], list[bool], list[dict]"
Reducer = Literal["replace", "append", "extend", "merge"]
NAME = r"^[A-Za-z][A-Za-z0-9_-]*$"
KEY = r"^[A-Za-z_][A-Za-z0-9_]*$"
ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
HTTP_URL = r"^https?://\S+$"
JoinMethod = Literal["majority", "weighted", "optimal_weight", "isp"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class StateField(_Strict):
    """One key of the shared state. `replace` keeps the last write; `append` adds each write to a list; `extend`
    adds each item of a written list; `merge` updates a dict."""

    type: str = Field("str", pattern=TYPE_PATTERN, description=f"one of: {TYPES_ALLOWED}")
    default: Any = Field(None, description="the value before any node writes (omit: the key must be written first)")
    reducer: Reducer = "replace"
    description: str = ""

    @model_validator(mode="after")
    def _reducer_fits_type(self) -> StateField:
        if self.reducer in ("append", "extend") and not self.type.startswith("list"):
            raise ValueError(f"reducer '{self.reducer}' needs a list type (list or list[...]), not '{self.type}'")
        if self.reducer == "merge" and self.type not in ("dict", "any"):
            raise ValueError(f"reducer 'merge' needs type dict, not '{self.type}'")
        return self

    def has_default(self) -> bool:
        return "default" in self.model_fields_set or self.reducer in ("append", "extend", "merge")

    def initial(self) -> Any:
        if "default" in self.model_fields_set:
            return self.default
        return {} if self.reducer == "merge" else []


class _Node(_Strict):
    description: str = ""
    reads: list[Annotated[str, Field(pattern=KEY)]] = Field(default_factory=list, description="state keys it reads")
    writes: list[Annotated[str, Field(pattern=KEY)]] = Field(default_factory=list, description="state keys it writes")
    timeout: float | None = Field(None, gt=0, description="seconds per attempt")
    retries: int = Field(0, ge=0, le=10, description="extra attempts after a failure")


class AgentNode(_Node):
    """An Agent: role and instructions form its system prompt; `prompt` (with {state_key} placeholders) its task.
    `agent` names an Agent registered from Python instead (then role and instructions are not used)."""

    kind: Literal["agent"] = "agent"
    role: str = ""
    instructions: str = ""
    prompt: str | None = Field(None, description="the task text; {key} inserts a state value it reads")
    tools: list[str] = Field(default_factory=list, description="tool names: built-in or registered")
    model: str | None = Field(None, description="a name in `models`, a registry model, a .gguf path or an URL")
    tier: str | None = Field(None, description="a model tier named in `models` (small, large, ...)")
    policies: list[str] = Field(default_factory=list, description="policy names: routing, optimizer, context")
    agent: str | None = Field(None, description="a registered Agent, or an import path 'pkg.module:name'")
    mcp: list[Annotated[str, Field(pattern=NAME)]] = Field(
        default_factory=list, description="MCP servers (names in the team's `mcp:`) whose tools this agent gets"
    )
    max_steps: int = Field(6, ge=1, le=50)
    max_tokens: int = Field(256, ge=1, le=8192)

    @model_validator(mode="after")
    def _one_model(self) -> AgentNode:
        if self.model is not None and self.tier is not None:
            raise ValueError("give either model or tier, not both")
        if self.agent is not None and self.mcp:
            raise ValueError("`mcp` gives tools to the agent a node builds; a registered `agent` brings its own")
        return self


class ToolNode(_Node):
    """One tool call. Argument values may hold {state_key} placeholders; a value that is exactly one
    placeholder passes the state value with its type. `mcp`: the tool is one of that MCP server's tools."""

    kind: Literal["tool"]
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    mcp: str | None = Field(None, pattern=NAME, description="an MCP server of the team's `mcp:` that has the tool")


class FunctionNode(_Node):
    """A Python function, by registered name or import path 'package.module:function' (never embedded code).
    It receives the keys it reads as keyword arguments and returns a dict of the keys it writes (or one value
    when it writes one key)."""

    kind: Literal["function"]
    function: str


class JoinNode(_Node):
    """Aggregates the answers collected in one list key (filled by parallel nodes through `append`)."""

    kind: Literal["join"]
    method: JoinMethod = "majority"
    weights: dict[str, float] = Field(default_factory=dict, description="weighted: node name -> weight (default 1)")
    normalize: Literal["text", "number", "exact"] = "text"


class TeamNode(_Node):
    """A subgraph: another team file (relative to this one). It receives the keys this node reads as its state
    and hands back the keys this node writes from its final state."""

    kind: Literal["team"]
    file: str


class A2ANode(_Node):
    """A remote agent over A2A: `prompt` (with {state_key} placeholders, or the reads as `key: value` lines) is
    sent as a message; the answer text is written to the one key it writes (several keys: a JSON object).
    `timeout` bounds each attempt and cancels the remote task when it runs out."""

    kind: Literal["a2a"]
    url: str = Field(pattern=HTTP_URL, description="the agent's base URL (its card is at /.well-known/...)")
    prompt: str | None = None
    token_env: str | None = Field(None, pattern=ENV_NAME, description="environment variable holding a bearer token")
    streaming: bool = Field(True, description="stream the task when the agent's card allows it")


class MCPServer(_Strict):
    """An MCP server whose tools agent nodes use (`mcp: [name]`): `command` (stdio, a subprocess) or `url`
    (streamable HTTP). `${VAR}` in env and headers values is read from the environment when the team starts."""

    command: str | None = Field(None, min_length=1, description="stdio: the program to start")
    args: list[str] = Field(default_factory=list, description="stdio: its arguments")
    env: dict[str, str] = Field(default_factory=dict, description="stdio: environment variables for it")
    cwd: str | None = Field(None, description="stdio: its working folder")
    url: str | None = Field(None, pattern=HTTP_URL, description="streamable HTTP: the endpoint, e.g. .../mcp")
    headers: dict[str, str] = Field(default_factory=dict, description="HTTP: extra request headers")
    token_env: str | None = Field(None, pattern=ENV_NAME, description="HTTP: environment variable of a bearer token")
    timeout: float = Field(30.0, gt=0, description="seconds for each request (connect, list, call)")
    tools: list[str] | None = Field(None, description="only these of its tools (default: all)")
    prefix: str = Field("", pattern=r"^[A-Za-z0-9_]*$", description="put before each tool name (name clashes)")

    @model_validator(mode="after")
    def _one_transport(self) -> MCPServer:
        if (self.command is None) == (self.url is None):
            raise ValueError("give either command (stdio) or url (streamable HTTP), not both and not neither")
        wrong = ["args", "env", "cwd"] if self.url is not None else ["headers", "token_env"]
        used = [name for name in wrong if name in self.model_fields_set]
        if used:
            transport = "url (HTTP)" if self.url is not None else "command (stdio)"
            raise ValueError(f"{', '.join(used)} cannot be used with {transport}")
        return self


NODE_KINDS: dict[str, type[_Node]] = {
    "agent": AgentNode,
    "tool": ToolNode,
    "function": FunctionNode,
    "join": JoinNode,
    "team": TeamNode,
    "a2a": A2ANode,
}


def _kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("kind", "agent"))  # an unknown kind is reported with the list of kinds
    return str(getattr(value, "kind", "agent"))


Node = Annotated[
    Annotated[AgentNode, Tag("agent")]
    | Annotated[ToolNode, Tag("tool")]
    | Annotated[FunctionNode, Tag("function")]
    | Annotated[JoinNode, Tag("join")]
    | Annotated[TeamNode, Tag("team")]
    | Annotated[A2ANode, Tag("a2a")],
    Discriminator(_kind_of),
]


class Edge(_Strict):
    """`from` -> `to`. Several `to` nodes: fan-out (they run in parallel). Several `from` nodes: a join (the
    target runs once all of them finished). `when`: a condition over state. `otherwise`: fires when no other
    edge out of the same node fired. `max_loops`: how often this edge may fire (required on an edge that
    closes a cycle)."""

    source: list[Annotated[str, Field(pattern=NAME)]] = Field(alias="from", min_length=1)
    target: list[Annotated[str, Field(pattern=NAME)]] = Field(alias="to", min_length=1)
    when: str | None = None
    otherwise: bool = False
    max_loops: int | None = Field(None, ge=1, le=100)

    @field_validator("source", "target", mode="before", json_schema_input_type=str | list[str])
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _condition_or_otherwise(self) -> Edge:
        if self.when is not None and self.otherwise:
            raise ValueError("an edge has `when` or `otherwise: true`, not both")
        if self.otherwise and len(self.source) > 1:
            raise ValueError("`otherwise` edges leave one node; a join edge cannot be one")
        return self


class Topology(_Strict):
    """`entry`: the node that starts, or a list of nodes that start together (in parallel)."""

    entry: list[Annotated[str, Field(pattern=NAME)]] = Field(min_length=1)
    exit: str = Field(pattern=NAME)
    edges: list[Edge] = Field(default_factory=list)

    @field_validator("entry", mode="before", json_schema_input_type=str | list[str])
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class Limits(_Strict):
    concurrency: int = Field(default=4, ge=1, le=64, description="nodes that may run at the same time")
    max_node_runs: int = Field(default=100, ge=1, le=10_000, description="node runs per team run, loops included")
    timeout: float | None = Field(default=None, gt=0, description="seconds for the whole team run")


class TeamSpec(_Strict):
    """A team file."""

    team: str = Field(pattern=NAME, description="the team's name")
    description: str = ""
    input: str = Field("task", pattern=KEY, description="the state key that receives the task text")
    output: str | None = Field(None, pattern=KEY, description="the state key holding the answer (default: input)")
    models: dict[str, str] = Field(default_factory=dict, description="name or tier -> model (registry name, path, URL)")
    mcp: dict[Annotated[str, Field(pattern=NAME)], MCPServer] = Field(
        default_factory=dict, description="MCP servers by name; agent nodes name them in their `mcp:`"
    )
    state: dict[Annotated[str, Field(pattern=KEY)], StateField]
    nodes: dict[Annotated[str, Field(pattern=NAME)], Node] = Field(min_length=1)
    topology: Topology
    limits: Limits = Field(default_factory=Limits)

    @field_validator("state", mode="before", json_schema_input_type=dict[str, StateField | str])
    @classmethod
    def _shorthand_types(cls, value: Any) -> Any:
        """`question: str` is short for `question: {type: str}`."""
        if isinstance(value, dict):
            return {k: ({"type": v} if isinstance(v, str) else v) for k, v in value.items()}
        return value

    def answer_key(self) -> str:
        return self.output or self.input


_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")


def placeholders(text: str) -> list[str]:
    """State keys named as {key} in a template ({{ and }} are literal braces)."""
    return _PLACEHOLDER.findall(text)


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of team files (`agentcore team schema`)."""
    schema = TeamSpec.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "agentcore team file"
    return schema
