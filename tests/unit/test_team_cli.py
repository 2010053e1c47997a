"""`agentcore team validate|run|graph|schema` through the real CLI entry point (function-only teams: no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentcore.cli import main
from agentcore.policies.router import ComplexityRouter
from agentcore.teams.cli import run_routed_team
from agentcore.testing import FunctionModel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"

CALC = """\
team: calc
state: {task: str, result: {type: str, default: ""}}
output: result
nodes:
  calc: {kind: tool, tool: calculator, arguments: {expression: "{task}"}, reads: [task], writes: [result]}
topology: {entry: calc, exit: calc}
"""


def test_validate_examples_and_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(EXAMPLES.glob("*.yaml"))
    assert len(files) >= 4 and main(["team", "validate", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("ok: ") == len(files)
    bad = tmp_path / "bad.yaml"
    bad.write_text(CALC.replace("exit: calc", "exit: nowhere"))
    assert main(["team", "validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"agentcore: error: {bad}:6: topology.exit: no node named 'nowhere'" in err
    assert "Traceback" not in err


def test_not_yaml_is_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("team: [\n")
    assert main(["team", "run", str(bad), "--task", "x"]) == 1
    err = capsys.readouterr().err
    assert "not valid YAML" in err and "Traceback" not in err


def test_schema_is_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "agentcore team file"
    out = tmp_path / "team.schema.json"
    assert main(["team", "schema", "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == schema


def test_graph_as_mermaid_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "graph", str(EXAMPLES / "audit_loop.yaml")]) == 0
    text = capsys.readouterr().out
    assert text.startswith("flowchart TD") and "n_auditor -->|verdict != 'approve'; at most 2x| n_solver" in text
    picture = tmp_path / "vote.svg"
    assert main(["team", "graph", str(EXAMPLES / "vote.yaml"), "--format", "svg", "--out", str(picture)]) == 0
    assert picture.read_text().lstrip().startswith("<?xml") and "careful" in picture.read_text()


def test_run_prints_progress_and_the_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    team = tmp_path / "calc.yaml"
    team.write_text(CALC)
    code = main(["team", "run", str(team), "--task", "6 * 7", "--checkpoints", str(tmp_path / "runs")])
    captured = capsys.readouterr()
    assert code == 0 and captured.out.strip() == "42"
    assert "  > calc" in captured.err and "  < calc completed" in captured.err and "result=42" in captured.err
    assert main(["team", "run", str(team), "--task", "6 * 7", "--json", "--checkpoints", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["output"] == "42" and data["ledger"][0]["node"] == "calc"


def test_run_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    team = tmp_path / "calc.yaml"
    team.write_text(CALC)
    assert main(["team", "run", str(team)]) == 1
    assert "give the task" in capsys.readouterr().err
    assert main(["team", "run", str(team), "--resume", "abc123", "--checkpoints", str(tmp_path)]) == 1
    assert "no checkpoint for run abc123" in capsys.readouterr().err
    assert main(["team", "run", str(team), "--task", "1/0", "--checkpoints", str(tmp_path)]) == 3
    assert "resume with --resume" in capsys.readouterr().err


def test_agentcore_run_checks_the_team_file_before_loading_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CALC.replace("tool: calculator", "tool: abacus"))
    assert main(["run", "Research and compare three things, then write a report.", "--team", str(bad)]) == 1
    assert "unknown tool 'abacus'" in capsys.readouterr().err


async def test_router_team_plan_runs_the_team(capsys: pytest.CaptureFixture[str]) -> None:
    task = "Research the options, compare their costs and risks, then write a short report and a summary."
    assert ComplexityRouter().route(task, team_available=True).plan == "team"
    said: list[str] = []
    model = FunctionModel(lambda request: "7")
    code = await run_routed_team(str(EXAMPLES / "vote.yaml"), task, model, said.append, None)
    assert code == 0 and capsys.readouterr().out.strip() == "7"
    assert said[0].startswith("route: handing the task to team vote")


def test_the_yaml_examples_of_the_readme_and_docs_validate() -> None:
    import re

    from agentcore.teams.loader import spec_from_text
    from agentcore.teams.validate import validate

    root = EXAMPLES.parents[1]
    found = 0
    for doc in (root / "README.md", root / "docs" / "teams.md"):
        for block in re.findall(r"```yaml\n(.*?)```", doc.read_text(), re.S):
            validate(*spec_from_text(block, str(doc)))
            found += 1
    assert found >= 2
