"""Moved to `agentcore.teams.decompose` (the decomposer is a team engine, not a policy); kept for old imports."""

from agentcore.teams.decompose import (
    Decomposer,
    DecompositionError,
    DecompositionResult,
    Subtask,
    SubtaskResult,
    single_node_dag,
)

__all__ = ["Decomposer", "DecompositionError", "DecompositionResult", "Subtask", "SubtaskResult", "single_node_dag"]
