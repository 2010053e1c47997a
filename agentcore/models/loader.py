"""One place that turns "what the user named" into a Model: an instance, a registry name, a GGUF path or a URL.

Loaded local models are shared per (path, settings) within the process: their weights are mmapped once.
"""

from __future__ import annotations

from typing import Any

from agentcore.errors import UserError
from agentcore.models.base import Model

_loaded: dict[tuple[Any, ...], Model] = {}


def load_model(spec: Model | str | None, **settings: Any) -> Model:
    if spec is not None and not isinstance(spec, str):
        if not isinstance(spec, Model):
            raise UserError(f"model must be a Model, a registry name, a .gguf path or a URL, not {type(spec).__name__}")
        return spec
    from agentcore.models.registry import DEFAULT_MODEL, resolve_model

    resolved = resolve_model(spec or DEFAULT_MODEL)
    key = (resolved.kind, str(resolved.path or resolved.url), tuple(sorted(settings.items())))
    if key not in _loaded:
        _loaded[key] = _make(resolved, settings)
    return _loaded[key]


def _make(resolved: Any, settings: dict[str, Any]) -> Model:
    if resolved.kind == "http":
        from agentcore.models.openai_compat import OpenAICompatModel

        return OpenAICompatModel(resolved.url, **settings)
    from agentcore.models.llamacpp import LlamaCppModel

    return LlamaCppModel(resolved.path, name=resolved.name, **settings)
