"""`agentcore chat` as a user runs it: a real process, the real model, a session that a second process resumes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def chat(db: Path, typed: str, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "AGENTCORE_BLOCK_REAL_MODELS"}
    command = [sys.executable, "-m", "agentcore.cli", "chat", "--sessions-db", str(db), "--threads", "2", *flags]
    return subprocess.run(command, input=typed, capture_output=True, text=True, env=env, timeout=600, check=False)


@pytest.mark.real_model
def test_a_chat_remembers_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    first = chat(db, "A gizmo costs 7 dollars. What do 12 gizmos cost?\n/exit\n", "--session", "shop")
    assert first.returncode == 0, first.stderr[-1500:]
    assert "agent> 84" in first.stdout and "resume with: agentcore chat --session shop" in first.stderr
    second = chat(db, "And what do 30 gizmos cost?\n", "--session", "shop")
    assert second.returncode == 0, second.stderr[-1500:]
    assert "(2 earlier messages)" not in second.stderr and "earlier messages" in second.stderr
    assert "agent> 210" in second.stdout
