"""Declarative multi-agent teams: a YAML file with a typed `state`, `nodes` behind one interface, and a
`topology` (entry, exit, conditional edges, fan-out, joins, bounded loops). See docs/teams.md.

    from agentcore.teams import Team, Registry
    team = Team.load("examples/teams/vote.yaml")
    result = await team.run("What is 17 * 23?")

| module | job |
|---|---|
| `source`, `loader`, `spec`, `errors` | YAML with positions, pydantic models, located errors, the JSON Schema |
| `validate`, `graph`, `expr` | whole-team checks on networkx graphs; Mermaid; the safe condition language |
| `engine`, `result`, `nodes`, `state` | the async engine, its result, node kinds, typed state |
| `executor`, `checkpoint` | dispatch (local, later Ray), resume |
| `joins` | majority, weighted, Optimal Weight and Inverse Surprising Popularity |
| `decompose`, `dag` | the task decomposer (a DAG of subtasks planned by a model) |
| `design` | the meta-architect: a model drafts a team file under a grammar, repaired by the validator |

Names load lazily: `import agentcore.teams` costs nothing until one is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore.lazy import lazy_getattr

_EXPORTS = {
    "Team": "agentcore.teams.engine",
    "TeamResult": "agentcore.teams.result",
    "TeamEvent": "agentcore.teams.result",
    "NodeRecord": "agentcore.teams.result",
    "Registry": "agentcore.teams.registry",
    "register_function": "agentcore.teams.registry",
    "TeamSpec": "agentcore.teams.spec",
    "TeamSpecError": "agentcore.teams.errors",
    "Executor": "agentcore.teams.executor",
    "LocalExecutor": "agentcore.teams.executor",
    "NodeJob": "agentcore.teams.executor",
}

if TYPE_CHECKING:
    from agentcore.teams.engine import Team
    from agentcore.teams.errors import TeamSpecError
    from agentcore.teams.executor import Executor, LocalExecutor, NodeJob
    from agentcore.teams.registry import Registry, register_function
    from agentcore.teams.result import NodeRecord, TeamEvent, TeamResult
    from agentcore.teams.spec import TeamSpec


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


__all__ = [
    "Executor",
    "LocalExecutor",
    "NodeJob",
    "NodeRecord",
    "Registry",
    "Team",
    "TeamEvent",
    "TeamResult",
    "TeamSpec",
    "TeamSpecError",
    "register_function",
]
