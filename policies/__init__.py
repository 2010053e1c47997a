"""Policies: each in its own module behind the `agentcore.policy.Policy` interface.

| module | what |
|---|---|
| `router` / `routing` | 5-factor complexity router; `RoutingPolicy` wires it into a run (direct vs tools, model tier) |
| `optimizer` / `context` | prompt optimiser (compact tool descriptions, filler, de-duplication), observation trimming |
| `decompose` / `dag` | task decomposition into a networkx DAG, run with parents' results passed down |
| `advisor` | a (small) model advising the main one: advice first, or review then revise |
| `toolguard` / `provenance` | Tool-Guard isolated planning and validation against poisoned tool descriptions |

Import from the module (`from agentcore.policies.routing import RoutingPolicy`): each loads only what it needs.
"""
