"""Agents named by import path in tests/unit/test_batch.py (`--agent batch_agents:agent`)."""

from __future__ import annotations

import re

from agentcore.agent import Agent
from agentcore.messages import ModelRequest
from agentcore.testing import FunctionModel


def _answer(request: ModelRequest) -> str:
    found = re.search(r"(\d+) \+ (\d+)", request.messages[-1].content)
    assert found is not None
    return str(int(found.group(1)) + int(found.group(2)))


def agent() -> Agent[None, str]:
    """A tool-less agent that adds the two numbers of its task."""
    return Agent(FunctionModel(_answer), tools=[], max_steps=2)
