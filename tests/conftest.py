"""Test set-up: real model calls are blocked unless a test is marked `real_model`."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ["AGENTCORE_BLOCK_REAL_MODELS"] = "1"

from agentcore.models.base import set_real_models_allowed

set_real_models_allowed(False)


@pytest.fixture(autouse=True)
def _real_model_gate(request: pytest.FixtureRequest) -> Iterator[None]:
    allowed = request.node.get_closest_marker("real_model") is not None
    previous = set_real_models_allowed(allowed)
    yield
    set_real_models_allowed(previous)


@pytest.fixture(scope="session")
def default_model_path() -> str:
    """Path of the default GGUF model (pulled by `make test`'s set-up)."""
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    path = model_path(DEFAULT_MODEL)
    if not path.is_file():
        pytest.fail(f"default model missing at {path}: run `make test` (its set-up pulls it)")
    return str(path)


@pytest.fixture(scope="session")
def qwen(default_model_path: str) -> object:
    """One shared in-process Qwen 0.5B for the real-model tests (loaded on first use)."""
    from agentcore.models.llamacpp import LlamaCppModel

    return LlamaCppModel(default_model_path, n_ctx=4096, n_threads=2, seed=0)
