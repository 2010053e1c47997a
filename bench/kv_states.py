"""Issue #17, step 1: which way of keeping several KV states per loaded model wins, measured on the default model.

Candidates:
- A. llama-cpp-python's state cache (`Llama.save_state` / `load_state`, what `set_cache(LlamaRAMCache())` stores);
- B. per-sequence state copies (`llama_state_seq_get_data` / `set_data`: the KV cells of sequence 0 only);
- C. a pool of `Llama` contexts on the same mmapped file (only the KV memory and compute buffers are added).
Against the baseline: re-evaluating the prompt. Memory is anonymous RSS (the mmapped weights are shared page cache).

    .venv/bin/python -m bench.kv_states [--tokens 1000] [--threads 2]
"""

from __future__ import annotations

import argparse
import ctypes
import time
from collections.abc import Callable
from typing import Any

MB = 1024 * 1024


def rss_anon() -> int:
    """Anonymous resident memory of this process, in bytes (what loading a second context really adds)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    return 0


def best_of(repeats: int, action: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def prompt_tokens(llm: Any, count: int) -> list[int]:
    """An agent-like prompt (rules, tool list, history) of about `count` tokens."""
    lines = [
        f"Tool {i}: get_record_{i}(id: int, day: str) returns the record {i} of the account for that day."
        for i in range(400)
    ]
    text = "You are a careful assistant. Call one tool at a time.\n" + "\n".join(lines)
    return list(llm.tokenize(text.encode()))[:count]


def next_token(llm: Any) -> int:
    """The greedy next token from the last evaluated position (checks that a restored state is the same state)."""
    import numpy as np

    logits = np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),))
    return int(logits.argmax())


def evaluate(llm: Any, tokens: list[int]) -> None:
    llm.reset()
    llm.eval(tokens)


def measure_reeval(llm: Any, tokens: list[int], repeats: int) -> float:
    seconds = best_of(repeats, lambda: evaluate(llm, tokens))
    print(f"  re-evaluate {len(tokens)} tokens: {seconds * 1000:8.1f} ms ({len(tokens) / seconds:.0f} tok/s)")
    return seconds


def measure_full_state(llm: Any, tokens: list[int], expected: int, repeats: int) -> tuple[float, float, int]:
    """A: Llama.save_state / load_state, as LlamaRAMCache stores them."""
    evaluate(llm, tokens)
    state = llm.save_state()
    save_s = best_of(repeats, llm.save_state)
    llm.reset()
    llm.eval(tokens[:5])  # something else in the context
    load_s = best_of(repeats, lambda: llm.load_state(state))
    llm.n_tokens = len(tokens) - 1  # as a request would: keep all but the last token, evaluate that one
    llm.eval(tokens[-1:])
    same = next_token(llm) == expected
    counted = state.llama_state_size  # what LlamaRAMCache counts against its capacity
    hidden = state.scores.nbytes + state.input_ids.nbytes  # also kept, never counted
    print(
        f"  A. Llama.save_state: {counted / MB:6.1f} MB counted by LlamaRAMCache + {hidden / MB:6.1f} MB uncounted"
        f" (logit rows, token ids); save {save_s * 1000:6.1f} ms, restore {load_s * 1000:6.1f} ms;"
        f" same next token after restore: {same}"
    )
    return save_s, load_s, counted + hidden


def measure_seq_state(llm: Any, tokens: list[int], expected: int, repeats: int) -> tuple[float, float, int]:
    """B: the KV cells of sequence 0 only (no logits, no scores array)."""
    import llama_cpp

    ctx = llm._ctx.ctx
    evaluate(llm, tokens)
    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buffer = (ctypes.c_uint8 * size)()

    def save() -> bytes:
        written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
        return ctypes.string_at(buffer, written)

    saved = save()
    save_s = best_of(repeats, save)

    def restore() -> None:
        llm._ctx.kv_cache_seq_rm(0, -1, -1)
        data = (ctypes.c_uint8 * len(saved)).from_buffer_copy(saved)
        if llama_cpp.llama_state_seq_set_data(ctx, data, len(saved), 0) == 0:
            raise RuntimeError("llama_state_seq_set_data failed")

    llm.reset()
    llm.eval(tokens[:5])
    load_s = best_of(repeats, restore)
    llm.input_ids[: len(tokens)] = tokens
    llm.n_tokens = len(tokens) - 1
    llm.eval(tokens[-1:])
    same = next_token(llm) == expected
    print(
        f"  B. sequence state:   {len(saved) / MB:6.1f} MB ({len(saved) / len(tokens) / 1024:.1f} KiB/token);"
        f" save {save_s * 1000:6.1f} ms, restore {load_s * 1000:6.1f} ms; same next token after restore: {same}"
    )
    return save_s, load_s, len(saved)


def measure_pool(path: str, n_ctx: int, threads: int, tokens: list[int]) -> int:
    """C: one more Llama on the same file: load time and the anonymous memory it adds, before and after a prompt."""
    from llama_cpp import Llama

    before = rss_anon()
    started = time.perf_counter()
    other = Llama(model_path=path, n_ctx=n_ctx, n_threads=threads, verbose=False)
    load_s = time.perf_counter() - started
    loaded = rss_anon() - before
    other.eval(tokens)
    used = rss_anon() - before
    print(
        f"  C. one more context (n_ctx {n_ctx}): load {load_s * 1000:6.0f} ms, +{loaded / MB:6.1f} MB anonymous"
        f" when loaded, +{used / MB:6.1f} MB after a {len(tokens)}-token prompt; switching costs nothing"
    )
    del other
    return used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=1000)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import logging

    from llama_cpp import Llama

    from agentcore.models.registry import DEFAULT_MODEL, pull

    path = str(pull(DEFAULT_MODEL))
    base = rss_anon()
    llm = Llama(model_path=path, n_ctx=args.n_ctx, n_threads=args.threads, verbose=False)
    logging.getLogger("llama-cpp-python").setLevel(logging.CRITICAL)
    print(f"[kv] {DEFAULT_MODEL}, n_ctx {args.n_ctx}, {args.threads} threads; first context +"
          f"{(rss_anon() - base) / MB:.1f} MB anonymous")  # fmt: skip
    for size in sorted({args.tokens // 4, args.tokens}):
        tokens = prompt_tokens(llm, size)
        evaluate(llm, tokens)
        expected = next_token(llm)
        print(f" prompt of {len(tokens)} tokens:")
        reeval = measure_reeval(llm, tokens, args.repeats)
        a = measure_full_state(llm, tokens, expected, args.repeats)
        b = measure_seq_state(llm, tokens, expected, args.repeats)
        print(f"  restore vs re-evaluate: A {reeval / a[1]:.0f}x faster, B {reeval / b[1]:.0f}x faster")
    measure_pool(path, args.n_ctx, args.threads, prompt_tokens(llm, args.tokens))
    print(f"  (times: best of {args.repeats}; reproduce: .venv/bin/python -m bench.kv_states)")


if __name__ == "__main__":
    main()
