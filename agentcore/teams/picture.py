"""The topology as an SVG or PNG picture, drawn with networkx and matplotlib (the `bench` extra installs it;
Graphviz is not needed)."""

from __future__ import annotations

from pathlib import Path

from agentcore.errors import UserError
from agentcore.teams.graph import START, _edge_label, build
from agentcore.teams.spec import TeamSpec


def draw(spec: TeamSpec, out: Path, fmt: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("pictures need matplotlib: pip install 'agentcore[bench]', or use --format mermaid") from None
    import networkx as nx

    graph = build(spec).full
    graph.remove_node(START)
    layers = _layers(spec, graph)
    nx.set_node_attributes(graph, layers, "layer")
    positions = nx.multipartite_layout(graph, subset_key="layer", align="horizontal", scale=-1)
    figure, axes = plt.subplots(figsize=(2 + 1.6 * max(len(graph), 3), 2 + 1.2 * (max(layers.values()) + 1)))
    colours = ["#ffd27f" if spec.nodes[n].kind == "join" else "#9ecae1" for n in graph]
    labels = {n: f"{n}\n({spec.nodes[n].kind})" for n in graph}
    nx.draw_networkx(graph, positions, ax=axes, labels=labels, node_color=colours, node_size=2600, font_size=8,
                     connectionstyle="arc3,rad=0.15", arrows=True)  # fmt: skip
    edge_labels = {(s, t): _edge_label(e) for e in spec.topology.edges for s in e.source for t in e.target}
    nx.draw_networkx_edge_labels(graph, positions, {k: v for k, v in edge_labels.items() if v}, font_size=7, ax=axes)
    axes.set_title(f"team {spec.team}: entry {', '.join(spec.topology.entry)}, exit {spec.topology.exit}")
    axes.axis("off")
    figure.savefig(out, format=fmt, bbox_inches="tight")
    plt.close(figure)


def _layers(spec: TeamSpec, graph: object) -> dict[str, int]:
    """Each node's depth from the entry along loop-free edges (loops drawn going back up)."""
    import networkx as nx

    acyclic = build(spec).acyclic
    depth = dict.fromkeys(acyclic, 0)
    for node in nx.topological_sort(acyclic):
        for successor in acyclic.successors(node):
            depth[successor] = max(depth[successor], depth[node] + 1)
    return {n: depth[n] - 1 for n in spec.nodes}
