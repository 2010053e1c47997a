"""Task decomposition on scripted models: plan validation, DAG runs, parents' results, scoping, synthesis."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.errors import UserError
from agentcore.messages import ModelRequest
from agentcore.teams.dag import DecompositionError, Subtask, build_dag, child_task, plan_schema
from agentcore.teams.decompose import Decomposer
from agentcore.testing import FunctionModel, ScriptedModel
from agentcore.tools.function import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def search(q: str) -> str:
    """Search the web."""
    return f"results for {q}"


def plan(*subtasks: tuple[str, str, list[str], list[str]]) -> str:
    items = [{"id": i, "task": t, "depends_on": d, "tools": tl} for i, t, d, tl in subtasks]
    return json.dumps({"subtasks": items})


DIAMOND = plan(
    ("s1", "Find the population of Zurich.", [], ["search"]),
    ("s2", "Find the population of Geneva.", [], ["search"]),
    ("s3", "Add the two populations.", ["s1", "s2"], ["add"]),
)


def task_of(request: ModelRequest) -> str:
    return request.messages[1].content.removeprefix("Task: ")


class Agents:
    """make_agent for tests: one FunctionModel agent per subtask, answering `answers[id]` after `delay`."""

    def __init__(self, answers: dict[str, str], delay: float = 0.0, slow: frozenset[str] = frozenset()) -> None:
        self.answers, self.delay, self.slow = answers, delay, slow
        self.models: dict[str, FunctionModel] = {}
        self.running = self.peak = 0

    def __call__(self, sub: Subtask) -> Agent[None, str]:
        async def answer(request: ModelRequest) -> str:
            self.running += 1
            self.peak = max(self.peak, self.running)
            try:
                await asyncio.sleep(5 if sub.id in self.slow else self.delay)
            finally:
                self.running -= 1
            return self.answers.get(sub.id, "ok")

        self.models[sub.id] = FunctionModel(answer)
        return Agent(self.models[sub.id], tools=[add, search])


# -- plans -------------------------------------------------------------------------------------------------


async def test_plan_is_one_constrained_call_validated_into_a_dag() -> None:
    model = ScriptedModel([DIAMOND])
    dag = await Decomposer(model).plan("Add the populations of Zurich and Geneva.", tool_names=["add", "search"])
    assert sorted(dag.edges) == [("s1", "s3"), ("s2", "s3")]
    assert dag.nodes["s3"]["subtask"] == Subtask("s3", "Add the two populations.", ("s1", "s2"), ("add",))
    schema = model.requests[0].output_schema
    assert schema == plan_schema(6, ["add", "search"])
    branches = [b["properties"] for b in schema["properties"]["subtasks"]["items"]["anyOf"]]
    assert [b["id"]["const"] for b in branches] == ["s1", "s2", "s3", "s4", "s5", "s6"]
    assert branches[0]["depends_on"]["maxItems"] == 0  # s1 depends on nothing: no cycle can be generated
    assert branches[2]["depends_on"]["items"]["enum"] == ["s1", "s2"]
    assert branches[0]["tools"]["items"]["enum"] == ["add", "search"]
    assert "Add the populations of Zurich and Geneva." in model.requests[0].messages[1].content


@pytest.mark.parametrize(
    ("subtasks", "message"),
    [
        ([("s1", "a", ["s2"], []), ("s2", "b", ["s1"], [])], "cycle"),
        ([("s1", "a", ["s9"], [])], "unknown ids ['s9']"),
        ([("s1", "a", ["s1"], [])], "depends on itself"),
        ([("s1", "a", [], []), ("s1", "b", [], [])], "duplicate subtask ids"),
        ([(f"s{i}", "a", [], []) for i in range(1, 5)], "at most 3"),
        ([("s1", "a", [], ["rm_rf"])], "unknown tools ['rm_rf']"),
        ([("s1", "  ", [], [])], "empty task"),
        ([], "no subtasks"),
    ],
)
def test_invalid_plans_raise_clear_errors(subtasks: list[Any], message: str) -> None:
    with pytest.raises(DecompositionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        build_dag(json.loads(plan(*subtasks)), max_subtasks=3, tool_names=["add"])


async def test_plan_that_is_not_json_raises() -> None:
    with pytest.raises(DecompositionError, match="not JSON"):
        await Decomposer(ScriptedModel(["sure, here is a plan"])).plan("Do things.")


async def test_invalid_plan_falls_back_to_one_agent() -> None:
    model = ScriptedModel([plan(("s1", "a", ["s1"], []))])  # no synthesis call for a one-node plan
    agents = Agents({"s1": "the whole answer"})
    result = await Decomposer(model).run("Do the whole task.", agents)
    assert result.output == "the whole answer" and result.ok
    assert result.fallback_reason is not None and "depends on itself" in result.fallback_reason
    assert [e["event"] for e in result.events][:2] == ["fallback", "plan"]
    assert task_of(agents.models["s1"].requests[0]) == "Do the whole task."
    model.assert_complete()


async def test_fallback_can_be_turned_off() -> None:
    with pytest.raises(DecompositionError):
        await Decomposer(ScriptedModel(["{}"]), fallback=False).run("Do it.", Agents({}))


def test_constructor_checks_its_arguments() -> None:
    with pytest.raises(UserError, match="concurrency"):
        Decomposer(ScriptedModel([]), concurrency=0)
    with pytest.raises(UserError, match="max_subtasks"):
        Decomposer(ScriptedModel([]), max_subtasks=0)


# -- running -----------------------------------------------------------------------------------------------


async def test_child_sees_its_parents_results_and_synthesis_answers() -> None:
    model = ScriptedModel([DIAMOND, "625734 people live in the two cities."])
    agents = Agents({"s1": "421878", "s2": "203856", "s3": "625734"})
    result = await Decomposer(model).run("Add the populations of Zurich and Geneva.", agents)
    child = task_of(agents.models["s3"].requests[0])
    # The child has tools, so its spelled count reaches it in digits (agentcore.number_words).
    assert child == "Add the 2 populations.\nResults you can use:\n[s1] 421878\n[s2] 203856"
    assert task_of(agents.models["s1"].requests[0]) == "Find the population of Zurich."
    synthesis = model.requests[1].messages[1].content
    assert synthesis.startswith("Task: Add the populations of Zurich and Geneva.")
    assert "[s3] Add the two populations.\n-> 625734" in synthesis
    assert result.output == "625734 people live in the two cities." and result.ok
    assert {r.status for r in result.results.values()} == {"completed"}
    model.assert_complete()


async def test_independent_subtasks_run_concurrently_within_the_limit() -> None:
    four = plan(*[(f"s{i}", f"part {i}", [], []) for i in range(1, 5)])
    for concurrency, peak in ((2, 2), (1, 1)):
        agents = Agents({}, delay=0.05)
        await Decomposer(ScriptedModel([four, "done"]), concurrency=concurrency).run("Four parts.", agents)
        assert agents.peak == peak


async def test_dependents_start_after_their_parents_end() -> None:
    events: list[dict[str, Any]] = []
    agents = Agents({}, delay=0.02)
    result = await Decomposer(ScriptedModel([DIAMOND, "done"])).run("Populations.", agents, on_event=events.append)
    assert events == result.events
    order = [(e["event"], e.get("id")) for e in events if e["event"] in ("node_start", "node_end")]
    assert order.index(("node_start", "s3")) > max(order.index(("node_end", "s1")), order.index(("node_end", "s2")))
    plan_event = events[0]
    assert plan_event["event"] == "plan" and plan_event["edges"] == [["s1", "s3"], ["s2", "s3"]]
    assert [n["id"] for n in plan_event["nodes"]][-1] == "s3"
    assert events[-1]["event"] == "synthesis"


async def test_subtask_tools_scope_the_agents_toolset() -> None:
    agents = Agents({})
    await Decomposer(ScriptedModel([DIAMOND, "done"])).run("Populations.", agents)
    assert [s.name for s in agents.models["s1"].requests[0].tools] == ["search"]
    assert [s.name for s in agents.models["s3"].requests[0].tools] == ["add"]


async def test_tool_names_for_the_plan_come_from_the_agent() -> None:
    model = ScriptedModel([DIAMOND, "done"])
    await Decomposer(model).run("Populations.", Agents({}))
    schema = model.requests[0].output_schema
    assert schema is not None
    tools = schema["properties"]["subtasks"]["items"]["anyOf"][0]["properties"]["tools"]
    assert tools["items"]["enum"] == ["add", "search"]


async def test_timed_out_subtask_skips_its_dependents() -> None:
    agents = Agents({"s2": "203856"}, slow=frozenset({"s1"}))
    model = ScriptedModel([DIAMOND, "only Geneva is known: 203856"])
    result = await Decomposer(model, subtask_timeout=0.1).run("Populations.", agents)
    statuses = {i: r.status for i, r in result.results.items()}
    assert statuses == {"s1": "timeout", "s2": "completed", "s3": "skipped"}
    assert "s3" not in agents.models  # never started
    assert result.output == "only Geneva is known: 203856"
    assert not result.ok and result.error is not None and "s1" in result.error
    assert "[s2]" in model.requests[1].messages[1].content and "[s1]" not in model.requests[1].messages[1].content


async def test_no_completed_subtask_means_no_answer() -> None:
    agents = Agents({}, slow=frozenset({"s1"}))
    result = await Decomposer(ScriptedModel([plan(("s1", "a", [], []))]), subtask_timeout=0.05).run("A.", agents)
    assert result.output is None and result.error is not None and "no subtask completed" in result.error


def test_child_task_without_parents_is_the_task() -> None:
    sub = Subtask("s1", "Do a.")
    assert child_task(sub, {}) == "Do a."
    assert child_task(sub, {"s0": "x"}) == "Do a.\nResults you can use:\n[s0] x"
