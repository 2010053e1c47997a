"""Save and restore the KV state of a `llama_cpp.Llama` context: the cells of its one sequence, nothing else.

Measured on the default model (bench/kv_states.py, docs/kv-cache.md): a sequence state is 12 KiB per token and
restores in milliseconds (2 ms for 200 tokens, 31 ms for 800 on a busy machine), against 29-93 s to re-evaluate
them there. `Llama.save_state` (what `LlamaRAMCache` keeps) also copies up to n_batch rows of logits (297 MB for
Qwen's 151,936-token vocabulary, uncounted by the cache's capacity) and restores up to 10x slower; a second
`Llama` context adds its whole n_ctx of KV and its compute buffers (+177 MB) whether used or not.

Logits are not saved: a request always evaluates at least its last prompt token after a restore, which refreshes
them before sampling.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any


@dataclass
class KVStats:
    """What keeping several states cost so far: saves and restores, and their seconds (for benchmarks)."""

    saves: int = 0
    save_seconds: float = 0.0
    restores: int = 0
    restore_seconds: float = 0.0


@dataclass(frozen=True)
class SeqState:
    """The KV cells of sequence 0, as llama.cpp serialises them."""

    data: Any  # a ctypes uint8 array, kept as is: no second copy into bytes

    @property
    def nbytes(self) -> int:
        return len(self.data)


def held_tokens(llm: Any) -> list[int]:
    """The tokens whose KV entries the context holds now."""
    return [int(t) for t in llm.input_ids[: llm.n_tokens]]


def save(llm: Any) -> SeqState | None:
    """A copy of the context's KV state (None when it holds nothing or llama.cpp could not write it)."""
    import llama_cpp

    if llm.n_tokens == 0:
        return None
    ctx = llm._ctx.ctx
    size = int(llama_cpp.llama_state_seq_get_size(ctx, 0))
    data = (ctypes.c_uint8 * size)()
    written = int(llama_cpp.llama_state_seq_get_data(ctx, data, size, 0))
    if written == 0 or written > size:
        return None
    if written < size:  # llama.cpp sizes generously; keep only what it wrote
        trimmed = (ctypes.c_uint8 * written)()
        ctypes.memmove(trimmed, data, written)
        data = trimmed
    return SeqState(data)


def restore(llm: Any, tokens: tuple[int, ...], state: SeqState) -> bool:
    """Put `state` (the KV of `tokens`) into the context; on failure the context is left empty and False returned."""
    import llama_cpp

    llm._ctx.kv_cache_seq_rm(-1, -1, -1)
    if int(llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, state.data, state.nbytes, 0)) == 0:
        llm.n_tokens = 0
        return False
    llm.input_ids[: len(tokens)] = tokens
    llm.n_tokens = len(tokens)
    llm._requires_eval = True  # no logits for the last position: sample only after evaluating a token
    return True
