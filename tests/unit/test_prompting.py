"""How tools are written into the system prompt (agentcore.prompting.tool_signature)."""

from __future__ import annotations

from typing import Any

from agentcore.messages import ToolSpec
from agentcore.prompting import tool_signature


def spec(**props: dict[str, Any]) -> ToolSpec:
    return ToolSpec("convert", "Convert units.", {"type": "object", "properties": props, "required": list(props)})


def test_word_like_enum_values_are_written_bare() -> None:
    line = tool_signature(spec(unit={"type": "string", "enum": ["km", "mi", "deg_C", "v1.2"]}))
    assert line == "- convert(unit: km|mi|deg_C|v1.2): Convert units."


def test_enums_that_would_be_ambiguous_keep_their_json_form() -> None:
    numbers = tool_signature(spec(n={"enum": [1, 2]}))
    digits = tool_signature(spec(n={"enum": ["1", "2"]}))
    literal = tool_signature(spec(flag={"enum": ["yes", "null"]}))
    spaced = tool_signature(spec(mode={"enum": ["fast", "very slow"]}))
    assert "n: 1|2)" in numbers and 'n: "1"|"2")' in digits  # "1" and 1 stay apart
    assert 'flag: "yes"|"null"' in literal
    assert 'mode: "fast"|"very slow"' in spaced
