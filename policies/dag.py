"""Moved to `agentcore.teams.dag` (subtask plans belong with the team engine); kept for old imports."""

from agentcore.teams.dag import (
    DecompositionError,
    Subtask,
    build_dag,
    child_task,
    dag_to_dict,
    plan_schema,
    single_node_dag,
    subtask_ids,
    subtask_of,
)

__all__ = [
    "DecompositionError",
    "Subtask",
    "build_dag",
    "child_task",
    "dag_to_dict",
    "plan_schema",
    "single_node_dag",
    "subtask_ids",
    "subtask_of",
]
