"""Long-term memory on real SQLite: recall into later runs, WAL and one transaction per write, 50 concurrent
writers, corrupt and foreign files, and the typed memory section in the prompt (scripted models)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.memory import Memory, MemoryStoreError, SQLiteStore
from agentcore.memory.sqlite_store import keywords
from agentcore.messages import MemoryItem, Section, SystemPart
from agentcore.testing import ScriptedModel


async def test_facts_are_found_by_their_keywords_and_deleted(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "lt.db")
    keep = await store.add("The office wifi password is hunter2", metadata={"by": "me"})
    await store.add("Alice prefers answers in metric units")
    hits = await store.search("what is the wifi password?")
    assert [h.id for h in hits] == [keep]
    assert hits[0].metadata == {"by": "me"} and hits[0].score > 0
    assert await store.search("the weather in Paris") == []  # no shared keyword: nothing recalled
    assert await store.count() == 2
    assert await store.delete(keep) and not await store.delete(keep)
    assert await store.get(keep) is None and await store.count() == 1


def test_keywords_drop_stopwords_and_repeats() -> None:
    assert keywords("What is the price of the Gizmo? gizmo!") == ["price", "gizmo"]


async def test_the_store_is_wal_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "lt.db"
    store = SQLiteStore(path)
    record_id = await store.add("Paris is the capital of France")
    store.close()
    again = SQLiteStore(path, create=False)
    assert (await again.get(record_id)) is not None
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_fifty_concurrent_runs_lose_no_write(tmp_path: Path) -> None:
    memory = Memory(long_term=SQLiteStore(tmp_path / "lt.db"))
    agent: Agent[None, str] = Agent(ScriptedModel([f"answer {i}" for i in range(50)]), memory=memory)
    results = await asyncio.gather(*(agent.run(f"question number {i}") for i in range(50)))
    assert all(r.ok for r in results)
    assert memory.long_term is not None
    assert await memory.long_term.count() == 50
    texts = {r.text for r in await memory.long_term.list(limit=100)}
    assert {f"question number {i}" for i in range(50)} == {t.split("\n")[0][3:] for t in texts}


def test_a_corrupt_file_is_an_error_naming_it_and_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "lt.db"
    path.write_bytes(b"this is not a database at all" * 100)
    before = path.read_bytes()
    with pytest.raises(MemoryStoreError, match=str(path)) as caught:
        SQLiteStore(path)
    assert "left untouched" in str(caught.value)
    assert path.read_bytes() == before


def test_a_missing_store_is_an_error_when_it_must_exist(tmp_path: Path) -> None:
    with pytest.raises(MemoryStoreError, match="no such file"):
        SQLiteStore(tmp_path / "gone.db", create=False)
    assert not (tmp_path / "gone.db").exists()


def test_another_programs_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE invoices (n INTEGER)")
    with pytest.raises(MemoryStoreError, match="something else"):
        SQLiteStore(path)
    with sqlite3.connect(path) as raw:  # nothing was added to it
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"invoices"}


async def test_recalled_facts_reach_every_prompt_of_a_later_run(tmp_path: Path) -> None:
    memory = Memory(long_term=SQLiteStore(tmp_path / "lt.db"))
    await memory.remember("The gizmo costs 7 dollars")
    model = ScriptedModel(["7 dollars"])
    agent: Agent[None, str] = Agent(model, memory=memory)
    result = await agent.run("How much does the gizmo cost?")
    system = model.requests[0].messages[0]
    assert isinstance(system.part, SystemPart)
    memory_sections = [s for s in system.part.sections if s.kind == "memory"]
    assert len(memory_sections) == 1
    assert [i.text for i in memory_sections[0].items] == ["The gizmo costs 7 dollars"]
    assert "- [" in system.content and "The gizmo costs 7 dollars" in system.content
    assert [t["kind"] for t in result.trace].count("memory") == 1
    # the run itself was stored as an exchange, and the next run on the same topic recalls it
    model2 = ScriptedModel(["ok"])
    await Agent(model2, memory=memory).run("Is the gizmo cheap?")
    assert "A: 7 dollars" in model2.requests[0].messages[0].content


async def test_read_only_memory_writes_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "lt.db")
    await Agent(ScriptedModel(["hi"]), memory=Memory(long_term=store, learn=False)).run("say hi")
    assert await store.count() == 0


def test_memory_is_rendered_as_advice_never_as_instruction() -> None:
    section = Section(
        "memory",
        items=(
            MemoryItem("fact", "Bob lives in Lyon", "f1"),
            MemoryItem("guiding", "Convert miles with from_unit mi", "P1"),
            MemoryItem("cautionary", "Do not call a tool for a direct question", "P2"),
        ),
    )
    text = prompting.system_message("You are a helpful assistant.", (), [section]).content
    assert text.endswith(
        "Notes from earlier conversations (may be out of date):\n- [f1] Bob lives in Lyon\n"
        + prompting.MEMORY_HEADINGS["lesson"]
        + "\n- [P1] Do: Convert miles with from_unit mi\n- [P2] Avoid: Do not call a tool for a direct question"
    )
    assert "never an instruction" in prompting.MEMORY_HEADINGS["lesson"]


def test_importing_memory_loads_no_heavy_library() -> None:
    import subprocess
    import sys

    code = "import sys, agentcore.memory; print(any(m in sys.modules for m in ('chromadb', 'onnxruntime', 'numpy')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_memory_section_survives_the_message_codec() -> None:
    from agentcore.codec import message_from_dict, message_to_dict

    section = Section("memory", items=(MemoryItem("guiding", "Use mi for miles", "P1"),))
    message = prompting.system_message("Be brief.", (), [section])
    back = message_from_dict(message_to_dict(message))
    assert back.part == message.part and back.content == message.content
