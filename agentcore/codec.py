"""Messages to JSON-ready dicts and back, typed parts included (sessions store conversations this way)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from agentcore.errors import UserError
from agentcore.messages import (
    CallPart,
    FinalPart,
    MemoryItem,
    Message,
    NoticePart,
    ObservationPart,
    Part,
    Progress,
    Section,
    SystemPart,
    TaskPart,
    ToolCall,
    ToolSpec,
)

_PARTS: dict[str, type[Any]] = {
    "system": SystemPart,
    "task": TaskPart,
    "call": CallPart,
    "final": FinalPart,
    "observation": ObservationPart,
    "notice": NoticePart,
}


def message_to_dict(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.part is not None:
        out["part"] = {"kind": message.part.kind, **asdict(message.part)}
    return out


def message_from_dict(data: Any) -> Message:
    """The message `data` describes; a UserError says what is wrong with a damaged entry."""
    if not isinstance(data, dict) or data.get("role") not in ("system", "user", "assistant"):
        raise UserError(f"not a stored message (needs role system/user/assistant and content): {str(data)[:120]}")
    content = data.get("content")
    if not isinstance(content, str):
        raise UserError(f"stored message has no text content: {str(data)[:120]}")
    part = data.get("part")
    try:
        decoded = _part(part) if part is not None else None
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"stored message part is damaged ({type(exc).__name__}: {exc}): {str(part)[:120]}") from exc
    return Message(data["role"], content, decoded)


def _call(data: Any) -> ToolCall | None:
    return None if data is None else ToolCall(str(data["name"]), dict(data["arguments"]))


def _part(data: dict[str, Any]) -> Part:
    fields = {k: v for k, v in data.items() if k != "kind"}
    kind = _PARTS[data["kind"]]
    if kind is SystemPart:
        sections = tuple(
            Section(
                s["kind"],
                s.get("text", ""),
                tuple(ToolSpec(**t) for t in s.get("tools", ())),
                tuple(MemoryItem(**i) for i in s.get("items", ())),
            )
            for s in fields["sections"]
        )
        return SystemPart(sections)
    if kind is TaskPart:
        return TaskPart(fields["task"], tuple(fields.get("steps", ())))
    if kind in (CallPart, ObservationPart, NoticePart):
        fields["call"] = _call(fields.get("call"))
    if kind is ObservationPart and fields.get("progress") is not None:
        progress = fields["progress"]
        fields["progress"] = Progress(**{**progress, "results": tuple(progress.get("results", ()))})
    if kind is NoticePart:
        fields["names"] = tuple(fields.get("names", ()))
    made: Part = kind(**fields)
    return made
