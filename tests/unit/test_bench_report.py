"""bench/report.py: the matched-task ratios that separate extra work from slower work."""

from __future__ import annotations

from bench.report import SystemRun, paired_table
from bench.systems.common import TaskResult


def result(task: str, family: str, wall: float, calls: int, ok: bool) -> TaskResult:
    return TaskResult(task, family, "completed", "x", wall, wall, wall, 0.0, calls, 10, 0, 5, ok=ok)


def run(name: str, *results: TaskResult) -> SystemRun:
    return SystemRun(name, list(results), {}, None, 0.0, 0.0)


def test_paired_ratios_compare_only_matched_tasks() -> None:
    agentcore = run(
        "agentcore",
        result("c1", "chain", 9.0, 3, True),  # a second step the other system skips
        result("s1", "single", 4.0, 2, True),
        result("s2", "single", 2.0, 2, False),
    )
    raw = run(
        "raw",
        result("c1", "chain", 3.0, 2, False),
        result("s1", "single", 2.0, 2, True),
        result("s2", "single", 1.0, 2, False),
    )
    row = paired_table([agentcore, raw], ["chain", "single"]).splitlines()[-1]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells == ["raw", "0.33×", "0.50×", "2, 0.50×", "1, 0.50×"]


def test_without_the_baseline_there_are_no_ratios() -> None:
    assert "no agentcore run" in paired_table([run("raw")], ["single"])
