"""Every Python block of the README runs, on the real default model, and prints what its marker expects.

A block may be preceded by `<!-- readme-test: expects "TEXT" -->`: its output must contain TEXT. The README's
examples are the first thing a user runs, so they are tests (STYLE.md, practice 11).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r'(?:<!-- readme-test: expects "(?P<expects>[^"]*)" -->\n)?```python\n(?P<code>.*?)```', re.S)


def blocks() -> list[tuple[str, str | None]]:
    return [(m["code"], m["expects"]) for m in BLOCK.finditer((ROOT / "README.md").read_text())]


def test_the_readme_has_runnable_examples() -> None:
    found = blocks()
    assert len(found) >= 3 and all(expects for _, expects in found)


@pytest.mark.real_model
@pytest.mark.parametrize("index", range(len(blocks())))
def test_readme_block_runs_and_is_right(index: int) -> None:
    code, expects = blocks()[index]
    env = {**os.environ, "AGENTCORE_BLOCK_REAL_MODELS": "0"}  # the unit-test gate must not reach the example
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert expects is None or expects in done.stdout, done.stdout[-2000:]
