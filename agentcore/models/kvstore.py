"""Saved KV states of one llama.cpp context, found by the longest common token prefix, bounded by a memory budget.

One `llama_cpp.Llama` context holds one KV state, so conversations that take turns on a model (Tool-Guard's plans
and validators, the advisor, two chat sessions) evict each other. `LlamaCppModel` keeps the live state in the
context and, when a request matches a saved state better than the live one, saves the live state here and
restores the best one (`agentcore.models.kvstate`). This module is the bookkeeping only: pure Python, no model.

- A state is keyed by the tokens whose KV entries it holds. A request is served by the state with the longest
  common prefix with its prompt; ties go to the most recently used.
- A state whose tokens are a prefix of a newly saved one is dropped: the new one serves every prompt at least as
  well.
- The sizes of the kept states add up to at most `budget` bytes; the least recently used go first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class Sized(Protocol):
    @property
    def nbytes(self) -> int: ...


S = TypeVar("S", bound=Sized)


@dataclass(frozen=True)
class Match(Generic[S]):
    """The saved state that best serves a prompt, and how many of the prompt's tokens it holds."""

    tokens: tuple[int, ...]
    state: S
    prefix: int


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """The number of leading tokens `a` and `b` share."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


class KVStore(Generic[S]):
    """Saved states by token key, most recently used last, within `budget` bytes (0 keeps none)."""

    def __init__(self, budget: int) -> None:
        if budget < 0:
            raise ValueError(f"budget must be >= 0 bytes, got {budget}")
        self.budget = budget
        self._states: OrderedDict[tuple[int, ...], S] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._states)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def saved_tokens(self) -> list[tuple[int, ...]]:
        """The token keys of the kept states, least recently used first."""
        return list(self._states)

    def best(self, tokens: Sequence[int]) -> Match[S] | None:
        """The state with the longest common prefix with `tokens` (None when none shares a token)."""
        found: tuple[int, ...] | None = None
        longest = 0
        for key in reversed(self._states):  # most recent first, so a tie goes to it
            prefix = common_prefix(key, tokens)
            if prefix > longest:
                found, longest = key, prefix
        return None if found is None else Match(found, self._states[found], longest)

    def touch(self, tokens: tuple[int, ...]) -> None:
        """Mark the state kept for `tokens` as the most recently used (it was just restored)."""
        if tokens in self._states:
            self._states.move_to_end(tokens)

    def put(self, tokens: Sequence[int], state: S) -> bool:
        """Keep `state` for `tokens` as the most recently used; returns False when it alone exceeds the budget."""
        key = tuple(tokens)
        if not key or state.nbytes > self.budget:
            return False
        for old in [k for k in self._states if len(k) <= len(key) and key[: len(k)] == k]:
            self._drop(old)  # the same key, or a prefix of it: the new state serves those prompts as well
        self._states[key] = state
        self._bytes += state.nbytes
        while self._bytes > self.budget:
            self._drop(next(iter(self._states)))
        return True

    def clear(self) -> None:
        self._states.clear()
        self._bytes = 0

    def _drop(self, key: tuple[int, ...]) -> None:
        self._bytes -= self._states.pop(key).nbytes
