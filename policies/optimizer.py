"""Prompt optimiser: fewer prompt tokens for the same task, with the prompt prefix kept stable.

What it rewrites, and what it never touches:

- **Tool descriptions** (the system prompt's tool section and `request.tools`): examples, "e.g."
  clauses, code blocks, markdown and boilerplate ("This tool allows you to ...") go; with `max_sentences`,
  only the first sentences stay, plus every sentence that states a constraint ("only", "must", "never", ...).
- **Instructions** (the rest of the system prompt): filler phrases go ("Please note that", "It is important").
- **Repeated blocks**: a system paragraph seen before is dropped; a long paragraph of a tool result that
  already appeared earlier in the prompt becomes a pointer to it.
- **Old observations** (optional, `trim`): see `agentcore.policies.context`, in blocks.
- **Never**: the task message, any line that starts with `Task:`, assistant turns, or any other user text.

Every rewrite of a message depends only on that message and the ones before it, and is the same at every step,
so the prompt at step n+1 extends the one at step n and llama.cpp reuses its KV cache. Old-observation
trimming is the exception, and it moves only once every `block` observations. Token counts come from the
model's own tokenizer (`count_tokens`, e.g. `LlamaCppModel.count_tokens`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from agentcore import prompting
from agentcore.context import RunContext
from agentcore.messages import Message, ModelRequest, ModelResponse, Section, SystemPart, ToolSpec
from agentcore.policies.context import TrimConfig, observations, trim_observations
from agentcore.policy import CallModel, Policy

CountTokens = Callable[[str], int]

_START = "\x00"  # marks a removal at a sentence start: the next letter is capitalised
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n\s*(?:[-*]\s+)?)$")

# (pattern, replacement). Order matters: longer phrases first. None of them removes a negation or a number.
FILLERS: tuple[tuple[str, str], ...] = (
    (r"\bit is (?:very |really |extremely )?important to note that\s+", ""),
    (r"\bit is (?:very |really |extremely )?important to\s+", ""),
    (r"\bit is (?:very |really |extremely )?important that (?:you )?", ""),
    (r"\b(?:please )?(?:note|keep in mind|remember|be aware) that\s+", ""),
    (r"\bplease make sure (?:that )?(?:you )?(?:to )?", ""),
    (r"\bmake sure (?:that )?(?:you )?(?:to )?", ""),
    (r"\bplease\s+", ""),
    (r"\bfeel free to\s+", ""),
    (r"\bas an ai (?:language model|assistant),?\s*", ""),
    (r"\byou should (always|never)\b", r"\1"),
    (r"\bin order to\b", "to"),
    (r"\bdue to the fact that\b", "because"),
    (r"\bin the event that\b", "if"),
    (r"\bfor the purpose of\b", "for"),
    (r"\bprior to\b", "before"),
    (r"\b(?:basically|essentially|actually|simply),?\s+", ""),
)
_FILLERS = tuple((re.compile(p, re.IGNORECASE), r) for p, r in FILLERS)

_BOILERPLATE = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:this (?:tool|function|endpoint|method|api) "
    r"(?:allows you to|lets you|can be used to|"
    r"is used to|is designed to|enables you to|helps you|will)|use this (?:tool|function) to|"
    r"a (?:tool|function) (?:that|to|for)|this is a tool (?:that|to|for))\s+",
    re.IGNORECASE,
)
_SECTION = r"(?:#+\s*)?(?:Args|Arguments|Parameters|Params|Returns?|Notes?|Important|Constraints?|Limitations?)\s*:"
_EXAMPLES = re.compile(
    r"(?:^|(?<=\s))(?:#+\s*)?(?:Examples?|Example usage|Usage examples?|Sample (?:calls?|usage))\s*:.*?"
    rf"(?=\n\s*\n|(?:^|(?<=\s)){_SECTION}|\Z)",
    re.DOTALL | re.MULTILINE,
)
_EXAMPLE_CLAUSES = (
    re.compile(r"```.*?```", re.DOTALL),
    re.compile(r"\s*\((?:e\.g\.|eg\.|for example|for instance|such as)[^()]*\)", re.IGNORECASE),
    re.compile(r",?\s*\be\.g\.,?\s.*?(?=\.(?:\s|$)|[;\n]|$)", re.IGNORECASE),
    re.compile(r",\s*for (?:example|instance)\b.*?(?=\.(?:\s|$)|[;\n]|$)", re.IGNORECASE),
    re.compile(r"(?:^|(?<=[.!?]\s))for (?:example|instance)\b.*?(?:\.(?=\s|$)|$)\s*", re.IGNORECASE),
)
_MARKDOWN = ((re.compile(r"\*\*(.+?)\*\*|__(.+?)__"), r"\1\2"), (re.compile(r"(?m)^\s*#+\s+"), ""))
# Sentences that state a rule or a limit survive the sentence cap. Sentence-initial imperatives count too.
_CONSTRAINT = re.compile(
    r"\b(?:only|must|never|required|at (?:most|least)|max(?:imum)?|min(?:imum)?|limit(?:s|ed)?|unless|except|"
    r"deprecated|warning|destructive|irreversible|permanent(?:ly)?|overwrites?|read-only|"
    r"cannot be (?:undone|recalled|reversed))\b|^(?:do not|don't|always|avoid)\b",
    re.IGNORECASE,
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])")


@dataclass(frozen=True, slots=True)
class OptimizerConfig:
    """Which rewrites to apply. `trim=None` keeps every observation verbatim (the KV cache never breaks)."""

    compact_tools: bool = True
    max_sentences: int | None = 1
    compress_instructions: bool = True
    dedupe: bool = True
    dedupe_min_chars: int = 160
    trim: TrimConfig | None = None


def _capitalise_marked(text: str) -> str:
    text = re.sub(_START + r"(\W*)(\w)", lambda m: m[1] + m[2].upper(), text)
    return text.replace(_START, "")


def _sub_marking_starts(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    """`pattern.sub`, capitalising what follows a removal at a sentence start."""

    def swap(match: re.Match[str]) -> str:
        new = match.expand(replacement)
        at_start = _SENTENCE_START.search(text[: match.start()]) is not None
        return (_START + new) if at_start else new

    return _capitalise_marked(pattern.sub(swap, text))


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    text = re.sub(r"([,;:])(?=[.!?]|$)", "", text)
    text = re.sub(r"\(\s*\)", "", text)
    return re.sub(r"\.{2,}(?!\.)", ".", text).strip()


def remove_fillers(text: str) -> str:
    """Filler phrases out, the sentence recapitalised. Line structure is kept."""
    for pattern, replacement in _FILLERS:
        text = _sub_marking_starts(pattern, replacement, text)
    return text


def _keep_sentences(text: str, max_sentences: int) -> str:
    sentences = _SENTENCE_SPLIT.split(text)
    kept = [s for i, s in enumerate(sentences) if i < max_sentences or _CONSTRAINT.search(s)]
    return " ".join(kept)


def compact_description(text: str, max_sentences: int | None = None) -> str:
    """A tool description without examples, boilerplate, markdown or filler, on one line.

    With `max_sentences`, the first sentences stay, plus every later one that states a constraint.
    """
    text = _EXAMPLES.sub("", text)
    for pattern in _EXAMPLE_CLAUSES:
        text = pattern.sub("", text)
    for md, replacement in _MARKDOWN:
        text = md.sub(replacement, text)
    text = _sub_marking_starts(_BOILERPLATE, "", text)
    text = _tidy(remove_fillers(text))
    if max_sentences is not None:
        text = _keep_sentences(text, max_sentences)
    return text


def compact_schema(schema: Any, max_sentences: int | None = 1) -> Any:
    """A JSON Schema without titles and examples, with compact descriptions. Validation keywords are kept."""
    if isinstance(schema, list):
        return [compact_schema(item, max_sentences) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("title", "examples", "example", "$comment"):
            continue
        if key == "description" and isinstance(value, str):
            out[key] = compact_description(value, max_sentences)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: compact_schema(prop, max_sentences) for name, prop in value.items()}
        else:
            out[key] = compact_schema(value, max_sentences)
    return out


def compact_spec(spec: ToolSpec, config: OptimizerConfig | None = None) -> ToolSpec:
    config = config or OptimizerConfig()
    return ToolSpec(
        spec.name,
        compact_description(spec.description, config.max_sentences),
        compact_schema(spec.parameters),
    )


def optimize_tools(specs: Iterable[ToolSpec], config: OptimizerConfig | None = None) -> tuple[ToolSpec, ...]:
    return tuple(compact_spec(spec, config) for spec in specs)


def _compress_text(text: str) -> str:
    lines = text.split("\n")
    out = [line if line.startswith("Task:") else remove_fillers(line) for line in lines]
    return "\n".join(" ".join(line.split()) if line.strip() else "" for line in out)


def _compress_section(section: Section, config: OptimizerConfig, seen: set[str]) -> Section | None:
    """The section rewritten, or None when it only repeats paragraphs seen before."""
    if section.kind == "tools":
        tools = optimize_tools(section.tools, config) if config.compact_tools else section.tools
        return replace(section, tools=tools)
    kept: list[str] = []
    for paragraph in section.text.split("\n\n"):
        key = " ".join(paragraph.split())
        if config.dedupe and key in seen and key:
            continue
        seen.add(key)
        kept.append(_compress_text(paragraph) if config.compress_instructions else paragraph)
    return replace(section, text="\n\n".join(kept)) if kept else None


def compress_system_part(part: SystemPart, config: OptimizerConfig) -> SystemPart:
    """The system prompt's sections rewritten the same way every time (so its KV cache stays valid):
    tool descriptions compacted, filler removed from instructions and blocks, repeated paragraphs dropped."""
    seen: set[str] = set()
    sections = (_compress_section(section, config, seen) for section in part.sections)
    return SystemPart(tuple(section for section in sections if section is not None))


_system_cache: dict[tuple[str, OptimizerConfig], Message] = {}


def compress_system(message: Message, config: OptimizerConfig) -> Message:
    """A system message compressed; a plain-text one (no typed part) only loses filler phrases."""
    key = (message.content, config)
    found = _system_cache.get(key)
    if found is None:
        if isinstance(message.part, SystemPart):
            found = prompting.render(compress_system_part(message.part, config))
        else:
            compressed = _compress_text(message.content) if config.compress_instructions else message.content
            found = replace(message, content=compressed)
        if len(_system_cache) > 256:
            _system_cache.clear()
        _system_cache[key] = found
    return found


def _dedupe_results(messages: list[Message], min_chars: int) -> list[Message]:
    """Long paragraphs of tool results that already appeared earlier become pointers. Only results change."""
    out = list(messages)
    for obs in observations(messages):
        earlier = "\n".join(m.content for m in messages[: obs.index])
        paragraphs = obs.part.result.split("\n\n")
        changed = [
            f"[{len(p)} characters repeated from earlier in this conversation: {' '.join(p.split()[:8])} ...]"
            if len(p) >= min_chars and p in earlier
            else p
            for p in paragraphs
        ]
        if changed != paragraphs:
            out[obs.index] = obs.with_result("\n\n".join(changed))
    return out


def optimize_messages(messages: Sequence[Message], config: OptimizerConfig | None = None) -> list[Message]:
    """The messages with every enabled rewrite applied (see the module doc). The input is not modified."""
    config = config or OptimizerConfig()
    out = list(messages)
    if out and out[0].role == "system":
        out[0] = compress_system(out[0], config)
    if config.dedupe:
        out = _dedupe_results(out, config.dedupe_min_chars)
    if config.trim is not None:
        out = trim_observations(out, config.trim)
    return out


def optimize_request(request: ModelRequest, config: OptimizerConfig | None = None) -> ModelRequest:
    config = config or OptimizerConfig()
    tools = optimize_tools(request.tools, config) if config.compact_tools else request.tools
    return replace(request, messages=tuple(optimize_messages(request.messages, config)), tools=tools)


def prompt_tokens(messages: Sequence[Message], count_tokens: CountTokens) -> int:
    """Tokens of the message contents by the model's tokenizer (the chat template's few tokens excluded)."""
    return sum(count_tokens(m.content) for m in messages)


class PromptOptimizer(Policy):
    """Applies `optimize_request` to every model turn; with `count_tokens`, records savings in the trace."""

    name = "prompt_optimizer"

    def __init__(self, config: OptimizerConfig | None = None, *, count_tokens: CountTokens | None = None) -> None:
        self.config = config or OptimizerConfig()
        self.count_tokens = count_tokens

    async def wrap_model_turn(self, ctx: RunContext[Any], request: ModelRequest, call_next: CallModel) -> ModelResponse:
        optimized = optimize_request(request, self.config)
        if self.count_tokens is not None:
            before = prompt_tokens(request.messages, self.count_tokens)
            after = prompt_tokens(optimized.messages, self.count_tokens)
            ctx.record(self.name, tokens_before=before, tokens_after=after, saved=before - after)
        return await call_next(optimized)
