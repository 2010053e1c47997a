"""Prompt optimiser and context (observation trimming) policy, on scripted models and a stand-in tokenizer."""

from __future__ import annotations

import itertools

import pytest

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.messages import Message, ToolCall, ToolSpec
from agentcore.policies.context import ContextPolicy, TrimConfig, observations, trim_count, trim_observations
from agentcore.policies.optimizer import (
    OptimizerConfig,
    PromptOptimizer,
    compact_description,
    compact_schema,
    compress_system,
    optimize_messages,
    remove_fillers,
)
from agentcore.testing import FunctionModel, ScriptedModel, call
from agentcore.tools.function import tool

VERBOSE = (
    "This tool allows you to search the web using the Brave Search API. It is important to note that results "
    "are limited to 20 per request. Use it for news and articles (e.g. 'latest AI news'). Supports "
    'pagination, for example with an offset.\n\nExamples:\n- search(query="python asyncio")\n'
    '- search(query="x", count=5)\n\n```\nsearch(query="weather")\n```'
)
CONSTRAINED_TASKS = [
    "Summarise the report and answer in French.",
    "Book a table for two, but not on Sundays.",
    "Explain recursion in under 50 words.",
    "Please note that the answer must be in French. It is important to be brief.",
]


def spec(name: str, description: str) -> ToolSpec:
    return ToolSpec(name, description, {"type": "object", "properties": {"q": {"type": "string"}}})


def conversation(task: str, results: list[str], system: str | None = None) -> list[Message]:
    system = system or prompting.system_prompt("Please note that you are helpful.", [spec("search", VERBOSE)])
    messages = [Message("system", system), prompting.task_message(task)]
    for i, result in enumerate(results):
        call_ = ToolCall("search", {"q": f"query {i}"})
        messages += [prompting.assistant_turn(call_, None), prompting.observation(task, call_, result)]
    return messages


def is_prefix(shorter: list[Message], longer: list[Message]) -> bool:
    return longer[: len(shorter)] == shorter


# -- text rules --------------------------------------------------------------------------------------------


def test_compact_description_drops_examples_boilerplate_and_fillers() -> None:
    text = compact_description(VERBOSE)
    assert text.startswith("Search the web using the Brave Search API.")
    assert "Results are limited to 20 per request." in text
    for gone in ("Examples", "e.g.", "for example", "```", "This tool", "It is important", "search(query"):
        assert gone not in text
    assert "\n" not in text and "  " not in text


def test_sentence_cap_keeps_constraint_sentences() -> None:
    text = "Reads a file. Handles many encodings. Only works inside the workspace. Returns the text."
    assert compact_description(text, max_sentences=1) == "Reads a file. Only works inside the workspace."
    assert compact_description(text, max_sentences=None) == text


def test_remove_fillers_keeps_negations_and_recapitalises() -> None:
    text = remove_fillers(
        "Please note that you must answer in French. It is important to never guess. Make sure to cite."
    )
    assert text == "You must answer in French. Never guess. Cite."


def test_compact_schema_keeps_validation_keywords() -> None:
    schema = {
        "type": "object",
        "title": "Args",
        "properties": {
            "count": {
                "type": "integer",
                "title": "Count",
                "maximum": 20,
                "default": 10,
                "examples": [5],
                "description": "How many results, e.g. 5. Please keep it small.",
            },
        },
        "required": ["count"],
    }
    out = compact_schema(schema)
    assert out == {
        "type": "object",
        "properties": {"count": {"type": "integer", "maximum": 20, "default": 10, "description": "How many results."}},
        "required": ["count"],
    }


def test_system_prompt_tools_compacted_and_repeated_blocks_dropped() -> None:
    block = "Experience: read a file before editing it."
    system = prompting.system_message("Please be concise.", [spec("search", VERBOSE)], [block, block])
    out = compress_system(system, OptimizerConfig()).content
    assert out.count(block) == 1
    assert "- search(q: string): Search the web using the Brave Search API." in out
    assert "Examples" not in out
    assert out.startswith("Be concise.")
    assert prompting.BASE_RULES in out  # the turn rules are already terse: untouched


# -- never a task constraint -------------------------------------------------------------------------------


@pytest.mark.parametrize("task", CONSTRAINED_TASKS)
def test_task_text_is_never_rewritten(task: str) -> None:
    messages = conversation(task, ["r" * 300, "r" * 300, "s" * 300, "t" * 300, "u" * 300])
    config = OptimizerConfig(trim=TrimConfig(keep_last=1, block=1))
    out = optimize_messages(messages, config)
    assert out[1] == messages[1] == Message("user", f"Task: {task}")
    assert task in out[-1].content  # the turn the model answers restates the task, word for word
    kept = observations(out)[-1:]  # keep_last=1: only the latest observation keeps its guidance
    assert all(task in messages[o.index].content for o in observations(messages))
    assert [task in out[o.index].content for o in observations(out)] == [False] * 4 + [True] * len(kept)
    assert sum(len(m.content) for m in out) < sum(len(m.content) for m in messages)


# -- KV-cache stability ------------------------------------------------------------------------------------


def test_without_trimming_every_prompt_extends_the_previous_one() -> None:
    results = [f"result {i} " + "x" * 200 for i in range(7)]
    prompts = [optimize_messages(conversation("Find it.", results[:k])) for k in range(8)]
    for earlier, later in itertools.pairwise(prompts):
        assert is_prefix(earlier, later)


def test_trimming_moves_the_cut_only_every_block() -> None:
    config = OptimizerConfig(trim=TrimConfig(keep_last=2, block=3))
    results = [f"result {i} " + "x" * 200 for i in range(11)]
    prompts = [optimize_messages(conversation("Find it.", results[:k]), config) for k in range(12)]
    breaks = [k for k in range(1, 12) if not is_prefix(prompts[k - 1], prompts[k])]
    assert breaks == [5, 8, 11]  # observations 5, 8 and 11 push the cut by a block of 3
    assert [trim_count(n, config.trim) for n in (2, 4, 5, 7, 8)] == [0, 0, 3, 3, 6]  # type: ignore[arg-type]


# -- observation trimming ----------------------------------------------------------------------------------


def test_old_observations_shortened_recent_kept_verbatim() -> None:
    results = [f"result {i}: " + "long text " * 40 for i in range(5)]
    messages = conversation("Find it.", results)
    out = trim_observations(messages, TrimConfig(keep_last=2, block=1))
    found = observations(out)
    assert [o.result.startswith("[older result, shortened] result") for o in found] == [True] * 3 + [False] * 2
    assert found[-1].result == results[-1]
    assert all(len(o.result) < 120 for o in found[:3])
    assert [m.role for m in out] == [m.role for m in messages]


def test_old_observations_lose_their_guidance_unless_configured() -> None:
    messages = conversation("Find it.", ["a", "b", "c"])
    out = trim_observations(messages, TrimConfig(keep_last=1, block=1))
    old, latest = observations(out)[:2], observations(out)[2]
    assert [out[o.index].content for o in old] == ["Result of search:\na", "Result of search:\nb"]
    assert latest.part.guidance and out[latest.index] == messages[latest.index]
    assert "Done: search" in out[latest.index].content
    kept = trim_observations(messages, TrimConfig(keep_last=1, block=1, omit_guidance=False))
    assert kept == messages  # results this short are not summarised either


def test_old_result_repeated_later_is_omitted() -> None:
    same = "the same page of search results " * 10
    messages = conversation("Find it.", [same, "other " * 30, same, "x", "y"])
    out = observations(trim_observations(messages, TrimConfig(keep_last=2, block=1)))
    assert out[0].result == '[same result as the later call search({"q": "query 2"})]'
    assert out[2].result.startswith("[older result, shortened]")


def test_results_repeated_from_earlier_become_pointers() -> None:
    page = "A long page that a tool returned once already. " * 6
    messages = conversation("Find it.", [page, page + "\n\nplus something new"])
    out = optimize_messages(messages)
    second = observations(out)[1].result
    assert second.startswith("[") and "repeated from earlier" in second
    assert second.endswith("plus something new")
    assert observations(out)[0].result == page


def test_trimming_ignores_messages_that_are_not_observations() -> None:
    messages = [Message("system", "S"), Message("user", "Task: t"), Message("user", "free text " * 50)]
    assert trim_observations(messages, TrimConfig(keep_last=0, block=1)) == messages


# -- as policies in a run ----------------------------------------------------------------------------------


@tool(read_only=True)
def lookup(q: str) -> str:
    """Look something up. This tool allows you to query the index. Example: lookup(q="cats")."""
    return f"facts about {q}: " + "detail " * 60


async def test_prompt_optimizer_rewrites_what_the_model_sees_and_records_tokens() -> None:
    model = ScriptedModel([call("lookup", q="a"), call("lookup", q="b"), "done"])
    optimizer = PromptOptimizer(count_tokens=lambda text: len(text.split()))
    agent: Agent[None, str] = Agent(model, tools=[lookup], instructions="Please be brief.", policies=[optimizer])
    result = await agent.run("Look up a and b, answer in French.")
    assert result.output == "done"
    systems = {r.messages[0].content for r in model.requests}
    assert len(systems) == 1  # the same system prompt at every step
    system = systems.pop()
    assert "Example" not in system and "This tool" not in system and system.startswith("Be brief.")
    assert all(r.messages[1].content == "Task: Look up a and b, answer in French." for r in model.requests)
    assert model.requests[0].tools[0].description == "Look something up."
    records = [t for t in result.trace if t["kind"] == "prompt_optimizer"]
    assert len(records) == 3 and all(r["tokens_after"] < r["tokens_before"] for r in records)
    assert is_prefix(list(model.requests[1].messages), list(model.requests[2].messages))


async def test_context_policy_trims_during_a_run() -> None:
    model = FunctionModel(lambda r: call("lookup", q=str(len(r.messages))) if len(r.messages) < 12 else "ok")
    agent: Agent[None, str] = Agent(
        model, tools=[lookup], policies=[ContextPolicy(TrimConfig(keep_last=1, block=2))], max_steps=8
    )
    await agent.run("Collect facts.")
    last = model.requests[-1]
    shortened = [o for o in observations(last.messages) if o.result.startswith("[older result")]
    assert len(shortened) == 4 and len(observations(last.messages)) == 5
