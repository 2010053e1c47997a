"""Several KV states per model (issue #17): the choice of state per request, LRU and the memory budget.

Pure Python: `KVStore` alone, then `LlamaCppModel._resume` over a stand-in context whose saved states are token
lists (the real save/restore through llama.cpp is tested in tests/integration/test_kv_states_real.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agentcore.errors import UserError
from agentcore.models import kvstate
from agentcore.models.kvstore import KVStore, common_prefix
from agentcore.models.llamacpp import MIN_RESTORE_GAIN, LlamaCppModel


@dataclass(frozen=True)
class Blob:
    nbytes: int
    label: str = ""


def test_common_prefix_counts_leading_equal_tokens() -> None:
    assert common_prefix([1, 2, 3], [1, 2, 4, 5]) == 2
    assert common_prefix([1, 2], [1, 2, 3]) == 2
    assert common_prefix([], [1]) == 0
    assert common_prefix([9], [1]) == 0


def test_best_is_the_state_with_the_longest_common_prefix() -> None:
    store: KVStore[Blob] = KVStore(1000)
    store.put([1, 2, 3, 4], Blob(10, "a"))
    store.put([1, 2, 9, 9, 9, 9], Blob(10, "b"))
    store.put([7, 7], Blob(10, "c"))
    match = store.best([1, 2, 3, 4, 5, 6])
    assert match is not None and match.state.label == "a" and match.prefix == 4
    match = store.best([1, 2, 9, 9, 1])
    assert match is not None and match.state.label == "b" and match.prefix == 4
    assert store.best([5, 5]) is None  # nothing shares even one token


def test_a_tie_goes_to_the_most_recently_used() -> None:
    store: KVStore[Blob] = KVStore(1000)
    store.put([1, 2, 3], Blob(10, "old"))
    store.put([1, 2, 4], Blob(10, "new"))
    match = store.best([1, 2, 5])
    assert match is not None and match.state.label == "new"
    store.touch((1, 2, 3))
    match = store.best([1, 2, 5])
    assert match is not None and match.state.label == "old"


def test_a_state_that_extends_another_replaces_it() -> None:
    store: KVStore[Blob] = KVStore(1000)
    store.put([1, 2], Blob(10, "short"))
    store.put([1, 2, 3], Blob(30, "long"))
    assert store.saved_tokens() == [(1, 2, 3)] and store.nbytes == 30
    store.put([1, 2, 3], Blob(40, "again"))  # the same key: replaced, bytes counted once
    assert len(store) == 1 and store.nbytes == 40
    store.put([1, 2, 7], Blob(10, "branch"))  # a branch is not a prefix: both stay
    assert len(store) == 2


def test_the_least_recently_used_states_go_first_when_over_budget() -> None:
    store: KVStore[Blob] = KVStore(100)
    store.put([1], Blob(40, "a"))
    store.put([2], Blob(40, "b"))
    store.touch((1,))  # a was just restored: b is now the least recently used
    store.put([3], Blob(40, "c"))
    assert store.saved_tokens() == [(1,), (3,)] and store.nbytes == 80 <= store.budget


def test_a_state_larger_than_the_budget_is_not_kept_and_evicts_nothing() -> None:
    store: KVStore[Blob] = KVStore(100)
    store.put([1], Blob(60))
    assert not store.put([2], Blob(101))
    assert store.saved_tokens() == [(1,)]
    off: KVStore[Blob] = KVStore(0)
    assert not off.put([1], Blob(1)) and len(off) == 0
    with pytest.raises(ValueError, match="budget"):
        KVStore(-1)


# -- LlamaCppModel._resume over a stand-in context ------------------------------------------------------------


class FakeContext:
    """Holds tokens as its 'KV state', with Llama's bookkeeping (input_ids, n_tokens)."""

    def __init__(self) -> None:
        self.input_ids = np.zeros(4096, dtype=np.intc)
        self.n_tokens = 0
        self.restores = 0

    @property
    def _input_ids(self) -> Any:
        return self.input_ids[: self.n_tokens]

    def hold(self, tokens: list[int]) -> None:  # what a finished request leaves in the context
        self.input_ids[: len(tokens)] = tokens
        self.n_tokens = len(tokens)


@dataclass(frozen=True)
class FakeState:
    tokens: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return 12 * 1024 * len(self.tokens)  # 12 KiB a token, as measured on the default model


@pytest.fixture
def model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LlamaCppModel:
    def save(llm: FakeContext) -> FakeState | None:
        return FakeState(tuple(kvstate.held_tokens(llm))) if llm.n_tokens else None

    def restore(llm: FakeContext, tokens: tuple[int, ...], state: FakeState) -> bool:
        assert state.tokens == tokens
        llm.hold(list(tokens))
        llm.restores += 1
        return True

    monkeypatch.setattr(kvstate, "save", save)
    monkeypatch.setattr(kvstate, "restore", restore)
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    return LlamaCppModel(tmp_path / "m.gguf", kv_cache_bytes=64 * 12 * 1024 * 8)


SYSTEM = list(range(1, 41))  # a shared system prompt of 40 tokens


def conversation(tag: int, turns: int) -> list[int]:
    return SYSTEM + [1000 * tag + i for i in range(50 * turns)]


def serve(model: LlamaCppModel, llm: FakeContext, prompt: list[int]) -> int:
    cached = model._resume(llm, prompt)
    llm.hold([*prompt, 7777])  # evaluated the prompt and one generated token
    return cached


def test_alternating_conversations_each_resume_from_their_own_prefix(model: LlamaCppModel) -> None:
    llm = FakeContext()
    a1, b1 = conversation(1, 1), conversation(2, 1)
    assert serve(model, llm, a1) == 0
    assert serve(model, llm, b1) == len(SYSTEM)  # only the shared system prompt is live; a1 is saved
    a2, b2 = conversation(1, 2), conversation(2, 2)
    assert serve(model, llm, a2) == len(a1)  # restored a1, which a2 extends
    assert serve(model, llm, b2) == len(b1)
    assert llm.restores == 2
    assert model.kv_states.nbytes <= model.kv_states.budget


def test_a_continuing_conversation_neither_saves_nor_restores(model: LlamaCppModel) -> None:
    llm = FakeContext()
    for turns in range(1, 5):
        serve(model, llm, conversation(1, turns))
    assert llm.restores == 0 and len(model.kv_states) == 0


def test_a_saved_state_barely_longer_than_the_live_prefix_is_not_restored(model: LlamaCppModel) -> None:
    llm = FakeContext()
    saved = SYSTEM + [5] * (MIN_RESTORE_GAIN - 1)
    serve(model, llm, saved + [9] * 40)
    serve(model, llm, SYSTEM + [6] * 40)  # overwrites it: saved
    assert len(model.kv_states) == 1
    assert serve(model, llm, [*saved, 8]) == len(SYSTEM)  # gain of 15 tokens: the live state is kept
    assert llm.restores == 0


def test_with_no_budget_the_model_keeps_only_the_live_state(tmp_path: Path) -> None:
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    model = LlamaCppModel(tmp_path / "m.gguf", kv_cache_bytes=0)
    llm = FakeContext()
    serve(model, llm, conversation(1, 1))
    serve(model, llm, conversation(2, 1))
    assert serve(model, llm, conversation(1, 2)) == len(SYSTEM)  # the behaviour before issue #17
    assert len(model.kv_states) == 0


def test_a_negative_budget_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    with pytest.raises(UserError, match="kv_cache_bytes must be >= 0"):
        LlamaCppModel(tmp_path / "m.gguf", kv_cache_bytes=-1)


def test_a_negative_prompt_lookup_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    with pytest.raises(UserError, match="prompt_lookup must be >= 0"):
        LlamaCppModel(tmp_path / "m.gguf", prompt_lookup=-1)
