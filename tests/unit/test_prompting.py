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


def test_nested_objects_show_their_keys_and_which_are_optional() -> None:
    prefs = {
        "type": "object",
        "properties": {"size": {"type": "string", "enum": ["small", "large"]}, "milk": {"type": "string"}},
        "required": ["size"],
    }
    assert "prefs: {size: small|large, milk?: string}" in tool_signature(spec(prefs=prefs))


def test_parameter_docs_are_shown_only_where_they_add_to_the_signature(monkeypatch: Any) -> None:
    from agentcore import prompting

    monkeypatch.setattr(prompting, "PARAM_DOCS", True)
    weather = ToolSpec(
        "get_weather",
        "Current weather.",
        {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit."},
                "days": {"type": "integer", "description": "How many days ahead, from 0 to 7."},
                "weather": {"type": "string", "description": "The weather."},
            },
            "required": ["location"],
        },
    )
    line = tool_signature(weather)
    assert "Args: location: The city and state, e.g. San Francisco, CA." in line
    assert "unit: The unit" not in line  # an enum: its values are in the signature
    assert "How many days" not in line  # a number: the grammar holds it to its type
    assert "weather: The weather" not in line  # restates the names
    assert "unit?: celsius|fahrenheit" in line and "days?: integer" in line
    monkeypatch.setattr(prompting, "PARAM_DOCS", False)
    line = tool_signature(weather)  # only a doc that shows a format or an example, and no `?` marks
    assert line.endswith("Args: location: The city and state, e.g. San Francisco, CA.") and "?" not in line
    memo = {"note": {"type": "string", "description": "Any memo."}}
    plain = ToolSpec("f", "F.", {"type": "object", "properties": memo})
    assert "Args:" not in tool_signature(plain)
