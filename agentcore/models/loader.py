"""One place that turns "what the user named" into a Model: an instance, a registry name, a GGUF path or a URL.

Loaded local models are shared per (path, settings) within the process: their weights are mmapped once.
`load_model_async` does the slow parts (a pip pull of hundreds of MB, reading the weights) in worker threads, so
an event loop stays responsive and a caller's timeout or cancellation applies to them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from agentcore.errors import UserError
from agentcore.models.base import Model

Progress = Callable[[str], None]

_loaded: dict[tuple[Any, ...], Model] = {}
_loaded_lock = threading.Lock()  # load_model_async calls load from worker threads


@runtime_checkable
class _Warmable(Protocol):
    """A backend with weights to read before its first call (LlamaCppModel)."""

    @property
    def loaded(self) -> bool: ...

    async def aload(self) -> None: ...


def load_model(spec: Model | str | None, *, progress: Progress | None = None, **settings: Any) -> Model:
    """The Model for `spec`; a registry name not yet cached is pulled first (blocking: see load_model_async)."""
    return _load(spec, progress, None, settings)


async def load_model_async(spec: Model | str | None, *, progress: Progress | None = None, **settings: Any) -> Model:
    """`load_model` off the event loop, then the weights read (for in-process models), reporting `progress`
    lines. Cancelling the awaiting task stops a pull in progress (pip is killed); a weights load already in
    llama.cpp finishes in its thread and is kept for the next caller."""
    cancel = threading.Event()
    try:
        model = await asyncio.to_thread(_load, spec, progress, cancel, settings)
    except asyncio.CancelledError:
        cancel.set()
        raise
    if isinstance(model, _Warmable) and not model.loaded:
        say = progress or (lambda _line: None)
        say(f"loading model {model.name} ...")
        started = time.perf_counter()
        await model.aload()
        say(f"model loaded in {time.perf_counter() - started:.1f}s")
    return model


def _load(
    spec: Model | str | None, progress: Progress | None, cancel: threading.Event | None, settings: dict[str, Any]
) -> Model:
    if spec is not None and not isinstance(spec, str):
        if not isinstance(spec, Model):
            raise UserError(f"model must be a Model, a registry name, a .gguf path or a URL, not {type(spec).__name__}")
        return spec
    from agentcore.models.registry import DEFAULT_MODEL, resolve_model

    resolved = resolve_model(spec or DEFAULT_MODEL, progress=progress, cancel=cancel)
    key = (resolved.kind, str(resolved.path or resolved.url), tuple(sorted(settings.items())))
    with _loaded_lock:
        model = _loaded.get(key)
    if model is None:
        made = _make(resolved, settings)  # cheap: backends read weights lazily, so a lost race costs nothing
        with _loaded_lock:
            model = _loaded.setdefault(key, made)
    return model


def _make(resolved: Any, settings: dict[str, Any]) -> Model:
    if resolved.kind == "http":
        from agentcore.models.openai_compat import OpenAICompatModel

        return OpenAICompatModel(resolved.url, **settings)
    from agentcore.models.llamacpp import LlamaCppModel

    return LlamaCppModel(resolved.path, name=resolved.name, **settings)
