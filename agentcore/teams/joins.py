"""Joins: one answer from the answers of parallel nodes.

- `majority`: the most frequent answer (zero-order: counts only). Ties go to the answer seen first.
- `weighted`: each voter's answer counts its weight (`weights:` in the team file, default 1).
- `optimal_weight` (OW, first-order): weight log(p (K-1) / (1-p)), the optimum for independent voters of
  accuracy p among K options. p is estimated without labels: how often the voter agreed with the majority of
  the other voters on earlier questions (Laplace-smoothed, clipped to [0.05, 0.95]).
- `isp` (Inverse Surprising Popularity, second-order; our reading): from earlier questions, the agreement rate
  r_ij of each pair of voters, and its excess over the typical pair's (the median): rho_ij = (r_ij - median) /
  (1 - median), floored at 0. Voters that agree far more than independent voters would are predicted to echo
  each other, so an answer's popularity is counted beyond that prediction: each vote counts 1 / sum of rho
  with the voters who gave the same answer (itself included). A block of three voters that always agree counts
  about as one; independent voters count fully. The paper's own estimator differs in detail (it infers the
  surprisingly-popular predictions from the correlations); this keeps its purpose: discount a correlated block
  repeating one error. With no excess correlation it is majority vote.

"Beyond Majority Voting" (arXiv 2510.01499) needs several questions answered by the same voters: `JoinStats`
keeps them per team and join node, and with fewer than `MIN_HISTORY` questions both OW and ISP fall back to
majority vote (and say so in `JoinResult.method`).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MIN_HISTORY = 3
MAX_HISTORY = 500


def normalize(answer: Any, how: str = "text") -> str:
    """The form answers are compared in: 'text' folds case, spaces and a trailing period; 'number' keeps the
    last number (the result in "47 * 8 + 13 = 389"); 'exact' compares the JSON text."""
    if how == "exact":
        return json.dumps(answer, sort_keys=True, ensure_ascii=False)
    text = answer if isinstance(answer, str) else json.dumps(answer, sort_keys=True, ensure_ascii=False)
    if how == "number":
        found = re.findall(r"-?\d[\d,]*(?:\.\d+)?", text)
        if found:
            value = float(found[-1].replace(",", "").rstrip(","))
            return str(int(value)) if value.is_integer() else str(value)
    return " ".join(text.strip().lower().rstrip(".").split())


@dataclass(slots=True)
class JoinResult:
    answer: Any
    method: str  # the method really used ("majority (optimal_weight needs 3 earlier questions)", ...)
    scores: dict[str, float]


@dataclass(slots=True)
class JoinStats:
    """Earlier questions' normalised answers, voter -> answer, kept per join across runs (a JSON file)."""

    history: list[dict[str, str]] = field(default_factory=list)
    path: Path | None = None

    @classmethod
    def load(cls, path: Path | None) -> JoinStats:
        if path is None or not path.is_file():
            return cls(path=path)
        try:
            data = json.loads(path.read_text())
            history = [dict(item) for item in data["history"] if isinstance(item, dict)]
        except (OSError, ValueError, KeyError, TypeError):
            history = []  # a corrupt file costs the statistics, never the run
        return cls(history[-MAX_HISTORY:], path)

    def add(self, votes: Mapping[str, str]) -> None:
        self.history = [*self.history, dict(votes)][-MAX_HISTORY:]
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"history": self.history}))
            tmp.replace(self.path)

    def accuracy(self, voter: str) -> float | None:
        """Agreement with the majority of the other voters, over earlier questions."""
        hits = total = 0
        for votes in self.history:
            if voter not in votes:
                continue
            others = Counter(a for v, a in votes.items() if v != voter)
            if not others:
                continue
            total += 1
            hits += votes[voter] == others.most_common(1)[0][0]
        return (hits + 1) / (total + 2) if total >= MIN_HISTORY else None

    def agreement(self, a: str, b: str) -> float | None:
        pairs = [votes[a] == votes[b] for votes in self.history if a in votes and b in votes]
        return (sum(pairs) + 1) / (len(pairs) + 2) if len(pairs) >= MIN_HISTORY else None


def aggregate(
    method: str,
    answers: Sequence[Any],
    voters: Sequence[str],
    *,
    weights: Mapping[str, float] | None = None,
    stats: JoinStats | None = None,
    how: str = "text",
) -> JoinResult:
    """One answer from `answers` (given by `voters`, in the same order). Records the votes in `stats`."""
    if not answers:
        raise ValueError("the join has no answers to aggregate")
    keys = [normalize(a, how) for a in answers]
    first = {k: answers[i] for i, k in reversed(list(enumerate(keys)))}  # each option's first original form
    stats = stats if stats is not None else JoinStats()
    scores, used = _scores(method, keys, list(voters), weights or {}, stats)
    stats.add(dict(zip(voters, keys, strict=False)))
    best = max(scores, key=lambda k: (scores[k], -keys.index(k)))
    return JoinResult(first[best], used, {k: round(v, 4) for k, v in scores.items()})


def _scores(
    method: str, keys: list[str], voters: list[str], weights: Mapping[str, float], stats: JoinStats
) -> tuple[dict[str, float], str]:
    if method == "weighted":
        return _tally(keys, [weights.get(v, 1.0) for v in voters]), "weighted"
    if method == "optimal_weight":
        found = _ow_weights(voters, len(set(keys)), stats)
        if found is not None:
            return _tally(keys, found), "optimal_weight"
    if method == "isp":
        found_isp = _isp(keys, voters, stats)
        if found_isp is not None:
            return found_isp, "isp"
    fallback = "" if method == "majority" else f" ({method} needs {MIN_HISTORY} earlier questions)"
    return _tally(keys, [1.0] * len(keys)), "majority" + fallback


def _tally(keys: Sequence[str], weights: Sequence[float]) -> dict[str, float]:
    scores: dict[str, float] = {}
    for key, weight in zip(keys, weights, strict=True):
        scores[key] = scores.get(key, 0.0) + weight
    return scores


def _ow_weights(voters: Sequence[str], options: int, stats: JoinStats) -> list[float] | None:
    k = max(2, options)
    accuracies = [stats.accuracy(v) for v in voters]
    if any(p is None for p in accuracies):
        return None
    clipped = [min(0.95, max(0.05, p)) for p in accuracies if p is not None]
    return [math.log(p * (k - 1) / (1 - p)) for p in clipped]


def _isp(keys: Sequence[str], voters: Sequence[str], stats: JoinStats) -> dict[str, float] | None:
    if len(keys) < 2:
        return None
    pairs = {(a, b): stats.agreement(a, b) for a in voters for b in voters if a < b}
    if any(r is None for r in pairs.values()):
        return None
    rates = sorted(r for r in pairs.values() if r is not None)
    base = rates[len(rates) // 2]  # the typical agreement of two voters: what independence looks like here

    def excess(a: str, b: str) -> float:
        if a == b:
            return 1.0
        r = pairs[(a, b) if a < b else (b, a)] or 0.0
        return max(0.0, (r - base) / (1 - base)) if base < 1 else 0.0

    scores: dict[str, float] = {}
    for voter, key in zip(voters, keys, strict=True):
        echo = sum(excess(voter, other) for other, k in zip(voters, keys, strict=True) if k == key)
        scores[key] = scores.get(key, 0.0) + 1.0 / echo
    return scores
