"""Lazy public names for a package: `import agentcore` (or `.teams`, `.memory`) stays fast, and a name's module
loads on first use."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_getattr(package: str, exports: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module `__getattr__` that imports `exports[name]` on first use and caches the name in `namespace`."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
