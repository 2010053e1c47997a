"""`agentcore chat`: an interactive conversation with an agent, kept in a session.

Each line the user types is one run that continues the session (`agent.run(line, session=...)`); progress goes to
stderr as in `agentcore run`, answers to stdout. `/exit` (or end of input) leaves; `/reset` clears the session.
A run error is reported and the conversation goes on: the session keeps only completed turns.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any, TextIO

from agentcore.errors import AgentcoreError
from agentcore.events import Event


async def chat_loop(
    agent: Any,
    session: Any,
    *,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    on_event: Callable[[Event], None] | None = None,
    timeout: float | None = None,
) -> int:
    """Read lines until /exit or end of input; returns the number of completed turns."""
    out = out or sys.stdout
    turns = 0
    while True:
        try:
            line = (await asyncio.to_thread(read, "you> ")).strip()
        except EOFError:
            return turns
        if line in ("/exit", "/quit"):
            return turns
        if line == "/reset":
            await session.clear()
            print("(conversation cleared)", file=out, flush=True)
            continue
        if not line:
            continue
        try:
            result = await agent.run(line, session=session, on_event=on_event, timeout=timeout)
        except AgentcoreError as exc:
            print(f"agentcore: run stopped: {exc}", file=sys.stderr, flush=True)
            continue
        if result.ok:
            turns += 1
            print(f"agent> {result.output}", file=out, flush=True)
        else:
            print(f"agentcore: [{result.status}] {result.error}", file=sys.stderr, flush=True)
