"""agentcore: an async agent runtime for small local language models on llama.cpp.

The public names load lazily, so `import agentcore` stays fast (pydantic, httpx, structlog and llama_cpp load
only when first used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentcore.lazy import lazy_getattr

__version__ = "0.1.0"

_EXPORTS = {
    "Agent": "agentcore.agent",
    "RunContext": "agentcore.context",
    "RunResult": "agentcore.result",
    "Ledger": "agentcore.result",
    "Step": "agentcore.result",
    "Policy": "agentcore.policy",
    "Veto": "agentcore.policy",
    "Message": "agentcore.messages",
    "ToolCall": "agentcore.messages",
    "Usage": "agentcore.messages",
    "ModelRetry": "agentcore.errors",
    "UserError": "agentcore.errors",
    "AgentRunError": "agentcore.errors",
    "UsageLimitExceeded": "agentcore.errors",
    "RunTimeoutError": "agentcore.errors",
    "RunCancelledError": "agentcore.errors",
    "tool": "agentcore.tools.function",
    "Tool": "agentcore.tools.function",
    "FunctionToolset": "agentcore.tools.toolset",
    "configure_logging": "agentcore.log",
}

if TYPE_CHECKING:
    from agentcore.agent import Agent
    from agentcore.context import RunContext
    from agentcore.errors import (
        AgentRunError,
        ModelRetry,
        RunCancelledError,
        RunTimeoutError,
        UsageLimitExceeded,
        UserError,
    )
    from agentcore.log import configure_logging
    from agentcore.messages import Message, ToolCall, Usage
    from agentcore.policy import Policy, Veto
    from agentcore.result import Ledger, RunResult, Step
    from agentcore.tools.function import Tool, tool
    from agentcore.tools.toolset import FunctionToolset


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


__all__ = [
    "Agent",
    "AgentRunError",
    "FunctionToolset",
    "Ledger",
    "Message",
    "ModelRetry",
    "Policy",
    "RunCancelledError",
    "RunContext",
    "RunResult",
    "RunTimeoutError",
    "Step",
    "Tool",
    "ToolCall",
    "Usage",
    "UsageLimitExceeded",
    "UserError",
    "Veto",
    "configure_logging",
    "tool",
]
