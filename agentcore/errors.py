"""Errors by audience.

- `ModelRetry`: the model sees the message and tries again.
- `UserError`: the developer misused the API or gave bad configuration; the message says where and how to fix it.
- `AgentRunError` and its family: runtime failures, each carrying the partial run for debugging.

Constructors do no logging and no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentcore.result import RunResult


class AgentcoreError(Exception):
    """Base class of every error this package raises on purpose."""


class UserError(AgentcoreError):
    """The API was misused, or configuration is invalid. The message says where and how to fix it."""


class ModelRetry(AgentcoreError):
    """Raised by a tool (or by validation) to send a message back to the model so that it tries again."""


class ModelError(AgentcoreError):
    """A model backend failed: the server answered an error, the output broke its schema, and so on."""


class ModelUnavailableError(ModelError):
    """The model cannot be reached or loaded (a server down, a missing file). Not retried: the run ends."""


class ModelBackendError(ModelError):
    """A backend raised an unexpected exception or returned something that is not a ModelResponse. Not retried."""


class ContextOverflowError(ModelError):
    """The prompt does not fit in the model's context window (and no trimming policy could make it fit)."""

    def __init__(self, prompt_tokens: int, n_ctx: int, max_tokens: int) -> None:
        super().__init__(
            f"prompt of {prompt_tokens} tokens plus {max_tokens} tokens to generate does not fit in n_ctx={n_ctx};"
            " raise n_ctx, shorten the task, or enable history trimming"
        )
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx
        self.max_tokens = max_tokens


class RealModelBlockedError(AgentcoreError):
    """A real model was called while real calls are blocked (unit tests). Mark the test `real_model`."""


class AgentRunError(AgentcoreError):
    """A run failed at run time. `partial` holds what the run produced before it failed."""

    def __init__(self, message: str, partial: RunResult[Any] | None = None) -> None:
        super().__init__(message)
        self.partial = partial


class ModelFailedError(AgentRunError, ModelError):
    """The run ended because its model failed (unreachable, crashed, or returned garbage); `partial` holds the
    run so far and `__cause__` the backend's error."""


class UsageLimitExceeded(AgentRunError):
    """The run hit max_steps or another usage limit."""


class RunTimeoutError(AgentRunError):
    """The run's overall timeout elapsed."""


class RunCancelledError(AgentRunError):
    """The run was cancelled through its cancel event."""
