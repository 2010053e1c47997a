"""`agentcore memory ...` on real stores: readable and JSON output, feedback, forget, export and import, and
one-line errors for a missing or corrupt store."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from agentcore.agent import Agent
from agentcore.cli import main
from agentcore.memory import Memory, PrincipleBank
from agentcore.testing import ScriptedModel


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["memory", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def filled(tmp_path: Path) -> tuple[Path, str, str]:
    memory = Memory.open(tmp_path)
    assert memory.experience is not None
    principle = memory.experience.add("Use from_unit mi for miles, never m", usage=2, success=2)

    async def go() -> str:
        await memory.remember("The gizmo costs 7 dollars")
        return (await Agent(ScriptedModel(["15840"]), memory=memory).run("Convert 3 miles to feet")).run_id

    run_id = asyncio.run(go())
    return tmp_path, principle.id, run_id


def test_stats_list_show_search(filled: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    root, pid, run_id = filled
    code, out, _ = cli(capsys, "--dir", str(root), "--json", "stats")
    stats = json.loads(out)
    assert code == 0 and stats["facts"] == 2 and stats["principles"] == 1 and stats["unlabelled"] == 1
    _, out, _ = cli(capsys, "--dir", str(root), "list")
    assert f"{pid}  guiding    score 0.75 (2/2)  Use from_unit mi for miles, never m" in out
    _, out, _ = cli(capsys, "--dir", str(root), "list", "runs")
    assert f"{run_id}  unknown Convert 3 miles to feet" in out
    _, out, _ = cli(capsys, "--dir", str(root), "show", pid)
    assert "description: Use from_unit mi for miles, never m" in out
    _, out, _ = cli(capsys, "--dir", str(root), "--json", "search", "how much is a gizmo")
    found = json.loads(out)
    assert found["facts"][0]["text"] == "The gizmo costs 7 dollars"


def test_feedback_forget_and_errors(filled: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    root, pid, run_id = filled
    assert cli(capsys, "--dir", str(root), "feedback", run_id, "good")[0] == 0
    bank = PrincipleBank(root / "experience.db", create=False)
    t = bank.trajectory(run_id)
    assert t is not None and t.outcome is True
    code, _, err = cli(capsys, "--dir", str(root), "feedback", "nope", "bad")
    assert code == 1 and "no recorded run 'nope'" in err
    assert cli(capsys, "--dir", str(root), "forget", pid)[0] == 0
    assert bank.get(pid) is None
    code, _, err = cli(capsys, "--dir", str(root), "show", pid)
    assert code == 1 and err.startswith("agentcore: error: no principle, run or fact")


def test_export_then_import_into_a_new_directory(
    filled: tuple[Path, str, str], tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    root, pid, _ = filled
    dump = tmp_path_factory.mktemp("dump") / "memory.jsonl"
    assert cli(capsys, "--dir", str(root), "export", str(dump))[0] == 0
    entries = [json.loads(line) for line in dump.read_text().splitlines()]
    assert sorted(e["entry"] for e in entries) == ["fact", "fact", "principle", "run"]
    fresh = tmp_path_factory.mktemp("fresh")
    code, out, _ = cli(capsys, "--dir", str(fresh), "import", str(dump))
    assert code == 0 and out.strip() == "2 facts, 1 principles, 1 runs"
    bank = PrincipleBank(fresh / "experience.db", create=False)
    p = bank.get(pid)
    assert p is not None and (p.usage, p.success) == (2, 2)
    assert bank.search("convert miles to feet")[0].principle.id == pid  # re-embedded on import


def test_a_bad_import_file_names_the_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "bad.jsonl"
    dump.write_text('{"entry": "fact", "text": "ok"}\n{not json\n')
    code, _, err = cli(capsys, "--dir", str(tmp_path / "m"), "import", str(dump))
    assert code == 1 and f"{dump}, line 2: not JSON" in err
    assert not (tmp_path / "m" / "longterm.db").exists()


def test_missing_and_corrupt_stores_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "--dir", str(tmp_path / "none"), "stats")
    assert code == 1 and "no memory store in" in err and not (tmp_path / "none").exists()
    (tmp_path / "experience.db").write_bytes(b"garbage" * 500)
    code, _, err = cli(capsys, "--dir", str(tmp_path), "list")
    assert code == 1 and "experience.db" in err and "left untouched" in err
    assert (tmp_path / "experience.db").read_bytes() == b"garbage" * 500


def test_list_experiences_and_skills(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agentcore.memory import XSkill

    bank = PrincipleBank(tmp_path / "experience.db")
    xs = XSkill(bank)
    xs._insert("When a task says miles, use mi.", bank.vector("When a task says miles, use mi."))
    code, out, _ = cli(capsys, "--dir", str(tmp_path), "list", "experiences")
    assert code == 0 and out.strip() == "E1  When a task says miles, use mi."
    assert cli(capsys, "--dir", str(tmp_path), "list", "skills")[1].strip() == "(none)"


def test_teach_records_a_worked_example_and_a_bad_file_names_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = tmp_path / "example.json"
    calls = [{"tool": "unit_convert", "arguments": {"value": 8, "from_unit": "km", "to_unit": "mi"}, "result": 4.97}]
    example.write_text(json.dumps({"task": "Convert 8 km to miles.", "calls": calls, "answer": "4.97"}))
    code, out, _ = cli(capsys, "--dir", str(tmp_path / "mem"), "--json", "teach", str(example))
    run_id = json.loads(out)["run_id"]
    taught = PrincipleBank(tmp_path / "mem" / "experience.db", create=False).trajectory(run_id)
    assert code == 0 and taught is not None and taught.outcome is True and taught.source == "taught"
    assert taught.steps == ('unit_convert({"from_unit": "km", "to_unit": "mi", "value": 8}) -> 4.97',)
    example.write_text(json.dumps({"task": "Convert 8 km to miles.", "calls": [{"tool": "x"}], "answer": "1"}))
    code, _, err = cli(capsys, "--dir", str(tmp_path / "mem"), "teach", str(example))
    assert code == 1 and "calls[0] needs tool (text), arguments (object) and result" in err
