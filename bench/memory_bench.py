"""Memory numbers: retrieval latency with 10,000 principles stored, store footprint, long-term recall latency.

    python -m bench.memory_bench [--principles 10000] [--queries 200]

Principles get random unit vectors (retrieval cost does not depend on what the vectors mean) and realistic
one-sentence descriptions; queries are embedded for real with MiniLM, timed apart from the ranking itself.
Prints p50/p99 of: the ranking over the bank (matrix product, score, top k), query embedding, and both together
(what a run pays before its first turn). Target from the issue: p99 under 20 ms for retrieval.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

WORDS = [
    "convert",
    "miles",
    "unit",
    "price",
    "lookup",
    "answer",
    "result",
    "tool",
    "calculator",
    "direct",
    "question",
    "check",
    "number",
    "table",
]


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def fill(bank: object, n: int, dim: int = 384) -> float:
    import numpy as np

    from agentcore.memory.principles import Principle, new_id

    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    words = random.Random(0)
    started = time.perf_counter()

    def write(conn: object) -> None:
        for i in range(n):
            text = " ".join(words.choice(WORDS) for _ in range(12)).capitalize() + "."
            p = Principle(new_id(), "guiding" if i % 3 else "cautionary", text, usage=i % 7, success=i % 5 % 3)
            bank.insert(conn, p, vectors[i].tobytes())  # type: ignore[attr-defined]

    bank.db.write(write)  # type: ignore[attr-defined]
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_bench")
    parser.add_argument("--principles", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    import numpy as np

    from agentcore.memory import PrincipleBank, SQLiteStore
    from agentcore.memory.embeddings import default_embedder

    root = Path(tempfile.mkdtemp(prefix="agentcore-membench-"))
    bank = PrincipleBank(root / "experience.db")
    fill_s = fill(bank, args.principles)
    embedder = default_embedder()
    embedder.embed(["warm up"])
    queries = [f"Convert {i} km to miles and give the total price" for i in range(args.queries)]
    rank, embed, both = [], [], []
    bank.search_vector(np.zeros(384, dtype=np.float32), 3)  # builds the matrix cache once
    for query in queries:
        t0 = time.perf_counter()
        vector = np.asarray(embedder.embed([query])[0], dtype=np.float32)
        t1 = time.perf_counter()
        bank.search_vector(vector, 3)
        t2 = time.perf_counter()
        embed.append(t1 - t0)
        rank.append(t2 - t1)
        both.append(t2 - t0)
    bank.close()
    wal = Path(f"{root / 'experience.db'}-wal")
    size = (root / "experience.db").stat().st_size + (wal.stat().st_size if wal.exists() else 0)

    store = SQLiteStore(root / "longterm.db")

    async def facts() -> list[float]:
        for i in range(2000):
            await store.add(f"Note {i}: the {random.choice(WORDS)} of item {i} is {i * 3}")
        times = []
        for i in range(args.queries):
            t0 = time.perf_counter()
            await store.search(f"what is the price of item {i}?", 3)
            times.append(time.perf_counter() - t0)
        return times

    recall = asyncio.run(facts())
    store.close()
    shutil.rmtree(root, ignore_errors=True)
    print("command: python -m bench.memory_bench " + " ".join(f"--{k} {v}" for k, v in vars(args).items()))
    print(f"principles stored: {args.principles} (one transaction, {fill_s:.2f}s)")
    print(f"experience store footprint: {size / 1e6:.1f} MB ({size / args.principles:.0f} bytes per principle)")
    print("| what | p50 ms | p99 ms | mean ms |\n|---|---|---|---|")
    rows = [
        ("rank (top 3 of all, cosine + score)", rank),
        ("embed query (MiniLM int8)", embed),
        ("retrieval = embed + rank", both),
        ("long-term recall (FTS5, 2,000 facts)", recall),
    ]
    for label, samples in rows:
        mean = statistics.mean(samples) * 1000
        print(f"| {label} | {pct(samples, 0.5):.2f} | {pct(samples, 0.99):.2f} | {mean:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
