"""Policies: each in its own module behind the `agentcore.policy.Policy` interface.

| module | what |
|---|---|
| `router` / `routing` | 5-factor complexity router; `RoutingPolicy` wires it into a run (direct vs tools, model tier) |
| `optimizer` / `context` | prompt optimiser (compact tool descriptions, filler, de-duplication), observation trimming |
| `advisor` | a (small) model advising the main one: advice first, or review then revise |
| `toolguard` / `provenance` | Tool-Guard isolated planning and validation against poisoned tool descriptions |

The task decomposer and its DAG moved to `agentcore.teams` (`decompose`, `dag`): they run teams, they are not
policies. `agentcore.policies.decompose` and `.dag` still re-export them for old imports.

Import from the module (`from agentcore.policies.routing import RoutingPolicy`): each loads only what it needs.
"""
