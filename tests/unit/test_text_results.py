"""A reply of a word or two that leaves out the result of a call on the task's quoted text gives way to that result
(`agentcore.text_results`)."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool


@tool
def reverse_string(text: str) -> str:
    """Reverse a string, character by character."""
    return text[::-1]


@tool
def word_count(text: str) -> str:
    """Count the words in a text."""
    return str(len(text.split()))


async def run(task: str, answer: str, tool_name: str = "reverse_string", text: str = "python") -> tuple[str, int]:
    model = ScriptedModel([call(tool_name, text=text), answer])
    result = await Agent(model, tools=[reverse_string, word_count]).run(task)
    notices = [e for e in result.trace if e["kind"] == "notice" and "quoted text" in str(e.get("message"))]
    return str(result.output), len(notices)


async def test_a_short_reply_without_the_result_gives_way_to_it() -> None:
    assert await run("Reverse the word 'python'.", "nope") == ("nohtyp", 1)


async def test_replies_that_hold_the_result_or_say_more_stand() -> None:
    assert await run("Reverse the word 'python'.", "It is nohtyp") == ("It is nohtyp", 0)
    task = "Reverse 'racecar' and tell me whether it reads the same."
    assert await run(task, "Yes, it reads the same", text="racecar") == ("Yes, it reads the same", 0)


async def test_a_call_on_other_text_or_a_number_result_is_left_alone() -> None:
    assert await run("Reverse the word 'python'.", "nope", text="snake") == ("nope", 0)
    assert await run("How many words are in 'a b c'?", "three", tool_name="word_count", text="a b c") == ("three", 0)


async def test_a_longer_reply_that_reworks_the_quote_gives_way_to_the_result() -> None:
    task = 'Invert the letters of "Two Rivers, Ohio".'
    reworked = await run(task, "Ohio, Rivers, Two", text="Two Rivers, Ohio")
    assert reworked == ("oihO ,sreviR owT", 1)
    # a longer reply in other words stands
    assert await run(task, "It reads as a place name", text="Two Rivers, Ohio") == ("It reads as a place name", 0)
