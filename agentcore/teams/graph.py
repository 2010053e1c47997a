"""The topology as networkx graphs, shared by the validator, the engine and `agentcore team graph`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentcore.teams.spec import Edge, JoinNode, TeamSpec

START = "__start__"  # a virtual node before the entries: node names cannot start with two underscores

if TYPE_CHECKING:
    import networkx as nx


def always_fires(edge: Edge) -> bool:
    """An edge that fires whenever its source finishes: no condition, no loop bound."""
    return edge.when is None and not edge.otherwise and edge.max_loops is None


@dataclass(slots=True)
class Graphs:
    full: nx.DiGraph[str]  # every edge
    acyclic: nx.DiGraph[str]  # without loop-bounded edges: "earlier" and "parallel" are read here
    certain: nx.DiGraph[str]  # only edges that always fire: what surely runs after what


def build(spec: TeamSpec) -> Graphs:
    import networkx as nx

    full: nx.DiGraph[str] = nx.DiGraph()
    acyclic: nx.DiGraph[str] = nx.DiGraph()
    certain: nx.DiGraph[str] = nx.DiGraph()
    for g in (full, acyclic, certain):
        g.add_nodes_from(spec.nodes)
        g.add_edges_from((START, entry) for entry in spec.topology.entry)
    for edge in spec.topology.edges:
        pairs = [(s, t) for s in edge.source for t in edge.target]
        full.add_edges_from(pairs)
        if edge.max_loops is None:
            acyclic.add_edges_from(pairs)
        if always_fires(edge):
            certain.add_edges_from(pairs)
    return Graphs(full, acyclic, certain)


def mermaid(spec: TeamSpec) -> str:
    """The topology as Mermaid flowchart text (renders on GitHub and in most Markdown viewers)."""
    lines = ["flowchart TD", "    START([task])"]
    lines.extend(f"    START --> {_id(entry)}" for entry in spec.topology.entry)
    for name, node in spec.nodes.items():
        label = f"{name}<br/>{node.kind}" + (f" {node.method}" if isinstance(node, JoinNode) else "")
        shape = ("{{", "}}") if node.kind == "join" else ("[", "]")
        lines.append(f'    {_id(name)}{shape[0]}"{label}"{shape[1]}')
    for index, edge in enumerate(spec.topology.edges):
        label = _edge_label(edge)
        arrow = f" -->|{label}| " if label else " --> "
        if len(edge.source) > 1:
            join = f"J{index}"
            lines.append(f"    {join}(( ))")
            lines.extend(f"    {_id(s)} --> {join}" for s in edge.source)
            lines.extend(f"    {join}{arrow}{_id(t)}" for t in edge.target)
        else:
            lines.extend(f"    {_id(edge.source[0])}{arrow}{_id(t)}" for t in edge.target)
    lines.append(f"    {_id(spec.topology.exit)} --> END([answer])")
    return "\n".join(lines) + "\n"


def _edge_label(edge: Edge) -> str:
    parts = []
    if edge.when:
        parts.append(edge.when.replace('"', "'").replace("|", "/"))
    if edge.otherwise:
        parts.append("otherwise")
    if edge.max_loops:
        parts.append(f"at most {edge.max_loops}x")
    return "; ".join(parts)


def _id(name: str) -> str:
    return "n_" + name.replace("-", "_")
