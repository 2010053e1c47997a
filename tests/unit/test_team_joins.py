"""Joins: majority, weighted, Optimal Weight and Inverse Surprising Popularity, and their statistics."""

from __future__ import annotations

import json
import random
from pathlib import Path

from agentcore.teams.joins import JoinStats, aggregate, normalize


def test_normalize_forms() -> None:
    assert normalize(" The Answer. ") == normalize("the  answer") == "the answer"
    assert normalize("It is 1,234.0 apples", "number") == "1234"
    assert normalize("47 * 8 + 13 = 389.", "number") == "389"
    assert normalize({"b": 1, "a": 2}, "exact") == '{"a": 2, "b": 1}'


def test_majority_counts_and_breaks_ties_by_first_seen() -> None:
    result = aggregate("majority", ["Paris", "paris.", "Lyon"], ["a", "b", "c"])
    assert result.answer == "Paris" and result.scores == {"paris": 2.0, "lyon": 1.0}
    tie = aggregate("majority", ["Lyon", "Paris"], ["a", "b"])
    assert tie.answer == "Lyon"


def test_weighted_vote_lets_an_expert_outvote_two() -> None:
    result = aggregate("weighted", ["A", "B", "B"], ["expert", "x", "y"], weights={"expert": 3})
    assert result.answer == "A" and result.method == "weighted"


def test_ow_and_isp_fall_back_to_majority_without_history() -> None:
    for method in ("optimal_weight", "isp"):
        result = aggregate(method, ["A", "B", "B"], ["a", "b", "c"])
        assert result.answer == "B" and result.method.startswith("majority (") and method in result.method


def _history(stats: JoinStats, rounds: int, rng: random.Random) -> None:
    """Two independent voters right 75% of the time, and a block of three that gives one shared answer, right
    50% of the time. The truth is 'T'."""
    for _ in range(rounds):
        block = "T" if rng.random() < 0.5 else rng.choice(["W1", "W2"])
        votes = {f"good{i}": "T" if rng.random() < 0.75 else rng.choice(["W1", "W2"]) for i in (1, 2)}
        stats.add({**votes, "c1": block, "c2": block, "c3": block})


def test_optimal_weight_trusts_the_voter_who_agrees_with_the_others_less_blindly() -> None:
    rng = random.Random(0)
    stats = JoinStats()
    for _ in range(40):  # independent voters of different accuracy: OW learns who is reliable
        truth = "T"
        votes = {
            "strong1": truth if rng.random() < 0.9 else "X",
            "strong2": truth if rng.random() < 0.9 else "Y",
            "weak1": truth if rng.random() < 0.35 else rng.choice(["X", "Y", "Z"]),
            "weak2": truth if rng.random() < 0.35 else rng.choice(["X", "Y", "Z"]),
            "weak3": truth if rng.random() < 0.35 else rng.choice(["X", "Y", "Z"]),
        }
        stats.add(votes)
    assert (stats.accuracy("strong1") or 0) > (stats.accuracy("weak1") or 1)
    # Three weak voters happen to agree on a wrong answer: majority follows them, OW the two strong voters.
    answers, voters = ["T", "T", "Z", "Z", "Z"], ["strong1", "strong2", "weak1", "weak2", "weak3"]
    assert aggregate("majority", answers, voters).answer == "Z"
    result = aggregate("optimal_weight", answers, voters, stats=stats)
    assert result.method == "optimal_weight" and result.answer == "T"


def test_isp_discounts_a_block_of_correlated_voters() -> None:
    stats = JoinStats()
    _history(stats, 60, random.Random(1))
    assert (stats.agreement("c1", "c2") or 0) > 0.95 and (stats.agreement("good1", "c1") or 1) < 0.7
    answers, voters = ["T", "T", "W2", "W2", "W2"], ["good1", "good2", "c1", "c2", "c3"]
    assert aggregate("majority", answers, voters).answer == "W2"
    result = aggregate("isp", answers, voters, stats=stats)
    assert result.method == "isp" and result.answer == "T"
    assert result.scores["w2"] < 1.2 < result.scores["t"]  # the block of three counted about as one voter


def test_isp_without_correlation_agrees_with_majority() -> None:
    rng = random.Random(2)
    stats = JoinStats()
    for _ in range(60):
        stats.add({v: rng.choice("ABC") for v in ("a", "b", "c")})
    assert aggregate("isp", ["A", "A", "B"], ["a", "b", "c"], stats=stats).answer == "A"


def test_stats_persist_across_runs_and_survive_a_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "team.vote.json"
    stats = JoinStats.load(path)
    aggregate("majority", ["A", "B"], ["x", "y"], stats=stats)
    assert json.loads(path.read_text())["history"] == [{"x": "a", "y": "b"}]
    assert JoinStats.load(path).history == [{"x": "a", "y": "b"}]
    path.write_text("{not json")
    assert JoinStats.load(path).history == []
