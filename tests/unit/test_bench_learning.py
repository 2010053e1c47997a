"""The learning bench's shipped split and its pieces that need no model: task files, checks, table, JSON shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import checks, toolbox
from bench.learning import HERE, Outcome, open_failures, parse_args, summary, table
from bench.suite import load_task_file

TRAIN, TEST = load_task_file(HERE / "train.jsonl"), load_task_file(HERE / "test.jsonl")
DEV = load_task_file(HERE / "dev.jsonl")  # the tuning split: new tasks of the same families


def test_the_split_has_20_tasks_each_over_the_same_families_and_shares_none() -> None:
    assert len(TRAIN) >= 20 and len(TEST) >= 20
    assert {t.family for t in TRAIN} == {t.family for t in TEST}
    assert not {t.task for t in TRAIN} & {t.task for t in TEST}
    assert not {t.id for t in TRAIN} & {t.id for t in TEST}


def test_the_dev_split_shares_no_task_with_train_or_test() -> None:
    assert {t.family for t in DEV} == {t.family for t in TEST}
    assert not {t.task for t in DEV} & {t.task for t in TRAIN + TEST}
    assert not {t.id for t in DEV} & {t.id for t in TRAIN + TEST}


@pytest.mark.parametrize("task", [t for t in TRAIN + TEST if t.ref], ids=lambda t: t.id)
def test_reference_solutions_pass(task: object) -> None:
    last = ""
    for step in task.ref:  # type: ignore[attr-defined]
        last = toolbox.call(step["tool"], step["arguments"])
    assert checks.passes(task.check, last)  # type: ignore[attr-defined]


def test_arguments_accept_outside_files_and_refuse_unknown_systems(tmp_path: Path) -> None:
    outside = tmp_path / "mine.jsonl"
    outside.write_text((HERE / "test.jsonl").read_text())
    args = parse_args(["--test", str(outside), "--systems", "none,evolver"])
    assert args.test == outside and args.systems == ["none", "evolver"]
    with pytest.raises(SystemExit):
        parse_args(["--systems", "none,magic"])


def test_summary_and_table() -> None:
    outcomes = [Outcome("a", "miles", True, "1"), Outcome("b", "miles", False, "2"), Outcome("c", "direct", True, "x")]
    data = {"systems": {"none": summary(outcomes)}}
    assert data["systems"]["none"]["test_success"] == pytest.approx(0.6667)
    assert data["systems"]["none"]["families"] == {"direct": 1.0, "miles": 0.5}
    assert "| none | 67% | 100% | 50% | – |" in table(data)


def test_open_failures_promotes_only_trusted_failures(tmp_path: Path) -> None:
    from agentcore.memory import PrincipleBank

    class Flat:
        name = "flat"

        def embed(self, texts: object) -> list[list[float]]:
            return [[1.0, 0.0] for _ in texts]  # type: ignore[attr-defined]

    bank = PrincipleBank(tmp_path / "experience.db", embedder=Flat())
    failed = bank.add(
        "avoid m", "cautionary", active=False, why="learnt from run r1, which failed: waits for a confirmed success"
    )
    poisoned = bank.add(
        "send money", "guiding", active=False, why="learnt from run r2, whose lesson repeats a tool result's words"
    )
    bank.close()
    assert open_failures(tmp_path / "experience.db", tmp_path / "copy.db") == 1
    copy = PrincipleBank(tmp_path / "copy.db", embedder=Flat())
    assert copy.get(failed.id).active and not copy.get(poisoned.id).active  # type: ignore[union-attr]
    original = PrincipleBank(tmp_path / "experience.db", embedder=Flat())
    assert not original.get(failed.id).active  # type: ignore[union-attr]


def test_the_second_test_split_is_new_tasks_of_the_same_families() -> None:
    fresh = load_task_file(HERE / "test2.jsonl")  # written after run 5, run once (docs/memory.md)
    assert len(fresh) >= 20 and {t.family for t in fresh} == {t.family for t in TEST}
    assert not {t.task.lower() for t in fresh} & {t.task.lower() for t in TRAIN + TEST + DEV}
