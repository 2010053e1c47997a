"""Checkpoints: after each node, the run's state and scheduler position as one JSON file per run, so that an
interrupted run resumes where it stopped (`agentcore team run FILE --resume RUN_ID`). Nodes that were running
when the run stopped run again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentcore.errors import UserError


def checkpoint_path(folder: Path, run_id: str) -> Path:
    if not run_id.isalnum():
        raise UserError(f"run id {run_id!r} is not a run id (letters and digits)")
    return folder / f"{run_id}.json"


def write_checkpoint(folder: Path, snapshot: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = checkpoint_path(folder, snapshot["run_id"])
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(snapshot, ensure_ascii=False, default=str))
    tmp.replace(path)  # atomic: a crash mid-write keeps the previous checkpoint


def read_checkpoint(folder: Path | None, run_id: str, team: str) -> dict[str, Any]:
    if folder is None:
        raise UserError("this team has no checkpoint_dir, so it has no runs to resume")
    path = checkpoint_path(folder, run_id)
    try:
        saved: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        raise UserError(f"no checkpoint for run {run_id} in {folder}") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"the checkpoint {path} cannot be read: {exc}") from None
    if saved.get("team") != team:
        raise UserError(f"run {run_id} belongs to team {saved.get('team')!r}, not {team!r}")
    if saved.get("status") == "completed":
        raise UserError(f"run {run_id} already completed; nothing to resume")
    return saved
