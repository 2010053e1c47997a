"""The benchmark's toolbox, checks, task files and report: everything but the model runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentcore import Agent
from agentcore.context import RunContext
from agentcore.errors import ModelRetry
from agentcore.testing import ScriptedModel, call
from bench import checks, report, toolbox
from bench.suite import FAMILIES, TaskFileError, load_task_file, load_tasks, parse_task, quick_select
from bench.systems.common import TaskResult

CTX: RunContext[None] = RunContext(deps=None, run_id="t", task="t")


# --- toolbox ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (15, "km", "mi", 9.320568),
        (3, "mi", "ft", 15840),
        (1, "ft", "m", 0.3048),
        (20, "kg", "lb", 44.092452),
        (1, "lb", "g", 453.59237),
        (3, "gal", "l", 11.356235),
        (100, "F", "C", 37.777778),
        (0, "C", "K", 273.15),
        (-40, "C", "F", -40),
        (300, "K", "F", 80.33),
    ],
)
def test_unit_convert(value: float, source: str, target: str, expected: float) -> None:
    assert float(toolbox.unit_convert(value, source, target)) == pytest.approx(expected, rel=1e-6)  # type: ignore[arg-type]


@pytest.mark.parametrize(("source", "target"), [("km", "kg"), ("C", "m"), ("l", "F")])
def test_unit_convert_refuses_mixed_dimensions(source: str, target: str) -> None:
    with pytest.raises(ValueError, match="cannot convert"):
        toolbox.unit_convert(1, source, target)  # type: ignore[arg-type]


def test_date_diff_counts_days_either_way_and_explains_bad_dates() -> None:
    assert toolbox.date_diff("2024-01-15", "2024-03-01") == "46"  # leap year
    assert toolbox.date_diff("2024-03-01", "2024-01-15") == "46"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        toolbox.date_diff("March 1", "2024-01-15")


def test_lookup_is_forgiving_about_case_plurals_and_says_what_keys_exist() -> None:
    assert toolbox.lookup("capitals", "New Zealand") == "Wellington"
    assert toolbox.lookup("elements", "Gold") == "Au"
    assert toolbox.lookup("prices", "laptops") == "899"
    assert toolbox.lookup("prices", "desk lamp") == "32.4"
    with pytest.raises(ValueError, match=r"keys: .*laptop"):
        toolbox.lookup("prices", "spaceship")
    with pytest.raises(ValueError, match="no table"):
        toolbox.lookup("planets", "mars")  # type: ignore[arg-type]


def test_text_tools_and_the_reused_calculator() -> None:
    assert toolbox.word_count("  small models need\ngood tools ") == "5"
    assert toolbox.reverse_string("benchmark") == "kramhcneb"
    assert toolbox.calculator("(1234 + 5678) / 3") == "2304"
    with pytest.raises(ValueError, match="unknown name"):
        toolbox.calculator("laptop_price * 3")


async def test_agent_tools_have_short_specs_and_validate_units() -> None:
    tools = {tool.name: tool for tool in toolbox.agent_tools(list(toolbox.TOOL_NAMES))}
    assert list(tools) == list(toolbox.TOOL_NAMES)
    for tool in tools.values():
        assert 10 < len(tool.description) < 200, tool.name  # a 0.5B model reads these
    units = tools["unit_convert"].parameters["properties"]["from_unit"]["enum"]
    assert {"km", "mi", "m", "ft", "kg", "lb", "l", "gal", "C", "F", "K"} <= set(units)
    assert await tools["unit_convert"].call({"value": 10, "from_unit": "mi", "to_unit": "km"}, CTX) == "16.09344"
    with pytest.raises(ModelRetry):
        await tools["unit_convert"].call({"value": 10, "from_unit": "miles", "to_unit": "km"}, CTX)
    with pytest.raises(ValueError, match="unknown tool"):
        toolbox.agent_tools(["calculator", "teleport"])


async def test_an_agent_runs_a_chain_over_the_toolbox() -> None:
    model = ScriptedModel(
        [call("lookup", table="prices", key="laptop"), call("calculator", expression="899 * 3"), "2697"]
    )
    agent: Agent[None, str] = Agent(model, tools=toolbox.agent_tools(["lookup", "calculator"]))
    result = await agent.run("What do 3 laptops cost?")
    assert [step.result for step in result.steps if step.call] == ["899", "2697"]
    assert checks.passes({"kind": "number", "value": 2697}, result.output)
    model.assert_complete()


# --- checks -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "expected", "ok"),
    [
        ("391", 391, True),
        ("17 * 23 = 391", 391, True),
        ("391 is the product of 17 and 23", 391, True),
        ("The total is $8,130,896.", 8130896, True),
        ("about 8.05 km", 8.04672, True),  # within 1% relative
        ("8.5 km", 8.04672, False),
        ("Between 17 and 500, the answer is 391 for sure: 17", 391, False),  # only first or last counts
        ("2024-03-01", 2024, True),
        ("-40 degrees", -40, True),
        ("no number here", 1, False),
        ("0.001", 0, True),  # absolute floor near zero
    ],
)
def test_number_check(output: str, expected: float, ok: bool) -> None:
    assert checks.passes({"kind": "number", "value": expected}, output) is ok


def test_number_check_tolerance_can_be_set() -> None:
    assert not checks.passes({"kind": "number", "value": 100, "tol": 1e-4}, "100.1")
    assert checks.passes({"kind": "number", "value": 100, "tol": 0.01}, "100.1")


def test_text_checks() -> None:
    assert checks.passes({"kind": "contains", "value": "paris"}, "The capital is Paris.")
    assert checks.passes({"kind": "contains", "value": ["tokyo", "oykot"]}, "Tokyo reversed is oykoT")
    assert not checks.passes({"kind": "contains", "value": ["tokyo", "kyoto"]}, "Tokyo")
    assert checks.passes({"kind": "exact", "value": "olleh"}, ' "olleh"\n')
    assert not checks.passes({"kind": "exact", "value": "olleh"}, "Olleh")
    assert checks.passes({"kind": "regex", "value": r"\bNa\b"}, "The symbol is Na.")
    assert not checks.passes({"kind": "regex", "value": r"\bNa\b"}, "The symbol is NaCl")
    assert not checks.passes({"kind": "contains", "value": "x"}, None)


@pytest.mark.parametrize(
    "check",
    [
        {"kind": "number", "value": "7"},
        {"kind": "fuzzy", "value": "x"},
        {"kind": "regex", "value": "(unclosed"},
        {"kind": "contains", "value": []},
        {"kind": "number", "value": 1, "tol": -1},
        {"value": 3},
    ],
)
def test_malformed_checks_are_explained(check: dict[str, Any]) -> None:
    assert checks.validate(check)


# --- task files ---------------------------------------------------------------------------------------------


def test_the_shipped_suite_has_four_families_of_at_least_ten() -> None:
    tasks = load_tasks()
    assert len(tasks) >= 40
    for family in FAMILIES:
        assert len([t for t in tasks if t.family == family]) >= 10, family
    assert all(t.ref for t in tasks if t.family != "direct")
    assert all(len(t.ref) >= 2 for t in tasks if t.family == "chain")
    assert all(len(t.tools) >= 2 for t in tasks if t.family == "distractor")


@pytest.mark.parametrize("task", [t for t in load_tasks() if t.ref], ids=lambda t: t.id)
def test_every_reference_solution_passes_its_check(task: Any) -> None:
    """The expected answers are right: replaying the reference calls gives an output that passes."""
    last = ""
    for step in task.ref:
        last = toolbox.call(step["tool"], step["arguments"])
    assert checks.passes(task.check, last), (task.id, last)


def test_quick_selection_spreads_over_families() -> None:
    shipped = [t for t in load_tasks() if t.family in FAMILIES]  # `--quick --families single,chain,...`
    quick = quick_select(shipped, 10)
    assert len(quick) == 10
    counts = {family: sum(t.family == family for t in quick) for family in FAMILIES}
    assert counts == {"single": 3, "chain": 3, "direct": 2, "distractor": 2}
    everything = quick_select(load_tasks(), 12)
    assert {family: sum(t.family == family for t in everything) for family in ("compose", "trap")} == {
        "compose": 2,
        "trap": 2,
    }


def test_task_files_from_elsewhere_are_validated_with_line_numbers(tmp_path: Path) -> None:
    good = {
        "id": "e1",
        "family": "extra",
        "task": "2+2?",
        "tools": ["calculator"],
        "check": {"kind": "number", "value": 4},
    }
    path = tmp_path / "more.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps({**good, "id": "e2", "tools": ["teleport"]}) + "\n")
    with pytest.raises(TaskFileError, match=r"more\.jsonl:3: unknown tool\(s\) teleport"):
        load_task_file(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(TaskFileError, match="appears twice"):
        load_tasks([path])
    path.write_text(json.dumps(good) + "\n")
    assert load_tasks([path])[0].family == "extra"
    with pytest.raises(ValueError, match="missing key"):
        parse_task({"id": "x", "task": "t"})


# --- report -------------------------------------------------------------------------------------------------


def _result(task_id: str, family: str, ok: bool, wall: float, calls: int) -> TaskResult:
    return TaskResult(task_id, family, "completed", "4", wall, wall, wall * 0.9, 0.0, calls, 100, 60, 10, ok=ok)


def test_report_summarises_and_compares_with_agentcore(tmp_path: Path) -> None:
    tasks = [t for t in load_tasks() if t.id in ("s01", "d01")]
    ours = [_result("s01", "single", True, 2.0, 2), _result("d01", "direct", False, 1.0, 1)]
    limit = [_result("s01", "single", True, 1.0, 2), _result("d01", "direct", True, 0.5, 1)]
    runs = [
        report.SystemRun("agentcore", ours, {"load_s": 0.5}, None, 600.0, 0.0),
        report.SystemRun("raw", limit, {"load_s": 0.4}, None, 500.0, 0.0),
    ]
    table = report.stats_table(tasks, runs)
    assert table["agentcore"]["success"] == 0.5
    assert table["raw"]["success:direct"] == 1.0
    assert table["agentcore"]["wall_median"] == pytest.approx(1.5)
    assert table["agentcore"]["evaluated"] == 40
    text = report.markdown("# head", tasks, runs, "x.png")
    assert "| raw | +50 pt | 0.50× |" in text
    assert "`d01` expected number `4`" in text
    report.chart(tmp_path / "c.png", runs, table, "t")
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_percentile() -> None:
    assert report.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == pytest.approx(9.1)
    assert report.percentile([3.0], 50) == 3.0


def test_the_harness_runs_a_system_in_a_worker_and_writes_the_report(tmp_path: Path) -> None:
    """End to end with the model-free oracle system: worker protocol, interleaving, markdown, chart, JSON."""
    from bench import harness

    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF" + bytes(64))
    lines = [json.dumps(t.to_json()) for t in load_tasks() if t.id in ("s01", "c05", "d02", "d10")]
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n")
    argv = ["--systems", "oracle", "--model", str(model), "--out-dir", str(tmp_path), "--name", "r"]
    assert harness.main([*argv, str(tmp_path / "t.jsonl")]) == 0
    text = (tmp_path / "r.md").read_text()
    assert "| oracle | 75% | 100% | 100% | 50% |" in text  # single, chain, direct; d10 (regex) gets no answer
    assert "`d10` expected regex" in text
    saved = json.loads((tmp_path / "r.json").read_text())
    assert [r["id"] for r in saved["reports"]["oracle"]["results"]] == ["c05", "d02", "d10", "s01"]
    assert saved["reports"]["oracle"]["peak_rss_mb"] > 0
    assert (tmp_path / "r.png").stat().st_size > 1000
    assert harness.main(["--render", str(tmp_path / "r.json")]) == 0
