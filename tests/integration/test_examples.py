"""Every example runs: `examples/demo.py` is what `make demo` shows a new user."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.real_model
def test_demo_runs_its_three_tasks_on_the_real_model() -> None:
    env = {k: v for k, v in os.environ.items() if k != "AGENTCORE_BLOCK_REAL_MODELS"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answers = [line for line in done.stdout.splitlines() if line.startswith("Answer:")]
    assert len(answers) == 3
    assert "Paris" in answers[2]  # the direct question, answered without tools
    assert "3702" in answers[0] and "174" in answers[1]
