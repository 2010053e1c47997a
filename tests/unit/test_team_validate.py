"""Every validation rule of team files, each with its own bad file: the rule fires, on the right line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from agentcore.teams.errors import TeamSpecError
from agentcore.teams.loader import load_spec
from agentcore.teams.registry import Registry
from agentcore.teams.validate import validate

GOOD = """\
team: good
state:
  task: str
  answers:
    type: list[str]
    reducer: append
  answer: str
nodes:
  a:
    prompt: "{task}"
    reads: [task]
    writes: [answers]
  b:
    prompt: "{task}"
    reads: [task]
    writes: [answers]
  vote:
    kind: join
    reads: [answers]
    writes: [answer]
topology:
  entry: [a, b]
  exit: vote
  edges:
    - from: [a, b]
      to: vote
"""


def check(tmp_path: Path, text: str, registry: Registry | None = None) -> TeamSpecError:
    file = tmp_path / "team.yaml"
    file.write_text(textwrap.dedent(text))
    with pytest.raises(TeamSpecError) as caught:
        spec, source = load_spec(file)
        validate(spec, source, registry)
    return caught.value


def only(error: TeamSpecError, rule: str) -> tuple[int | None, str]:
    found = [p for p in error.problems if p.rule == rule]
    assert found, f"rule {rule} did not fire: {error}"
    return found[0].line, found[0].message


def test_the_base_file_is_valid(tmp_path: Path) -> None:
    file = tmp_path / "good.yaml"
    file.write_text(GOOD)
    spec, source = load_spec(file)
    validate(spec, source)


def test_unknown_node_in_an_edge(tmp_path: Path) -> None:
    error = check(tmp_path, GOOD.replace("      to: vote", "      to: vot"))
    line, message = only(error, "unknown-node")
    assert line == 26 and "no node named 'vot'" in message and "vote" in message


def test_unknown_exit(tmp_path: Path) -> None:
    line, message = only(check(tmp_path, GOOD.replace("exit: vote", "exit: done")), "unknown-node")
    assert line == 23 and "'done'" in message


def test_unreachable_node(tmp_path: Path) -> None:
    text = GOOD.replace("topology:", "  lonely:\n    reads: [task]\n    writes: [answers]\ntopology:")
    line, message = only(check(tmp_path, text), "unreachable")
    assert line == 21 and "no path from the entry" in message


def test_node_that_cannot_reach_the_exit(tmp_path: Path) -> None:
    text = GOOD.replace("  entry: [a, b]", "  entry: [a, b, c]").replace(
        "topology:", "  c:\n    reads: [task]\n    writes: [answers]\ntopology:"
    )
    line, message = only(check(tmp_path, text), "no-exit")
    assert line == 21 and "reaches the exit 'vote'" in message


def test_edge_leaving_the_exit(tmp_path: Path) -> None:
    text = GOOD + "    - from: vote\n      to: a\n      max_loops: 2\n"
    line, message = only(check(tmp_path, text), "exit-edges")
    assert line == 27 and "no edge may leave it" in message


LOOP = """\
team: loop
state:
  task: str
  draft: str
  verdict: {type: str, default: ""}
nodes:
  solve: {prompt: "{task}", reads: [task], writes: [draft]}
  audit: {prompt: "{draft}", reads: [draft], writes: [verdict]}
  done: {kind: function, function: passthrough, reads: [draft], writes: [task]}
topology:
  entry: solve
  exit: done
  edges:
    - {from: solve, to: audit}
    - {from: audit, to: solve, when: "verdict != 'ok'", max_loops: 2}
    - {from: audit, to: done, otherwise: true}
"""


def test_the_loop_base_file_is_valid(tmp_path: Path) -> None:
    file = tmp_path / "loop.yaml"
    file.write_text(LOOP)
    validate(*load_spec(file))


def test_loop_without_a_bound(tmp_path: Path) -> None:
    line, message = only(check(tmp_path, LOOP.replace(", max_loops: 2", "")), "unbounded-loop")
    assert line == 15 and "solve" in message and "audit ->" in message and "max_loops" in message


def test_conditional_edges_without_otherwise(tmp_path: Path) -> None:
    text = LOOP.replace(
        "{from: audit, to: done, otherwise: true}", "{from: audit, to: done, when: \"verdict == 'ok'\"}"
    )
    line, message = only(check(tmp_path, text), "no-fallback")
    assert line == 8 and "otherwise: true" in message


def test_condition_outside_the_language(tmp_path: Path) -> None:
    text = LOOP.replace("verdict != 'ok'", "__import__('os').system('x')")
    line, message = only(check(tmp_path, text), "condition")
    assert line == 15 and "only these functions may be called" in message


def test_condition_naming_an_unknown_key(tmp_path: Path) -> None:
    line, message = only(check(tmp_path, LOOP.replace("verdict != 'ok'", "score > 3")), "unknown-key")
    assert line == 15 and "'score'" in message


def test_read_or_write_of_an_undeclared_key(tmp_path: Path) -> None:
    error = check(tmp_path, GOOD.replace("    writes: [answers]\n  b:", "    writes: [answerz]\n  b:"))
    line, message = only(error, "unknown-key")
    assert line == 12 and "no key 'answerz'" in message and "task, answers, answer" in message


def test_placeholder_the_node_does_not_read(tmp_path: Path) -> None:
    line, message = only(
        check(tmp_path, GOOD.replace('prompt: "{task}"', 'prompt: "{task} {answer}"', 1)), "placeholder"
    )
    assert line == 10 and "{answer}" in message and "add it to reads" in message


def test_read_that_nothing_writes_first(tmp_path: Path) -> None:
    text = GOOD.replace(
        "    reads: [task]\n    writes: [answers]\n  b:", "    reads: [task, answer]\n    writes: [answers]\n  b:"
    )
    line, message = only(check(tmp_path, text), "unsatisfied-read")
    assert line == 11 and "'answer'" in message and "no earlier node writes it" in message


def test_parallel_writes_need_a_reducer(tmp_path: Path) -> None:
    text = GOOD.replace("    reducer: append\n", "").replace("type: list[str]", "type: str")
    text = text.replace("    reads: [answers]\n", "    reads: [task]\n").replace("kind: join", "prompt: '{task}'")
    line, message = only(check(tmp_path, text), "parallel-write")
    assert line == 4 and "'a' and 'b' run in parallel" in message and "append" in message


def test_exclusive_branches_may_write_the_same_key(tmp_path: Path) -> None:
    text = LOOP.replace("done: {kind: function, function: passthrough, reads: [draft], writes: [task]}",
                        "done: {kind: function, function: passthrough, reads: [draft], writes: [draft]}")  # fmt: skip
    file = tmp_path / "ok.yaml"
    file.write_text(text)
    validate(*load_spec(file))  # solve and done never run at the same time


def test_unknown_tool(tmp_path: Path) -> None:
    text = GOOD.replace("    reads: [task]\n", "    tools: [calculator, seach]\n    reads: [task]\n", 1)
    line, message = only(check(tmp_path, text), "unknown-tool")
    assert line == 11 and "'seach'" in message and "calculator" in message


def test_registered_tool_is_known(tmp_path: Path) -> None:
    def search(query: str) -> str:
        """Search.

        Args:
            query: what to find.
        """
        return query

    file = tmp_path / "t.yaml"
    file.write_text(GOOD.replace("    reads: [task]\n", "    tools: [search]\n    reads: [task]\n", 1))
    validate(*load_spec(file), Registry(tools=[search]))


def test_unknown_function(tmp_path: Path) -> None:
    text = LOOP.replace("function: passthrough", "function: scorer")
    line, message = only(check(tmp_path, text), "unknown-function")
    assert line == 9 and "no function 'scorer'" in message and "import path" in message


def test_function_import_path_that_does_not_exist(tmp_path: Path) -> None:
    text = LOOP.replace("function: passthrough", "function: 'os.path:nope'")
    _, message = only(check(tmp_path, text), "unknown-function")
    assert "no attribute 'nope'" in message


def test_unknown_model_and_tier(tmp_path: Path) -> None:
    text = GOOD.replace('    prompt: "{task}"\n', '    prompt: "{task}"\n    model: gpt-9\n', 1)
    text = text.replace('  b:\n    prompt: "{task}"\n', '  b:\n    prompt: "{task}"\n    tier: large\n')
    error = check(tmp_path, text)
    models = [p for p in error.problems if p.rule == "unknown-model"]
    assert [p.line for p in models] == [11, 16]
    assert "gpt-9" in models[0].message and "unknown tier 'large'" in models[1].message


def test_tier_declared_in_models_is_known(tmp_path: Path) -> None:
    tiered = GOOD.replace('  b:\n    prompt: "{task}"\n', '  b:\n    prompt: "{task}"\n    tier: large\n')
    text = "models:\n  large: qwen2.5-coder-0.5b\n" + tiered
    file = tmp_path / "t.yaml"
    file.write_text(text)
    validate(*load_spec(file))


def test_unknown_policy_and_agent(tmp_path: Path) -> None:
    text = GOOD.replace("    reads: [task]\n", "    policies: [telepathy]\n    agent: nowhere\n    reads: [task]\n", 1)
    error = check(tmp_path, text)
    assert only(error, "unknown-policy")[0] == 11 and "routing" in only(error, "unknown-policy")[1]
    assert only(error, "unknown-agent")[0] == 12


def test_missing_subgraph(tmp_path: Path) -> None:
    text = LOOP.replace("{kind: function, function: passthrough,", "{kind: team, file: missing.yaml,")
    line, message = only(check(tmp_path, text), "unknown-subgraph")
    assert line == 9 and "missing.yaml" in message


def test_invalid_subgraph_reports_its_problems(tmp_path: Path) -> None:
    (tmp_path / "child.yaml").write_text(LOOP.replace(", max_loops: 2", ""))
    text = LOOP.replace("{kind: function, function: passthrough,", "{kind: team, file: child.yaml,")
    _, message = only(check(tmp_path, text), "unknown-subgraph")
    assert "child.yaml is invalid" in message and "has no bound" in message


def test_subgraph_that_includes_itself(tmp_path: Path) -> None:
    text = LOOP.replace("{kind: function, function: passthrough,", "{kind: team, file: team.yaml,")
    line, message = only(check(tmp_path, text), "subgraph-cycle")
    assert line == 9 and "includes itself" in message


def test_join_shape(tmp_path: Path) -> None:
    error = check(
        tmp_path, GOOD.replace("    reads: [answers]\n    writes: [answer]", "    reads: [task]\n    writes: [answer]")
    )
    line, message = only(error, "join")
    assert line == 19 and "reads a list" in message
    error = check(tmp_path, GOOD.replace("    kind: join\n", "    kind: join\n    weights: {zed: 2}\n"))
    assert "no node named 'zed'" in only(error, "join")[1]


def test_a2a_node_validates_and_unknown_mcp_server_is_located(tmp_path: Path) -> None:
    a2a = GOOD.replace("  b:\n    prompt", "  b:\n    kind: a2a\n    url: http://127.0.0.1:9/\n    prompt")
    (tmp_path / "a2a.yaml").write_text(a2a)
    validate(*load_spec(tmp_path / "a2a.yaml"))  # a runnable kind now: no problem
    text = GOOD.replace("  a:\n    prompt", "  a:\n    mcp: [time, clock]\n    prompt")
    text = "mcp:\n  time: {command: mcp-server-time}\n" + text
    line, message = only(check(tmp_path, text), "unknown-mcp")
    assert line == 12 and "no MCP server named 'clock'" in message and "['time']" in message
    found = check(tmp_path, text.replace("time, clock", "time, other"), Registry()).problems
    assert [p.field for p in found] == ["nodes.a.mcp[1]"]


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = GOOD.replace("exit: vote", "exit: done").replace("writes: [answer]", "writes: [answerz]")
    error = check(tmp_path, text)
    assert {"unknown-node", "unknown-key"} <= set(error.rules())
    assert str(error).count("team.yaml:") == len(error.problems)
