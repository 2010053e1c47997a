"""The complexity router: EffGen's known traps, word boundaries, config errors, explanations and accuracy."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agentcore.errors import UserError
from agentcore.messages import ModelRequest, ModelResponse
from agentcore.policies.router import PLANS, ComplexityRouter, RouteDecision, RouterConfig
from agentcore.policies.router_factors import (
    count_requirements,
    instructions_of,
    score_domains,
    score_reasoning,
    score_tools,
)

DATA = Path(__file__).parent.parent / "data" / "routing.jsonl"


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def route(task: str, **kwargs: Any) -> RouteDecision:
    return ComplexityRouter().route(task, **kwargs)


# --- EffGen's traps -------------------------------------------------------------------------------


def test_multiplication_star_is_not_a_bullet() -> None:
    decision = route("What is 24344 * 334?", tool_names=["calculator"])
    assert decision.requirements == 1.0
    assert decision.scores["num_requirements"] == 0.0
    assert decision.plan == "agent"  # the calculator is needed, and only once


def test_line_leading_bullets_count_but_inline_operators_do_not() -> None:
    assert count_requirements("- read a.txt\n- read b.txt\n- read c.txt")[0] == 3.0
    assert count_requirements("Compute 3 * 4 - 2 * 5 and 7 - 1.")[0] == 1.0
    assert count_requirements("1. Summarize it.\n2. Draft an email.")[0] == 2.0
    assert count_requirements("The meeting is on 2024-03-01.")[0] == 1.0


def test_capital_is_not_the_technical_keyword_api() -> None:
    assert score_domains("What is the capital of France?").score == 0.0
    assert score_domains("Call the payments API.").detail == "domains technical"
    assert route("What is the capital of France?", tool_names=["web_search", "calculator"]).plan == "direct"


def test_concern_is_not_the_sequencing_word_once() -> None:
    assert count_requirements("I have a concern about this plan.")[0] == 1.0
    assert score_reasoning("I have a concern.").detail == "no cue"
    assert "dependent step" in score_reasoning("Read it, then reply.").detail


def test_keywords_match_whole_words_with_inflections() -> None:
    assert score_tools("Analyze the rapid growth", ()).score == 0.0  # "rapid" holds "api"
    assert score_tools("a binary search tree", ["web_search"]).score == 0.0  # not a web search
    assert score_tools("Search the web for it", ["web_search"]).score == 2.5
    assert score_reasoning("We analyzed the logs").score == 7.0
    assert score_reasoning("We analysing it").score == 7.0  # British spelling is listed too
    assert score_reasoning("Keep the psychoanalyzed notes").score == 4.0  # inside a word: no cue


def test_sequencing_words_and_questions_split_requirements() -> None:
    assert count_requirements("Research X, compare the offers, then write a report.")[0] == 3.0
    assert count_requirements("Who is she? Where does she live?")[0] == 2.0
    assert count_requirements("Download the data; compute the mean; save it.")[0] == 1.5  # tool steps: half


def test_quoted_text_and_pasted_passages_add_no_requirements() -> None:
    decision = route("Translate 'Where is it? Then run and search the web.' into French.", tool_names=["web_search"])
    assert decision.plan == "direct"
    passage = "Summarize the text below: First research the market, then compare prices, then email Bob."
    assert route(passage, tool_names=["send_email"]).plan == "direct"
    # A colon alone does not make what follows material: these are still instructions.
    assert count_requirements(instructions_of("Do this: research X, then write a report on Y."))[0] == 2.0


def test_task_naming_an_available_tool_needs_it() -> None:
    assert route("Open a Jira ticket for the login bug.").plan == "direct"
    decision = route("Open a Jira ticket for the login bug.", tool_names=["create_jira_ticket"])
    assert decision.plan == "agent"
    assert any("names available tools create_jira_ticket" in r for r in decision.reasons)


# --- plans and tiers ------------------------------------------------------------------------------

REPORT = "Research the pricing of AWS and GCP, compare them, then write a report with a recommendation."


def test_team_only_when_available() -> None:
    assert route(REPORT, tool_names=["web_search"]).plan == "decompose"
    assert route(REPORT, tool_names=["web_search"], team_available=True).plan == "team"
    assert route("What is the capital of Peru?", team_available=True).plan == "direct"


def test_chain_of_tool_steps_stays_one_agent() -> None:
    task = "Download https://example.com/a.csv, compute the average price, and save it to out.txt."
    assert route(task, tool_names=["fetch_url", "python_exec", "write_file"]).plan == "agent"


def test_tier_follows_overall_score_bands() -> None:
    config = RouterConfig(tiers=("smollm2-135m", "qwen2.5-coder-0.5b", "large"), tier_bounds=(1.5, 4.0))
    router = ComplexityRouter(config)
    assert router.route("Hi there!").tier == "smollm2-135m"
    assert router.route("Read notes.md and email it to bob@example.com.").tier == "qwen2.5-coder-0.5b"
    assert router.route(REPORT, tool_names=["web_search"]).tier == "large"


def test_min_tier_raises_the_tier_for_a_plan() -> None:
    config = RouterConfig(tiers=("small", "large"), tier_bounds=(9.0,), min_tier={"decompose": "large"})
    decision = ComplexityRouter(config).route(REPORT)
    assert (decision.plan, decision.tier) == ("decompose", "large")
    assert "raised to min_tier" in decision.reasons[-1] or any("min_tier" in r for r in decision.reasons)


def test_min_tier_tools_raises_the_tier_for_a_run_offered_that_many_tools() -> None:
    router = ComplexityRouter(RouterConfig(tiers=("small", "mid", "large"), min_tier_tools={2: "mid", 4: "large"}))
    tools = ["calculator", "lookup", "unit_convert", "date_diff"]
    assert [router.route("What is 2 + 2?", tool_names=tools[:n]).tier for n in (1, 2, 3, 4)] == [
        "small",
        "mid",
        "mid",
        "large",
    ]


def test_token_counter_replaces_word_count() -> None:
    words = ComplexityRouter().route("one two three four five six seven eight nine ten")
    tokens = ComplexityRouter(count_tokens=lambda text: 10 * len(text.split())).route(
        "one two three four five six seven eight nine ten"
    )
    assert words.scores["task_length"] < tokens.scores["task_length"]
    assert "100 tokens" in tokens.reasons[0]


def test_reasons_explain_factors_plan_and_tier() -> None:
    decision = route(REPORT, tool_names=["web_search"])
    text = "\n".join(decision.reasons)
    for factor in decision.scores:
        assert factor in text
    assert "plan decompose:" in text and "decompose_threshold 3" in text
    assert "tier 'small'" in text or "tier 'large'" in text
    assert decision.overall == pytest.approx(
        sum(w * decision.scores[k] for k, w in RouterConfig().weights.items()), abs=0.01
    )


def test_decision_is_frozen() -> None:
    decision = route("Hi!")
    with pytest.raises(AttributeError):
        decision.plan = "team"  # type: ignore[misc]


# --- configuration errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decompose_threshold": 12.0}, "decompose_threshold=12.0 is impossible"),
        ({"tool_threshold": -1.0}, "tool_threshold=-1.0 is impossible"),
        ({"weights": {"task_length": 1.0}}, "must have exactly the keys"),
        (
            {
                "weights": dict.fromkeys(
                    [
                        "task_length",
                        "num_requirements",
                        "domain_breadth",
                        "tool_requirements",
                        "reasoning_depth",
                    ],
                    0.5,
                )
            },
            "sum to 2.500",
        ),
        ({"tiers": ()}, "tiers is empty"),
        ({"tiers": ("a", "b"), "tier_bounds": (1.0, 2.0)}, "needs 1 values for 2 tiers"),
        ({"tiers": ("a", "b", "c"), "tier_bounds": (5.0, 2.0)}, "must be ascending"),
        ({"min_tier": {"team": "huge"}}, "unknown tier 'huge'"),
        ({"min_tier": {"swarm": "large"}}, "unknown plan 'swarm'"),
        ({"min_tier_tools": {2: "huge"}}, r"min_tier_tools\[2\] names unknown tier 'huge'"),
        ({"min_tier_tools": {0: "large"}}, "tool counts of 1 or more"),
    ],
)
def test_invalid_config_is_a_user_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(UserError, match=message):
        RouterConfig(**kwargs)


def test_empty_task_is_a_user_error() -> None:
    with pytest.raises(UserError, match="empty task"):
        route("   ")


# --- the optional LLM check -----------------------------------------------------------------------


class FakeRouterModel:
    """Answers with a fixed JSON string and records the requests it got."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.requests: list[ModelRequest] = []

    @property
    def name(self) -> str:
        return "fake-router"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return ModelResponse(content=self.answer)


NEAR = "Translate our guide into German and French, then review both translations."


async def test_llm_check_near_threshold_is_constrained_and_recorded() -> None:
    router = ComplexityRouter()
    assert router.route(NEAR).near_thresholds  # the heuristic alone is unsure here
    model = FakeRouterModel('"agent"')
    decision = await router.aroute(NEAR, model=model, tool_names=["read_file"])
    assert len(model.requests) == 1
    schema = model.requests[0].output_schema
    assert schema == {"type": "string", "enum": ["direct", "agent", "decompose"]}  # no team: none configured
    assert decision.plan == "agent"
    assert any("LLM check by fake-router" in r and "chose agent" in r for r in decision.reasons)


async def test_llm_check_skipped_far_from_thresholds() -> None:
    model = FakeRouterModel('"team"')
    decision = await ComplexityRouter().aroute("What is the capital of France?", model=model)
    assert decision.plan == "direct" and model.requests == []


async def test_llm_check_with_invalid_answer_keeps_heuristic() -> None:
    model = FakeRouterModel('"swarm"')
    decision = await ComplexityRouter().aroute(NEAR, model=model)
    assert decision.plan == ComplexityRouter().route(NEAR).plan
    assert "not a plan" in decision.reasons[-1]


async def test_llm_check_offers_team_only_when_available() -> None:
    model = FakeRouterModel('"team"')
    decision = await ComplexityRouter(RouterConfig(llm_margin=10.0)).aroute(REPORT, model=model, team_available=True)
    assert model.requests[0].output_schema == {"type": "string", "enum": list(PLANS)}
    assert decision.plan == "team"


# --- accuracy on the labelled set -----------------------------------------------------------------


def test_labelled_set_covers_every_plan() -> None:
    counts = Counter(case["plan"] for case in load_cases())
    assert len(load_cases()) >= 60
    assert all(counts[plan] >= 12 for plan in PLANS), counts
    assert all(case.get("team_available") for case in load_cases() if case["plan"] == "team")


def test_accuracy_on_labelled_set() -> None:
    router = ComplexityRouter()
    cases = load_cases()
    wrong = []
    for case in cases:
        decision = router.route(
            case["task"], tool_names=case["tools"], team_available=case.get("team_available", False)
        )
        if decision.plan != case["plan"]:
            wrong.append((case["plan"], decision.plan, case["task"][:60]))
    accuracy = 1 - len(wrong) / len(cases)
    assert accuracy >= 0.8, wrong
