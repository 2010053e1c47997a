"""Subtask plans as networkx DAGs: the plan's JSON Schema, its validation and the text a child node receives.

A plan is `{"subtasks": [{"id", "task", "depends_on", "tools"}, ...]}`. The schema lets a grammar constrain
the planner: ids come from a fixed list (`s1`, `s2`, ...), a subtask depends only on lower ids, tools come
from the available names, so most mistakes cannot be generated. What a grammar cannot rule out (a duplicate
id, a dependency on an id that no subtask has) and any plan from elsewhere are checked by `build_dag`, which
raises `DecompositionError` with a message that names the problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentcore.errors import ModelError

if TYPE_CHECKING:
    import networkx as nx


class DecompositionError(ModelError):
    """The planner's output is not a usable plan: unknown ids, a cycle, too many subtasks, and so on."""


@dataclass(frozen=True, slots=True)
class Subtask:
    """One node of a plan. `tools` empty means: the agent's whole toolset."""

    id: str
    task: str
    depends_on: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "task": self.task,
            "depends_on": list(self.depends_on),
            "tools": list(self.tools),
        }


def subtask_ids(max_subtasks: int) -> list[str]:
    return [f"s{i}" for i in range(1, max_subtasks + 1)]


def plan_schema(max_subtasks: int, tool_names: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON Schema of a plan, tight enough for a grammar to rule out most invalid plans.

    Each item is one of `max_subtasks` branches: subtask `sK` may depend only on `s1` ... `s(K-1)`. A grammar
    made from it cannot produce a self-dependency or a cycle (Qwen 0.5B wrote `s1 <-> s2` without this).
    """
    tool = {"type": "string", "enum": list(tool_names)} if tool_names else {"type": "string", "maxLength": 40}
    ids = subtask_ids(max_subtasks)

    def branch(k: int) -> dict[str, Any]:
        earlier = ids[: k - 1]
        deps: dict[str, Any] = {"type": "array", "maxItems": len(earlier)}
        if earlier:
            deps["items"] = {"type": "string", "enum": earlier}
        return {
            "type": "object",
            "properties": {
                "id": {"const": ids[k - 1]},
                "task": {"type": "string", "maxLength": 240},
                "depends_on": deps,
                "tools": {"type": "array", "items": tool, "maxItems": 4},
            },
            "required": ["id", "task", "depends_on", "tools"],
            "additionalProperties": False,
        }

    subtasks = {
        "type": "array",
        "items": {"anyOf": [branch(k) for k in range(1, max_subtasks + 1)]},
        "minItems": 1,
        "maxItems": max_subtasks,
    }
    return {
        "type": "object",
        "properties": {"subtasks": subtasks},
        "required": ["subtasks"],
        "additionalProperties": False,
    }


def _subtask(item: Any, index: int) -> Subtask:
    if not isinstance(item, Mapping):
        raise DecompositionError(f"subtask #{index + 1} is not an object: {item!r}")
    sid, task = item.get("id"), item.get("task")
    if not isinstance(sid, str) or not sid.strip():
        raise DecompositionError(f"subtask #{index + 1} has no id")
    if not isinstance(task, str) or not task.strip():
        raise DecompositionError(f"subtask {sid!r} has an empty task")
    deps, tools = item.get("depends_on", []), item.get("tools", [])
    if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
        raise DecompositionError(f"subtask {sid!r}: depends_on must be a list of ids")
    if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
        raise DecompositionError(f"subtask {sid!r}: tools must be a list of tool names")
    return Subtask(sid.strip(), task.strip(), tuple(dict.fromkeys(deps)), tuple(dict.fromkeys(tools)))


def _check(subtasks: Sequence[Subtask], max_subtasks: int, tool_names: Sequence[str] | None) -> None:
    if not subtasks:
        raise DecompositionError("the plan has no subtasks")
    if len(subtasks) > max_subtasks:
        raise DecompositionError(f"the plan has {len(subtasks)} subtasks; at most {max_subtasks} are allowed")
    ids = [s.id for s in subtasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise DecompositionError(f"duplicate subtask ids: {duplicates}")
    for sub in subtasks:
        if sub.id in sub.depends_on:
            raise DecompositionError(f"subtask {sub.id!r} depends on itself")
        unknown = [d for d in sub.depends_on if d not in ids]
        if unknown:
            raise DecompositionError(f"subtask {sub.id!r} depends on unknown ids {unknown}; known ids: {ids}")
        if tool_names is not None:
            bad = [t for t in sub.tools if t not in tool_names]
            if bad:
                raise DecompositionError(
                    f"subtask {sub.id!r} names unknown tools {bad}; available: {sorted(tool_names)}"
                )


def build_dag(data: Any, *, max_subtasks: int = 6, tool_names: Sequence[str] | None = None) -> nx.DiGraph[str]:
    """A validated DAG from a plan (parsed JSON). Nodes carry `subtask`; an edge parent -> child is a
    dependency."""
    import networkx as nx

    if not isinstance(data, Mapping) or not isinstance(data.get("subtasks"), list):
        raise DecompositionError(f'the plan must be an object with a "subtasks" list, got {str(data)[:200]!r}')
    subtasks = [_subtask(item, i) for i, item in enumerate(data["subtasks"])]
    _check(subtasks, max_subtasks, tool_names)
    graph: nx.DiGraph[str] = nx.DiGraph()
    for sub in subtasks:
        graph.add_node(sub.id, subtask=sub)
    for sub in subtasks:
        graph.add_edges_from((dep, sub.id) for dep in sub.depends_on)
    if not nx.is_directed_acyclic_graph(graph):
        cycle = " -> ".join(edge[0] for edge in nx.find_cycle(graph))
        raise DecompositionError(f"the plan has a dependency cycle: {cycle}")
    return graph


def single_node_dag(task: str) -> nx.DiGraph[str]:
    """The fallback plan: the whole task as one subtask."""
    return build_dag({"subtasks": [{"id": "s1", "task": task, "depends_on": [], "tools": []}]})


def subtask_of(graph: nx.DiGraph[str], node: str) -> Subtask:
    sub: Subtask = graph.nodes[node]["subtask"]
    return sub


def dag_to_dict(graph: nx.DiGraph[str]) -> dict[str, Any]:
    """The plan as plain data for events and traces: nodes in topological order, and edges."""
    import networkx as nx

    return {
        "nodes": [subtask_of(graph, n).to_dict() for n in nx.topological_sort(graph)],
        "edges": [list(edge) for edge in graph.edges],
    }


def child_task(subtask: Subtask, parent_results: Mapping[str, str]) -> str:
    """The text a subtask's agent receives: its task, then the results of its parents."""
    if not parent_results:
        return subtask.task
    lines = [f"[{pid}] {result}" for pid, result in parent_results.items()]
    return subtask.task + "\nResults you can use:\n" + "\n".join(lines)
