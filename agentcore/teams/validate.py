"""Validation of a whole team, before anything runs. Each rule has its own name and message:

| rule | what it catches |
|---|---|
| unknown-node | entry, exit or an edge names a node that does not exist |
| unreachable | a node the entry cannot reach |
| no-exit | a node from which the exit cannot be reached |
| exit-edges | an edge leaving the exit (the run ends there) |
| unbounded-loop | a cycle with no `max_loops` on any of its edges |
| no-fallback | a node whose every outgoing edge is conditional or bounded, with no `otherwise` edge |
| condition | an edge condition outside the expression language |
| unknown-key | reads, writes, conditions, input or output naming a key the state does not declare |
| placeholder | a {key} in a prompt or tool argument that the node does not read |
| unsatisfied-read | a read with no default, not the input, and no earlier node writing it |
| parallel-write | nodes that run in parallel writing one key whose reducer is `replace` |
| unknown-tool / unknown-function / unknown-agent / unknown-model / unknown-policy | names nothing known |
| unknown-subgraph / subgraph-cycle | a subgraph file that is missing, invalid or includes itself |
| join | a join that does not read one list key and write one key, or weighs unknown nodes |
| unknown-mcp | an agent or tool node's `mcp:` names a server the team's `mcp:` does not declare (nor the registry) |
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentcore.teams import expr
from agentcore.teams.errors import Problem, TeamSpecError
from agentcore.teams.graph import START, Graphs, always_fires, build
from agentcore.teams.registry import POLICIES, Registry
from agentcore.teams.source import Source
from agentcore.teams.spec import AgentNode, FunctionNode, JoinNode, TeamNode, TeamSpec, ToolNode, placeholders

if TYPE_CHECKING:
    import networkx as nx


def validate(spec: TeamSpec, source: Source, registry: Registry | None = None, *, _stack: tuple[str, ...] = ()) -> None:
    """Raise TeamSpecError listing every problem found (located in `source`); return None when the team can run."""
    problems = list(check(spec, source, registry or Registry(), _stack))
    if problems:
        raise TeamSpecError(problems)


def check(spec: TeamSpec, source: Source, registry: Registry, stack: tuple[str, ...] = ()) -> Iterator[Problem]:
    names_ok = list(_node_refs(spec, source))
    yield from names_ok
    yield from _keys(spec, source)
    yield from _conditions(spec, source)
    yield from _names(spec, source, registry)
    yield from _subgraphs(spec, source, registry, stack)
    yield from _joins(spec, source)
    if names_ok:
        return  # the graph checks below would only repeat the unknown names
    graphs = build(spec)
    yield from _reachability(spec, source, graphs)
    yield from _loops(spec, source, graphs)
    yield from _fallbacks(spec, source)
    yield from _reads(spec, source, graphs)
    yield from _parallel_writes(spec, source, graphs)


def _node_refs(spec: TeamSpec, source: Source) -> Iterator[Problem]:
    known = ", ".join(spec.nodes)
    if spec.topology.exit not in spec.nodes:
        message = f"no node named '{spec.topology.exit}'; nodes: {known}"
        yield source.problem("unknown-node", ("topology", "exit"), message)
    for i, name in enumerate(spec.topology.entry):
        if name not in spec.nodes:
            yield source.problem("unknown-node", ("topology", "entry", i), f"no node named '{name}'; nodes: {known}")
    for i, edge in enumerate(spec.topology.edges):
        for side, names in (("from", edge.source), ("to", edge.target)):
            for name in names:
                if name not in spec.nodes:
                    loc = ("topology", "edges", i, side)
                    yield source.problem("unknown-node", loc, f"no node named '{name}'; nodes: {known}")


def _keys(spec: TeamSpec, source: Source) -> Iterator[Problem]:
    keys = ", ".join(spec.state)
    for field in ("input", "output"):
        key = getattr(spec, field)
        if key is not None and key not in spec.state:
            yield source.problem("unknown-key", (field,), f"the state has no key '{key}'; keys: {keys}")
    for name, node in spec.nodes.items():
        for field in ("reads", "writes"):
            for i, key in enumerate(getattr(node, field)):
                if key not in spec.state:
                    message = f"the state has no key '{key}'; keys: {keys}"
                    yield source.problem("unknown-key", ("nodes", name, field, i), message)
        for loc, text in _templates(name, node):
            for key in placeholders(text):
                if key not in node.reads:
                    message = f"{{{key}}} is used but '{key}' is not in this node's reads {node.reads}; add it to reads"
                    yield source.problem("placeholder", loc, message)


def _templates(name: str, node: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if getattr(node, "prompt", None):
        yield ("nodes", name, "prompt"), node.prompt
    if isinstance(node, ToolNode):
        for arg, value in node.arguments.items():
            if isinstance(value, str):
                yield ("nodes", name, "arguments", arg), value


def _conditions(spec: TeamSpec, source: Source) -> Iterator[Problem]:
    for i, edge in enumerate(spec.topology.edges):
        if edge.when is None:
            continue
        loc = ("topology", "edges", i, "when")
        try:
            condition = expr.parse(edge.when)
        except expr.ExpressionError as exc:
            yield source.problem("condition", loc, f"{edge.when!r}: {exc}")
            continue
        for key in sorted(condition.names - set(spec.state)):
            yield source.problem("unknown-key", loc, f"the condition names '{key}', which the state does not declare")


def _names(spec: TeamSpec, source: Source, registry: Registry) -> Iterator[Problem]:
    for name, node in spec.nodes.items():
        loc: tuple[str | int, ...] = ("nodes", name)
        if isinstance(node, AgentNode):
            yield from _agent_names(spec, source, registry, name, node)
        elif isinstance(node, ToolNode) and node.mcp is not None:
            yield from _unknown_mcp(spec, source, registry, (*loc, "mcp"), node.mcp)
        elif isinstance(node, ToolNode):
            yield from _lookup(source, "unknown-tool", (*loc, "tool"), registry.tool, node.tool)
        elif isinstance(node, FunctionNode):
            yield from _lookup(source, "unknown-function", (*loc, "function"), registry.function, node.function)


def _agent_names(spec: TeamSpec, source: Source, registry: Registry, name: str, node: AgentNode) -> Iterator[Problem]:
    loc: tuple[str | int, ...] = ("nodes", name)
    if node.agent is not None:
        yield from _lookup(source, "unknown-agent", (*loc, "agent"), registry.agent, node.agent)
    for i, tool in enumerate(node.tools):
        yield from _lookup(source, "unknown-tool", (*loc, "tools", i), registry.tool, tool)
    for field in ("model", "tier"):
        value = getattr(node, field)
        if value is None:
            continue
        if field == "tier" and value not in spec.models and value not in registry.models:
            tiers = sorted({*spec.models, *registry.models})
            message = f"unknown tier '{value}'; tiers declared in `models`: {tiers or 'none'}"
            yield source.problem("unknown-model", (*loc, field), message)
        elif field == "model":
            yield from _lookup(
                source, "unknown-model", (*loc, field), lambda v: registry.check_model(v, spec.models), value
            )
    for i, server in enumerate(node.mcp):
        yield from _unknown_mcp(spec, source, registry, (*loc, "mcp", i), server)
    for i, policy in enumerate(node.policies):
        if policy not in POLICIES:
            message = f"unknown policy '{policy}'; allowed: {', '.join(POLICIES)}"
            yield source.problem("unknown-policy", (*loc, "policies", i), message)


def _unknown_mcp(
    spec: TeamSpec, source: Source, registry: Registry, loc: tuple[str | int, ...], server: str
) -> Iterator[Problem]:
    if server not in spec.mcp and server not in registry.toolsets:
        known = sorted({*spec.mcp, *registry.toolsets})
        message = f"no MCP server named '{server}'; declare it under the team's `mcp:` (declared: {known or 'none'})"
        yield source.problem("unknown-mcp", loc, message)


def _lookup(source: Source, rule: str, loc: tuple[str | int, ...], find: Any, name: str) -> Iterator[Problem]:
    try:
        find(name)
    except LookupError as exc:
        yield source.problem(rule, loc, str(exc))


def _subgraphs(spec: TeamSpec, source: Source, registry: Registry, stack: tuple[str, ...]) -> Iterator[Problem]:
    from agentcore.teams.loader import load_spec

    here = source.path.resolve() if source.path else None
    for name, node in spec.nodes.items():
        if not isinstance(node, TeamNode):
            continue
        loc = ("nodes", name, "file")
        path = subgraph_path(source, node)
        if not path.is_file():
            yield source.problem("unknown-subgraph", loc, f"no team file at {path}")
            continue
        key = str(path.resolve())
        if key in stack or key == str(here):
            yield source.problem("subgraph-cycle", loc, f"{path} includes itself (through {' -> '.join(stack)})")
            continue
        try:
            child, child_source = load_spec(path)
            validate(child, child_source, registry, _stack=(*stack, str(here), key))
        except TeamSpecError as exc:
            details = "; ".join(str(p) for p in exc.problems[:5])
            yield source.problem("unknown-subgraph", loc, f"the subgraph {path} is invalid: {details}")


def subgraph_path(source: Source, node: TeamNode) -> Path:
    base = source.path.parent if source.path is not None else Path.cwd()
    return (base / node.file).expanduser()


def _joins(spec: TeamSpec, source: Source) -> Iterator[Problem]:
    for name, node in spec.nodes.items():
        if not isinstance(node, JoinNode):
            continue
        loc = ("nodes", name)
        if len(node.reads) != 1 or len(node.writes) != 1:
            yield source.problem("join", loc, "a join reads one list key (the answers) and writes one key")
        elif node.reads[0] in spec.state and not spec.state[node.reads[0]].type.startswith("list"):
            message = f"a join reads a list; '{node.reads[0]}' has type {spec.state[node.reads[0]].type}"
            yield source.problem("join", (*loc, "reads"), message)
        for voter in node.weights:
            if voter not in spec.nodes:
                yield source.problem("join", (*loc, "weights", voter), f"no node named '{voter}' to weigh")


def _reachability(spec: TeamSpec, source: Source, graphs: Graphs) -> Iterator[Problem]:
    import networkx as nx

    entry, exit_ = ", ".join(spec.topology.entry), spec.topology.exit
    reached = nx.descendants(graphs.full, START)
    reaching = nx.ancestors(graphs.full, exit_) | {exit_}
    for name in spec.nodes:
        if name not in reached:
            yield source.problem("unreachable", ("nodes", name), f"no path from the entry ({entry}) reaches this node")
        elif name not in reaching:
            yield source.problem("no-exit", ("nodes", name), f"no path from this node reaches the exit '{exit_}'")
    for i, edge in enumerate(spec.topology.edges):
        if exit_ in edge.source:
            message = f"the run ends when the exit '{exit_}' finishes; no edge may leave it"
            yield source.problem("exit-edges", ("topology", "edges", i), message)


def _loops(spec: TeamSpec, source: Source, graphs: Graphs) -> Iterator[Problem]:
    import networkx as nx

    loose: nx.DiGraph[str] = graphs.acyclic
    for cycle in nx.simple_cycles(loose):
        path = " -> ".join([*cycle, cycle[0]])
        steps = [_edge_index(spec, a, b) for a, b in zip(cycle, [*cycle[1:], cycle[0]], strict=True)]
        index = next((i for i in steps if spec.topology.edges[i].when), steps[-1])  # where a bound most likely goes
        message = f"the loop {path} has no bound: give one of its edges max_loops: N"
        yield source.problem("unbounded-loop", ("topology", "edges", index), message)
        break  # one cycle is enough to fix; the next run of the validator shows the next


def _edge_index(spec: TeamSpec, source_node: str, target: str) -> int:
    for i, edge in enumerate(spec.topology.edges):
        if source_node in edge.source and target in edge.target:
            return i
    return 0


def _fallbacks(spec: TeamSpec, source: Source) -> Iterator[Problem]:
    for name in spec.nodes:
        if name == spec.topology.exit:
            continue
        out = [e for e in spec.topology.edges if name in e.source]
        if out and not any(always_fires(e) or e.otherwise for e in out):
            message = ("every edge out of this node has a condition or a loop bound, so the run could stop here;"
                       " add an edge with `otherwise: true`")  # fmt: skip
            yield source.problem("no-fallback", ("nodes", name), message)


def _reads(spec: TeamSpec, source: Source, graphs: Graphs) -> Iterator[Problem]:
    import networkx as nx

    given = {key for key, field in spec.state.items() if field.has_default()} | {spec.input}
    for name, node in spec.nodes.items():
        earlier = nx.ancestors(graphs.acyclic, name) - {START}
        written = {key for other in earlier for key in spec.nodes[other].writes}
        for i, key in enumerate(node.reads):
            if key in spec.state and key not in given and key not in written:
                message = (
                    f"reads '{key}', but no earlier node writes it and it has no default; add a default or a writer"
                )
                yield source.problem("unsatisfied-read", ("nodes", name, "reads", i), message)


def _parallel_writes(spec: TeamSpec, source: Source, graphs: Graphs) -> Iterator[Problem]:
    import networkx as nx

    reported: set[str] = set()
    for a, b in combinations(spec.nodes, 2):
        shared = [k for k in spec.nodes[a].writes if k in spec.nodes[b].writes and k in spec.state]
        risky = [k for k in shared if spec.state[k].reducer == "replace" and k not in reported]
        if not risky or not _parallel(graphs, a, b, nx):
            continue
        for key in risky:
            reported.add(key)
            message = (f"nodes '{a}' and '{b}' run in parallel and both write '{key}', whose reducer is replace:"
                       " one write would be lost. Use reducer append, extend or merge")  # fmt: skip
            yield source.problem("parallel-write", ("state", key), message)


def _parallel(graphs: Graphs, a: str, b: str, nx: Any) -> bool:
    """Whether `a` and `b` may run at the same time: neither comes before the other, and one node surely starts
    both (exclusive conditional branches never run together)."""
    acyclic: nx.DiGraph[str] = graphs.acyclic
    if nx.has_path(acyclic, a, b) or nx.has_path(acyclic, b, a):
        return False
    certain: nx.DiGraph[str] = graphs.certain
    starts_a = nx.ancestors(certain, a)
    return any(b in nx.descendants(certain, w) for w in starts_a)
