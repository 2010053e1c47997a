"""The team engine on scripted models: fan-out and joins, bounded loops, conditions, retries, timeouts,
cancellation, checkpoints, subgraphs, composition with agents, and the three example teams."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.errors import UserError
from agentcore.events import Event, RunStarted, add_sink, remove_sink
from agentcore.messages import ModelRequest
from agentcore.teams import Registry, Team, TeamEvent
from agentcore.testing import FunctionModel, ScriptedModel, call

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"


def by_role(answers: dict[str, Any]) -> FunctionModel:
    """A model that answers according to the role named in the system prompt."""

    def answer(request: ModelRequest) -> str:
        system = request.messages[0].content
        for role, reply in answers.items():
            if f"You are the {role}." in system:
                value = reply(request) if callable(reply) else reply
                return value if isinstance(value, str) else json.dumps(value)
        raise AssertionError(f"no scripted answer for system prompt {system[:80]!r}")

    return FunctionModel(answer)


def registry(model: Any, **kwargs: Any) -> Registry:
    return Registry(models={"default": model}, **kwargs)


async def test_vote_example_fans_out_and_joins_by_majority() -> None:
    model = by_role({"careful solver": "42", "quick solver": "41", "solver who checks the question twice": "42."})
    team = Team.load(EXAMPLES / "vote.yaml", registry=registry(model))
    started: list[RunStarted] = []

    def sink(event: Event) -> None:
        if isinstance(event, RunStarted):
            started.append(event)

    add_sink(sink)
    try:
        result = await team.run("What is 12 + 30?")
    finally:
        remove_sink(sink)
    assert result.ok and result.output == "42"
    assert sorted(result.state["answers"]) == ["41", "42", "42."]
    assert sorted(result.sources["answers"]) == ["careful", "checker", "quick"]
    vote = result.ledger[-1]
    assert vote.node == "vote" and vote.detail["scores"] == {"42": 2.0, "41": 1.0}
    assert {r.node for r in result.ledger[:3]} == {"careful", "quick", "checker"}
    team_run, agents = started[0], started[1:]
    assert team_run.run_id == result.run_id and team_run.agent == "team:vote"
    assert len(agents) == 3 and all(s.parent_run_id == result.run_id for s in agents)
    assert {s.trace_id for s in started} == {result.trace_id}
    assert [e["node"] for e in result.trace if e["kind"] == "node_end"][-1] == "vote"
    assert result.usage.calls == 3  # the agents' usage rolled up into the team run


async def test_parallel_nodes_run_concurrently_up_to_the_limit(tmp_path: Path) -> None:
    in_flight, peak = 0, 0

    async def slow(request: ModelRequest) -> str:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.05)
        in_flight -= 1
        return "7"

    text = (EXAMPLES / "vote.yaml").read_text()
    team = Team.from_text(text, registry=registry(FunctionModel(slow)))
    assert (await team.run("q")).ok and peak == 3
    peak = 0
    limited = Team.from_text(text + "limits:\n  concurrency: 2\n", registry=registry(FunctionModel(slow)))
    assert (await limited.run("q")).ok and peak == 2


async def test_audit_loop_stops_at_its_bound() -> None:
    drafts = iter(["draft one", "draft two", "draft three"])
    model = by_role({"solver": lambda r: next(drafts), "strict auditor": {"verdict": "revise", "feedback": "more"}})
    events: list[TeamEvent] = []
    team = Team.load(EXAMPLES / "audit_loop.yaml", registry=registry(model))
    result = await team.run("Explain primes.", on_event=events.append)
    assert result.ok and result.output == "draft three"
    assert [r.node for r in result.ledger] == ["solver", "auditor"] * 3 + ["final"]
    assert [e.node for e in events if e.kind == "loop_bound"] == ["auditor"]


async def test_audit_loop_ends_on_approval() -> None:
    verdicts = iter([{"verdict": "revise", "feedback": "say 'divisible'"}, {"verdict": "approve", "feedback": ""}])
    seen: list[str] = []

    def solver(request: ModelRequest) -> str:
        seen.append(request.messages[-1].content)
        return f"draft {len(seen)}"

    model = by_role({"solver": solver, "strict auditor": lambda r: next(verdicts)})
    result = await Team.load(EXAMPLES / "audit_loop.yaml", registry=registry(model)).run("Explain primes.")
    assert result.ok and result.output == "draft 2"
    assert "say 'divisible'" in seen[1]  # the revision saw the auditor's feedback


async def test_plan_work_example_passes_parts_to_workers() -> None:
    model = by_role({
        "planner": {"part_a": "Name a fruit.", "part_b": "Name a vegetable."},
        "worker": lambda r: "apple" if "fruit" in r.messages[-1].content else "carrot",
        "editor": lambda r: "Fruit and vegetable: " + r.messages[-1].content.split("Result 1: ")[1].replace("\n", " "),
    })  # fmt: skip
    result = await Team.load(EXAMPLES / "plan_work.yaml", registry=registry(model)).run("A fruit and a vegetable.")
    assert result.ok
    assert result.state["result_a"] == "apple" and result.state["result_b"] == "carrot"
    assert "apple" in result.output and "carrot" in result.output
    assert result.ledger[0].node == "planner" and result.ledger[-1].node == "synthesiser"


FLOW = """\
team: flow
state:
  task: str
  n: {type: int, default: 0}
  route: {type: str, default: ""}
  out: {type: str, default: ""}
nodes:
  step: {kind: function, function: step, reads: [n], writes: [n, route], retries: RETRIES, timeout: 2}
  left: {kind: function, function: left, reads: [n], writes: [out]}
  right: {kind: function, function: right, reads: [n], writes: [out]}
topology:
  entry: step
  exit: right
  edges:
    - {from: step, to: left, when: "route == 'left'"}
    - {from: step, to: right, otherwise: true}
    - {from: left, to: step, max_loops: 5}
    - {from: left, to: right, otherwise: true}
"""


def flow(step: Any, retries: int = 0, **kwargs: Any) -> Team:
    functions = {"step": step, "left": lambda n: f"left {n}", "right": lambda n: f"right {n}"}
    return Team.from_text(FLOW.replace("RETRIES", str(retries)), registry=Registry(functions=functions), **kwargs)


async def test_conditions_route_and_loops_count() -> None:
    def step(n: int) -> dict[str, Any]:
        return {"n": n + 1, "route": "left" if n < 2 else "right"}

    result = await flow(step).run("go")
    assert result.ok and result.output == "go"  # no output key: the answer key is the input
    assert result.state["out"] == "right 3"
    assert [r.node for r in result.ledger] == ["step", "left", "step", "left", "step", "right"]


async def test_retries_then_success_and_failure_without_retries() -> None:
    calls = 0

    async def flaky(n: int) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("flaky backend")
        return {"n": 1, "route": "right"}

    result = await flow(flaky, retries=1).run("go")
    assert result.ok and result.ledger[0].attempts == 2
    calls = 0
    failed = await flow(flaky, retries=0).run("go")
    assert failed.status == "failed" and "node 'step' failed: ConnectionError: flaky backend" in (failed.error or "")
    assert failed.ledger[0].status == "failed"


async def test_node_timeout_and_wrong_type_fail_the_run() -> None:
    async def slow(n: int) -> dict[str, Any]:
        await asyncio.sleep(5)
        return {}

    result = await flow(slow).run("go")
    assert result.status == "failed" and "timed out after 2.0s" in (result.error or "")

    def wrong(n: int) -> dict[str, Any]:
        return {"n": "many", "route": "right"}

    typed = await flow(wrong).run("go")
    assert typed.status == "failed" and "'n' (int) got 'many'" in (typed.error or "")


async def test_cancel_and_team_timeout() -> None:
    async def hang(n: int) -> dict[str, Any]:
        await asyncio.sleep(0.5)
        return {"n": 1, "route": "right"}

    cancel = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, cancel.set)
    result = await flow(hang).run("go", cancel=cancel)
    assert result.status == "cancelled" and result.ledger == []
    timed = await flow(hang).run("go", timeout=0.05)
    assert timed.status == "timeout" and "timed out after 0.05s" in (timed.error or "")


async def test_node_run_limit() -> None:
    text = FLOW.replace("RETRIES", "0").replace("max_loops: 5", "max_loops: 50") + "limits:\n  max_node_runs: 4\n"
    functions = {"step": lambda n: {"n": n + 1, "route": "left"}, "left": lambda n: "l", "right": lambda n: "r"}
    result = await Team.from_text(text, registry=Registry(functions=functions)).run("go")
    assert result.status == "limit" and len(result.ledger) == 4


async def test_checkpoint_and_resume(tmp_path: Path) -> None:
    broken = True

    def step(n: int) -> dict[str, Any]:
        if n == 1 and broken:
            raise RuntimeError("disk full")
        return {"n": n + 1, "route": "left" if n < 2 else "right"}

    team = flow(step, checkpoint_dir=tmp_path)
    first = await team.run("go")
    assert first.status == "failed" and [r.node for r in first.ledger] == ["step", "left", "step"]
    saved = json.loads((tmp_path / f"{first.run_id}.json").read_text())
    assert saved["state"]["n"] == 1 and saved["pending"] == ["step"]
    broken = False
    resumed = await team.resume(first.run_id)
    assert resumed.ok and resumed.run_id == first.run_id and resumed.state["out"] == "right 3"
    assert [r.node for r in resumed.ledger] == ["step", "left", "step", "right"]  # the earlier nodes did not rerun
    with pytest.raises(UserError, match="already completed"):
        await team.resume(first.run_id)


async def test_incomplete_when_a_join_never_gets_all_its_sources() -> None:
    text = """\
team: stuck
state: {task: str, a: {type: str, default: ""}, b: {type: str, default: ""}}
nodes:
  start: {kind: function, function: passthrough}
  x: {kind: function, function: passthrough, reads: [task], writes: [a]}
  y: {kind: function, function: passthrough, reads: [task], writes: [b]}
  end: {kind: function, function: passthrough, reads: [a, b]}
topology:
  entry: start
  exit: end
  edges:
    - {from: start, to: x}
    - {from: start, to: y, when: "task == 'both'"}
    - {from: start, to: end, otherwise: true}
    - {from: [x, y], to: end}
"""
    result = await Team.from_text(text).run("one")
    assert result.status == "incomplete" and "exit 'end' was never reached" in (result.error or "")


async def test_tool_node_passes_typed_arguments() -> None:
    text = """\
team: calc
state: {task: str, result: {type: str, default: ""}}
output: result
nodes:
  calc: {kind: tool, tool: calculator, arguments: {expression: "{task}"}, reads: [task], writes: [result]}
topology: {entry: calc, exit: calc}
"""
    result = await Team.from_text(text).run("17 * 23")
    assert result.ok and result.output == "391"


async def test_subgraph_runs_another_team_file(tmp_path: Path) -> None:
    (tmp_path / "child.yaml").write_text("""\
team: child
state: {task: str, shout: {type: str, default: ""}}
nodes:
  up: {kind: function, function: upper, reads: [task], writes: [shout]}
topology: {entry: up, exit: up}
""")
    (tmp_path / "parent.yaml").write_text("""\
team: parent
state: {task: str, shout: str}
output: shout
nodes:
  sub: {kind: team, file: child.yaml, reads: [task], writes: [shout]}
topology: {entry: sub, exit: sub}
""")
    team = Team.load(tmp_path / "parent.yaml", registry=Registry(functions={"upper": lambda task: task.upper()}))
    result = await team.run("quiet words")
    assert result.ok and result.output == "QUIET WORDS" and result.ledger[0].kind == "team"


async def test_team_as_a_tool_of_an_agent_and_an_agent_as_a_node() -> None:
    helper = Agent(ScriptedModel(["inner answer"]), name="helper")
    team = Team.from_text(
        """\
team: wrapped
state: {task: str, answer: str}
output: answer
nodes:
  helper: {agent: helper, reads: [task], writes: [answer]}
topology: {entry: helper, exit: helper}
""",
        registry=Registry(agents={"helper": helper}),
    )
    outer_model = ScriptedModel([call("wrapped", task="ask the team"), "done: inner answer"])
    outer = Agent(outer_model, tools=[team.as_tool()])
    result = await outer.run("Use the team.")
    assert result.output == "done: inner answer"
    assert result.steps[0].result == "inner answer"
    assert any(entry["kind"] == "child_run" for entry in result.trace)


async def test_empty_task_and_bad_initial_state() -> None:
    team = flow(lambda n: {"n": 1, "route": "right"})
    with pytest.raises(UserError, match="task is empty"):
        await team.run("  ")
    with pytest.raises(UserError, match="'n' \\(int\\)"):
        await team.run_state({"task": "go", "n": "x"})
