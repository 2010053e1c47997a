"""Advisor policy on scripted models: advice reaches the main prompt; review, then revise; failures."""

from __future__ import annotations

import json

import pytest

from agentcore.agent import Agent
from agentcore.errors import ModelError, UserError
from agentcore.messages import ModelRequest, ModelResponse, Usage
from agentcore.policies.advisor import REVIEW_SCHEMA, TEMPLATES, Advisor, AdvisorTemplate, cap_words
from agentcore.testing import FunctionModel, ScriptedModel, call
from agentcore.tools.function import tool

ADVICE = "Compute each product first. Then add them. Use the calculator for every step."


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def review(ok: bool, issue: str = "") -> str:
    return json.dumps({"ok": ok, "issue": issue})


# -- advice first ------------------------------------------------------------------------------------------


async def test_advice_reaches_the_main_models_system_prompt() -> None:
    advisor_model = ScriptedModel([ADVICE], name="small")
    main = ScriptedModel([call("mul", a=6, b=7), "42"])
    agent: Agent[None, str] = Agent(main, tools=[mul], policies=[Advisor(advisor_model, domain="math")])
    result = await agent.run("What is 6 times 7?")
    assert result.output == "42"
    for request in main.requests:  # at every step, in the stable system prompt
        assert request.messages[0].content.endswith(f"Advice: {ADVICE}")
    asked = advisor_model.requests[0]
    assert asked.messages[0].content == TEMPLATES["math"].advice
    assert asked.messages[1].content == "Task: What is 6 times 7?"
    assert not asked.constrain and asked.max_tokens < 200
    assert [t for t in result.trace if t["kind"] == "advisor"] == [
        {"kind": "advisor", "step": 0, "mode": "advice_first", "model": "small", "advice": ADVICE}
    ]
    advisor_model.assert_complete()


async def test_advice_is_capped_in_words() -> None:
    rambling = "Check the units. " + "word " * 200
    main = ScriptedModel(["ok"])
    agent: Agent[None, str] = Agent(main, policies=[Advisor(ScriptedModel([rambling]), max_advice_words=20)])
    await agent.run("Convert 3 miles to km.")
    advice = main.requests[0].messages[0].content.split("Advice: ", 1)[1]
    assert len(advice.split()) <= 20
    assert advice.startswith("Check the units.")


def test_cap_words_prefers_whole_sentences() -> None:
    text = "One two three four. Five six seven eight nine ten eleven."
    assert cap_words(text, 6) == "One two three four."
    assert cap_words(text, 100) == text
    assert cap_words("a b c d e f g h", 4) == "a b c d…"


async def test_a_failing_advisor_does_not_fail_the_run() -> None:
    def broken(request: ModelRequest) -> str:
        raise ModelError("advisor server down")

    main = ScriptedModel(["fine"])
    agent: Agent[None, str] = Agent(main, policies=[Advisor(FunctionModel(broken))])
    result = await agent.run("Say fine.")
    assert result.output == "fine"
    assert "Advice" not in main.requests[0].messages[0].content
    assert result.trace[0]["error"] == "advisor server down"


async def test_advice_is_per_run_and_forgotten_after_it() -> None:
    advisor = Advisor(ScriptedModel(["Advice one.", "Advice two."]))
    main = ScriptedModel(["a", "b"])
    agent: Agent[None, str] = Agent(main, policies=[advisor])
    await agent.run("Task one.")
    await agent.run("Task two.")
    assert main.requests[0].messages[0].content.endswith("Advice: Advice one.")
    assert main.requests[1].messages[0].content.endswith("Advice: Advice two.")
    assert advisor._advice == {}


# -- review then revise ------------------------------------------------------------------------------------


async def test_rejected_answer_is_revised_with_the_review() -> None:
    advisor_model = ScriptedModel([review(False, "6 times 7 is 42, not 48")], name="reviewer")
    main = ScriptedModel(["48", "42"])
    agent: Agent[None, str] = Agent(main, policies=[Advisor(advisor_model, mode="review_revise")])
    result = await agent.run("What is 6 times 7?")
    assert result.output == "42"
    revise = main.requests[1].messages
    assert revise[: len(main.requests[0].messages)] == main.requests[0].messages
    assert revise[-2].content == '{"final_answer": "48"}'
    assert "6 times 7 is 42, not 48" in revise[-1].content and "Task: What is 6 times 7?" in revise[-1].content
    asked = advisor_model.requests[0]
    assert asked.output_schema == REVIEW_SCHEMA
    assert "Proposed answer: 48" in asked.messages[1].content
    record = next(t for t in result.trace if t["kind"] == "advisor")
    assert record["ok"] is False and record["revised"] == "42" and record["answer"] == "48"
    assert result.usage.calls == 2  # both main-model calls are counted


async def test_accepted_answer_is_returned_unchanged() -> None:
    main = ScriptedModel(["42"])
    agent: Agent[None, str] = Agent(main, policies=[Advisor(ScriptedModel([review(True)]), mode="review_revise")])
    result = await agent.run("What is 6 times 7?")
    assert result.output == "42" and len(main.requests) == 1
    main.assert_complete()


async def test_tool_calls_are_not_reviewed_and_reviews_are_bounded() -> None:
    advisor_model = ScriptedModel([review(False, "check again")])
    main = ScriptedModel([call("mul", a=6, b=7), "41", "40"])
    agent: Agent[None, str] = Agent(
        main, tools=[mul], policies=[Advisor(advisor_model, mode="review_revise", max_reviews=1)]
    )
    agent.check_sources = False  # "41" after mul returned 42 would be sent back by the loop before the advisor
    result = await agent.run("What is 6 times 7?")
    assert result.output == "40"
    advisor_model.assert_complete()  # one review only: the tool call and the revision were not reviewed


async def test_unparseable_review_keeps_the_answer() -> None:
    main = ScriptedModel(["42"])
    agent: Agent[None, str] = Agent(main, policies=[Advisor(ScriptedModel(["maybe?"]), mode="review_revise")])
    assert (await agent.run("6*7?")).output == "42"


async def test_both_modes_together() -> None:
    advisor_model = ScriptedModel([ADVICE, review(True)])
    main = FunctionModel(lambda r: ModelResponse(content="42", usage=Usage(prompt_tokens=5, calls=1)))
    agent: Agent[None, str] = Agent(main, policies=[Advisor(advisor_model, mode="both")])
    assert (await agent.run("6*7?")).output == "42"
    assert "Advice: " in main.requests[0].messages[0].content
    advisor_model.assert_complete()


# -- configuration -----------------------------------------------------------------------------------------


def test_bad_configuration_is_a_user_error() -> None:
    model = ScriptedModel([])
    with pytest.raises(UserError, match="known domains"):
        Advisor(model, domain="law")
    with pytest.raises(UserError, match="mode"):
        Advisor(model, mode="debate")  # type: ignore[arg-type]
    with pytest.raises(UserError, match="max_advice_words"):
        Advisor(model, max_advice_words=1)


async def test_custom_domain_template() -> None:
    template = AdvisorTemplate(advice="You advise on law.", review="You review legal answers.")
    advisor_model = ScriptedModel(["Cite the statute."])
    agent: Agent[None, str] = Agent(
        ScriptedModel(["ok"]), policies=[Advisor(advisor_model, domain="law", templates={"law": template})]
    )
    await agent.run("Is this contract valid?")
    assert advisor_model.requests[0].messages[0].content == "You advise on law."
    assert set(TEMPLATES) == {"general", "math", "code", "tools"}
