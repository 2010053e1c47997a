"""The vector store on real chromadb with the real offline MiniLM embedder: a PersistentClient on disk, and an
HttpClient against a real `chroma run` server on loopback that this test starts. chromadb's default embedding
function is made to fail if anything calls it."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from agentcore.agent import Agent
from agentcore.memory import ChromaStore, Memory, MemoryStoreError, MiniLMEmbedder
from agentcore.memory.embeddings import default_embedder
from agentcore.testing import ScriptedModel


@pytest.fixture(autouse=True)
def no_default_embedding_function(monkeypatch: pytest.MonkeyPatch) -> None:
    from chromadb.utils.embedding_functions import onnx_mini_lm_l6_v2

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("chromadb's default embedding function (which downloads a model) was used")

    monkeypatch.setattr(onnx_mini_lm_l6_v2.ONNXMiniLM_L6_V2, "__call__", refuse)
    monkeypatch.setattr(onnx_mini_lm_l6_v2.ONNXMiniLM_L6_V2, "_download_model_if_not_exists", refuse)


def test_minilm_embeddings_are_unit_vectors_that_know_paraphrases() -> None:
    import numpy as np

    vectors = np.array(
        default_embedder().embed(["convert 10 miles to kilometres", "how many km is ten miles", "Paris is in France"])
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    similar, unrelated = float(vectors[0] @ vectors[1]), float(vectors[0] @ vectors[2])
    assert similar > 0.7 and unrelated < 0.3


async def check_store(store: ChromaStore) -> None:
    fact = await store.add("The gizmo costs 7 dollars", metadata={"source": "catalogue"})
    await store.add("Alice's birthday is on 3 March")
    hits = await store.search("what is the price of a gizmo?", k=2)
    assert hits[0].id == fact and hits[0].metadata == {"source": "catalogue"}
    assert hits[0].score > 0.4
    assert all(h.id != fact for h in await store.search("when was Alice born?", k=1))
    assert await store.count() == 2
    assert (await store.get(fact)) is not None
    assert await store.delete(fact) and not await store.delete(fact)
    assert await store.count() == 1


async def test_persistent_store_survives_a_new_client(tmp_path: Path) -> None:
    await check_store(ChromaStore(tmp_path / "chroma"))
    again = ChromaStore(tmp_path / "chroma")
    assert [r.text for r in await again.list()] == ["Alice's birthday is on 3 March"]


async def test_an_agent_recalls_from_the_vector_store_by_meaning(tmp_path: Path) -> None:
    memory = Memory.open(tmp_path, long_term=False, vectors=True, experience=False)
    await memory.remember("The office wifi password is hunter2")
    model = ScriptedModel(["hunter2"])
    await Agent(model, memory=memory).run("How do I get on the internet at work?")  # no shared keyword
    assert "hunter2" in model.requests[0].messages[0].content


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    chroma = Path(sys.executable).with_name("chroma")
    log = (tmp_path / "chroma.log").open("w")
    server = subprocess.Popen(
        [str(chroma), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"chroma run did not start: {(tmp_path / 'chroma.log').read_text()[-2000:]}")
            time.sleep(0.3)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


async def test_http_client_against_a_real_chroma_server(chroma_server: int) -> None:
    store = ChromaStore(host="127.0.0.1", port=chroma_server, embedder=MiniLMEmbedder())
    await check_store(store)
    memory = Memory.open("/nonexistent-unused", long_term=False, experience=False, vectors=True,
                         chroma_host="127.0.0.1", chroma_port=chroma_server)  # fmt: skip
    assert memory.vectors is not None and await memory.vectors.count() == 1  # the same server-side collection


async def test_many_concurrent_adds_to_the_server_are_all_kept(chroma_server: int) -> None:
    store = ChromaStore(host="127.0.0.1", port=chroma_server, collection="busy")
    await asyncio.gather(*(store.add(f"note number {i}") for i in range(20)))
    assert await store.count() == 20


async def test_an_unreachable_server_is_a_clear_error() -> None:
    store = ChromaStore(host="127.0.0.1", port=free_port())
    with pytest.raises(MemoryStoreError, match=r"http://127\.0\.0\.1:\d+: chromadb could not open it"):
        await store.count()
