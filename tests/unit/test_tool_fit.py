"""A first answer from memory goes back once when an offered tool's docs share two or more content words with the
task (`agentcore.tool_fit`, `loop_checks.memory_answer_check`)."""

from __future__ import annotations

from agentcore.agent import Agent
from agentcore.messages import ToolSpec
from agentcore.testing import ScriptedModel, call
from agentcore.tool_fit import fitting_tools, shared_words
from agentcore.tools.function import tool

PAPAL = ToolSpec(
    "religious_history.get_papal_biography",
    "Retrieve the biography and main religious and historical contributions of a Pope.",
    {"type": "object", "properties": {"papal_name": {"type": "string", "description": "The papal name of the Pope."}}},
)
WEATHER = ToolSpec(
    "get_weather", "The current weather.", {"type": "object", "properties": {"location": {"type": "string"}}}
)
CONVERT = ToolSpec(
    "unit_convert",
    "Convert a value between units.",
    {"type": "object", "properties": {"value": {"type": "number", "description": "A temperature, length or mass."}}},
)


def test_shared_words() -> None:
    task = "Get the biography and main contributions of Pope Innocent III."
    assert shared_words(task, PAPAL) == ["biography", "contributions", "main", "pope"]
    assert shared_words(task, WEATHER) == []


def test_fitting_tools_need_two_shared_words() -> None:
    assert fitting_tools("Get the biography of Pope Innocent III.", [WEATHER, PAPAL]) == [PAPAL.name]
    # one shared word ("temperature") is a topic, not the tool's job
    assert fitting_tools("At sea level, at what temperature does water boil?", [CONVERT]) == []
    assert fitting_tools("Who are you?", [PAPAL, WEATHER]) == []


@tool
def papal_biography(papal_name: str) -> str:
    """Retrieve the biography and main contributions of a Pope.

    Args:
        papal_name: The papal name of the Pope.
    """
    return f"{papal_name}: pope 1198-1216; Fourth Lateran Council."


TASK = "Get the biography and main contributions of Pope Innocent III."


async def test_an_answer_from_memory_goes_back_for_the_tool_the_task_describes() -> None:
    model = ScriptedModel(
        ["Innocent III was born in 1932.", call("papal_biography", papal_name="Innocent III"), "Pope 1198-1216."]
    )
    result = await Agent(model, tools=[papal_biography]).run(TASK)
    assert result.output == "Pope 1198-1216."
    assert model.requests[1].messages[-1].content.startswith("The task asks you to use papal_biography")
    assert [spec.name for spec in model.requests[1].tools] == ["papal_biography"]
    assert not model.requests[1].allow_final  # the tool is required


async def test_an_answer_to_a_question_the_tools_do_not_describe_stands() -> None:
    plain = ScriptedModel(["I am a helpful assistant."])
    assert (await Agent(plain, tools=[papal_biography]).run("Who are you?")).output == "I am a helpful assistant."
