"""Ask a remote A2A agent (any A2A server: ours or another framework's), directly or as a tool of a local agent.

.venv/bin/python examples/a2a_client.py http://127.0.0.1:9999/ "what is 12 * 12?"
"""

from __future__ import annotations

import asyncio
import os
import sys

from agentcore.protocols.a2a_client import A2AAgentToolset


async def main(url: str, task: str) -> str:
    remote = A2AAgentToolset(url, token=os.environ.get("A2A_TOKEN"), timeout=120, on_update=print)
    async with remote:
        print(f"remote agent {remote.card.name!r}: {[skill.name for skill in remote.card.skills]}")
        answer = await remote.ask(task)  # or: Agent(model, tools=[remote]) to let a local model delegate
    print("Answer:", answer)
    return answer


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
