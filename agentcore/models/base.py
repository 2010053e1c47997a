"""The `Model` protocol every backend implements, and the switch that blocks real model calls in unit tests."""

from __future__ import annotations

import os
from typing import Protocol, runtime_checkable

from agentcore.errors import RealModelBlockedError
from agentcore.messages import Model

__all__ = ["Model", "TokenCounter", "check_real_model_allowed", "real_models_allowed", "set_real_models_allowed"]


@runtime_checkable
class TokenCounter(Protocol):
    """Backends that can count tokens with the model's own tokenizer implement this too."""

    def count_tokens(self, text: str) -> int: ...


_real_allowed: bool = os.environ.get("AGENTCORE_BLOCK_REAL_MODELS", "") != "1"


def real_models_allowed() -> bool:
    return _real_allowed


def set_real_models_allowed(allowed: bool) -> bool:
    """Allow or block real model calls; returns the previous setting (tests restore it)."""
    global _real_allowed
    previous, _real_allowed = _real_allowed, allowed
    return previous


def check_real_model_allowed(backend: str) -> None:
    """Called by real backends before they load or call anything."""
    if not _real_allowed:
        raise RealModelBlockedError(
            f"real model call to {backend} blocked: unit tests use agentcore.testing models;"
            " mark the test with @pytest.mark.real_model to use the real model"
        )
