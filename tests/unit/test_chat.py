"""`agentcore chat`'s loop on a scripted model: turns continue one session, /reset clears it, errors go on."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from agentcore.agent import Agent
from agentcore.chat import chat_loop
from agentcore.sessions import SQLiteSession
from agentcore.testing import ScriptedModel


def lines(*typed: str) -> Callable[[str], str]:
    queue = list(typed)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


async def test_chat_turns_continue_one_session_and_resume(tmp_path: Path) -> None:
    model = ScriptedModel(["Paris", "About 2 million", "Yes"])
    out = io.StringIO()
    session = SQLiteSession("c1", tmp_path / "s.db")
    turns = await chat_loop(Agent(model), session, read=lines("Capital of France?", "", "Population?"), out=out)
    assert turns == 2 and out.getvalue().splitlines() == ["agent> Paris", "agent> About 2 million"]
    assert "Capital of France?" in model.requests[1].messages[1].content  # turn 2 saw turn 1
    again = await chat_loop(Agent(model), SQLiteSession("c1", tmp_path / "s.db"), read=lines("Sure?", "/exit"), out=out)
    assert again == 1 and len(model.requests[2].messages) == 6  # system + 2 earlier turns + the new task


async def test_reset_clears_and_a_failed_turn_does_not_end_the_chat(tmp_path: Path) -> None:
    session = SQLiteSession("c2", tmp_path / "s.db")
    model = ScriptedModel(["one", "two"])
    out = io.StringIO()
    agent = Agent(model, max_steps=1)
    turns = await chat_loop(agent, session, read=lines("first", "/reset", "second", "/exit"), out=out)
    assert turns == 2 and "(conversation cleared)" in out.getvalue()
    assert len(model.requests[1].messages) == 2  # after /reset the second turn starts fresh
    assert len(await session.messages()) == 2
