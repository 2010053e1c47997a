"""How tools are written into the system prompt (agentcore.signatures.tool_signature)."""

from __future__ import annotations

from typing import Any

from agentcore.messages import ToolSpec
from agentcore.signatures import tool_signature


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
    from agentcore import signatures

    monkeypatch.setattr(signatures, "PARAM_DOCS", True)
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
    monkeypatch.setattr(signatures, "PARAM_DOCS", False)
    line = tool_signature(weather)  # only a doc that shows a format or an example, and no `?` marks
    assert line.endswith("Args: location: The city and state, e.g. San Francisco, CA.") and "?" not in line
    memo = {"note": {"type": "string", "description": "Any memo."}}
    plain = ToolSpec("f", "F.", {"type": "object", "properties": memo})
    assert "Args:" not in tool_signature(plain)


def test_an_optional_arguments_stated_default_is_shown_whatever_its_type() -> None:
    trends = ToolSpec(
        "exhibition_info",
        "Get exhibitions for a museum.",
        {
            "type": "object",
            "properties": {
                "museum": {"type": "string", "description": "Name of the museum."},
                "month": {"type": "integer", "description": "Number of upcoming months to cover. Default 1"},
                "era": {"type": "string", "enum": ["modern", "old"], "description": "Era. Defaults to modern."},
                "limit": {"type": "integer", "description": "At most this many. Default 5", "default": 5},
                "page": {"type": "integer", "description": "The page."},
            },
            "required": ["museum"],
        },
    )
    line = tool_signature(trends)
    assert "month: Number of upcoming months to cover. Default 1;" in line
    assert "era: Era. Defaults to modern" in line
    assert "limit: integer = 5" in line and "limit: At most" not in line  # the schema's default says it already
    assert "page: The page" not in line and "museum: Name" not in line


def test_a_long_doc_keeps_the_sentence_that_states_the_default() -> None:
    from agentcore.signatures import PARAM_DOC_CHARS, clip_keeping_default

    doc = "Which sort of art to look for, such as paintings or prints. " * 4 + "Default is 'sculpture'."
    shown = clip_keeping_default(doc)
    assert shown.endswith(" ... Default is 'sculpture'.") and shown.startswith("Which sort of art")
    assert len(shown) <= PARAM_DOC_CHARS + 5
    assert clip_keeping_default("Short. Default 2.") == "Short. Default 2."
