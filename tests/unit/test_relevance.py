"""ToolRelevance: tools far from the task are withheld, the run answers directly when none is left."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import pytest

from agentcore import Agent, UserError, tool
from agentcore.policies.relevance import ToolRelevance, tool_text
from agentcore.testing import ScriptedModel, call


class WordsEmbedder:
    """Bag of words as a unit vector: texts that share words are similar. Counts its calls."""

    def __init__(self) -> None:
        self.vocabulary: dict[str, int] = {}
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        words = [re.findall(r"[a-z]+", t.lower()) for t in texts]
        for w in (w for ws in words for w in ws):
            self.vocabulary.setdefault(w, len(self.vocabulary))
        vectors = []
        for ws in words:
            v = [0.0] * 64
            for w in ws:
                v[self.vocabulary[w] % 64] += 1.0
            norm = math.sqrt(sum(x * x for x in v)) or 1.0
            vectors.append([x / norm for x in v])
        return vectors


@tool
def convert_currency(amount: float, to: str) -> str:
    """Convert an amount of money into another currency."""
    return "1"


@tool
def weather_forecast(city: str) -> str:
    """Get the weather forecast for a city."""
    return "sunny"


async def test_unrelated_task_gets_no_tools_and_answers_directly() -> None:
    model = ScriptedModel(["Shakespeare"])
    relevance = ToolRelevance(min_similarity=0.2, embedder=WordsEmbedder())
    result = await Agent(model, tools=[convert_currency], policies=[relevance]).run("Who wrote Hamlet?")
    assert result.output == "Shakespeare"
    assert model.requests[0].tools == ()
    entry = next(e for e in result.trace if e["kind"] == "tool_relevance")
    assert entry["kept"] == [] and entry["scores"]["convert_currency"] < 0.2


async def test_one_related_tool_keeps_them_all() -> None:
    model = ScriptedModel([call("weather_forecast", city="Oslo"), "sunny"])
    relevance = ToolRelevance(min_similarity=0.2, embedder=WordsEmbedder())
    agent = Agent(model, tools=[convert_currency, weather_forecast], policies=[relevance])
    result = await agent.run("What is the weather forecast for the city of Oslo?")
    assert [s.name for s in model.requests[0].tools] == ["convert_currency", "weather_forecast"]
    entry = next(e for e in result.trace if e["kind"] == "tool_relevance")
    assert entry["scores"]["convert_currency"] < 0.2 <= entry["scores"]["weather_forecast"]
    assert result.output == "sunny"


async def test_top_k_keeps_the_best_in_their_original_order() -> None:
    relevance = ToolRelevance(min_similarity=-1.0, top_k=1, embedder=WordsEmbedder())
    model = ScriptedModel(["done"])
    agent = Agent(model, tools=[convert_currency, weather_forecast], policies=[relevance])
    agent.check_sources = False  # an answer with no call would go back for convert_currency (tool_fit)
    await agent.run("convert this amount of money")
    assert [s.name for s in model.requests[0].tools] == ["convert_currency"]


async def test_tools_are_embedded_once_per_policy() -> None:
    embedder = WordsEmbedder()
    relevance = ToolRelevance(min_similarity=-1.0, embedder=embedder)
    agent = Agent(ScriptedModel(["a", "b"]), tools=[convert_currency], policies=[relevance])
    await agent.run("first task")
    await agent.run("second task")
    assert embedder.embedded.count(tool_text(convert_currency.spec())) == 1
    assert embedder.embedded.count("second task") == 1


def test_tool_text_reads_names_as_words() -> None:
    assert tool_text(weather_forecast.spec()) == "weather forecast: Get the weather forecast for a city."


def test_bad_settings_are_user_errors() -> None:
    with pytest.raises(UserError, match="cosine"):
        ToolRelevance(min_similarity=2.0)
    with pytest.raises(UserError, match="top_k"):
        ToolRelevance(top_k=0)
