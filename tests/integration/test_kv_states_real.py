"""Several KV states per model on the real default model (issue #17): two conversations that take turns on one
LlamaCppModel each resume from their own prefix, two agent runs at once are served mostly from the cache, and a
restored state answers exactly as a cold evaluation."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from agentcore import Agent
from agentcore.messages import Message, ModelRequest
from agentcore.models.llamacpp import LlamaCppModel
from agentcore.tools.builtin import builtin_toolset

pytestmark = pytest.mark.real_model

SYSTEMS = {
    "a": "You are a terse assistant for a bakery. Prices: bread 3 dollars, cake 12 dollars, pie 9 dollars. "
    "Answer with a number only.",
    "b": "You are a terse assistant for a garage. Rates: oil change 40 dollars, tyre 85 dollars, wash 15 dollars. "
    "Answer with a number only.",
}
QUESTIONS = {
    "a": ["What do 2 breads cost?", "And 3 cakes?", "And one pie?"],
    "b": ["What does one tyre cost?", "And 2 oil changes?", "And a wash?"],
}


async def test_two_alternating_conversations_each_get_their_own_prefix_from_the_cache(qwen: LlamaCppModel) -> None:
    qwen.reset_kv()
    history = {name: [Message("system", text)] for name, text in SYSTEMS.items()}
    usage: dict[str, list[tuple[int, int]]] = {"a": [], "b": []}
    last_request = None
    last_text = ""
    for turn in range(3):
        for name in ("a", "b"):  # turn by turn, as two chat sessions would run on one model
            history[name].append(Message("user", QUESTIONS[name][turn]))
            last_request = ModelRequest(messages=tuple(history[name]), max_tokens=6, constrain=False)
            response = await qwen.complete(last_request)
            last_text = response.content or ""
            history[name].append(Message("assistant", last_text))
            usage[name].append((response.usage.prompt_tokens, response.usage.cached_tokens))
    for name in ("a", "b"):
        for (prompt_before, _), (_, cached) in zip(usage[name], usage[name][1:], strict=False):
            # Each later turn finds its whole previous prompt in the cache, though the other one ran in between.
            assert cached >= prompt_before, (name, usage[name])
    assert len(qwen.kv_states) >= 1 and qwen.kv_states.nbytes <= qwen.kv_states.budget
    # A restored state is the same state: a cold evaluation of the last prompt answers the same.
    assert last_request is not None
    qwen.reset_kv()
    cold = await qwen.complete(last_request)
    assert cold.usage.cached_tokens == 0 and cold.content == last_text


async def test_the_second_of_two_interleaved_agent_runs_is_served_mostly_from_the_cache(
    qwen: LlamaCppModel, tmp_path: Path
) -> None:
    """Two runs on one model at once take turns on its lock, as two chat sessions or team nodes would."""
    for name, value in (("a.txt", "120"), ("b.txt", "345"), ("x.txt", "78"), ("y.txt", "40")):
        (tmp_path / name).write_text(value)
    tools = builtin_toolset(["files"], workspace=str(tmp_path))
    pairs = (("a.txt", "b.txt"), ("x.txt", "y.txt"))
    tasks = [f"Read {one}, then read {two}, then say both numbers." for one, two in pairs]
    qwen.reset_kv()
    restores = qwen.kv_stats.restores
    first, second = await asyncio.gather(*(Agent(qwen, tools=tools, max_steps=4).run(task) for task in tasks))
    for result in (first, second):
        steps = [(s.usage.prompt_tokens, s.usage.cached_tokens) for s in result.steps]
        assert len(steps) >= 2, steps
        # Each step finds its own run's whole previous prompt, though the other run's step ran in between.
        for (prompt_before, _), (_, cached) in itertools.pairwise(steps):
            assert cached >= prompt_before, steps
    assert second.cache_hit_rate > 0.5, [(s.usage.prompt_tokens, s.usage.cached_tokens) for s in second.steps]
    assert qwen.kv_stats.restores > restores  # served by restored states, not by the one live state
