"""`--executor local|ray|ray://host:port|auto` to a connected Ray, or to the local asyncio executor.

- `local`: no Ray at all (the default).
- `ray`: the cluster named by RAY_ADDRESS, else a private one started on this machine.
- `ray://host:port`: a remote cluster's Ray Client server (10001 by default on the head: `ray start --head`).
- `auto`: a running cluster when Ray is installed and one is reachable (RAY_ADDRESS, or `ray start` on this
  machine), else local.

Ray started here keeps a small footprint: no dashboard, a small object store, worker logs not streamed to the
driver. Ray is imported only here, and only when a Ray executor is asked for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from agentcore.errors import UserError

INSTALL_HINT = "Ray is not installed: pip install 'agentcore[ray]' (or use --executor local)"
OBJECT_STORE_BYTES = 80 * 1024 * 1024  # node inputs and outputs are small JSON values; Ray's minimum is ~75 MiB


@dataclass(frozen=True, slots=True)
class ExecutorChoice:
    kind: str  # "local" or "ray"
    address: str | None = None  # None: RAY_ADDRESS or a private local cluster; "auto"; or "ray://host:port"


def parse_executor(value: str) -> ExecutorChoice:
    """The executor a `--executor` value names (UserError for anything else)."""
    text = value.strip()
    if text == "local":
        return ExecutorChoice("local")
    if text == "ray":
        return ExecutorChoice("ray")
    if text == "auto":
        return ExecutorChoice("ray", "auto")
    if text.startswith("ray://"):
        host, _, port = text.removeprefix("ray://").partition(":")
        if not host or (port and not port.isdigit()):
            raise UserError(f"--executor {value!r}: a Ray address looks like ray://HOST:PORT (10001 by default)")
        return ExecutorChoice("ray", text if port else f"{text}:10001")
    raise UserError(f"--executor {value!r} is not allowed; allowed: local, ray, ray://HOST:PORT, auto")


def ray_available() -> bool:
    from importlib.util import find_spec

    return find_spec("ray") is not None


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UserError(INSTALL_HINT) from None
    return ray


def resolve(choice: ExecutorChoice, *, num_cpus: int | None = None) -> ExecutorChoice:
    """Connect for a Ray choice (see `connect`); `auto` without Ray or without a reachable cluster is local."""
    if choice.kind == "local":
        return choice
    if choice.address == "auto":
        if not ray_available():
            return ExecutorChoice("local")
        try:
            connect("auto")
        except ConnectionError:
            return ExecutorChoice("local")
        return choice
    connect(choice.address, num_cpus=num_cpus)
    return choice


def connect(address: str | None = None, *, num_cpus: int | None = None) -> Any:
    """Connect this process to Ray once (later calls reuse the connection); returns the `ray` module.

    `address`: None (RAY_ADDRESS, else start a private cluster with `num_cpus`), "auto" (a running cluster on
    this machine; ConnectionError when there is none) or "ray://host:port"."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    target = address or os.environ.get("RAY_ADDRESS") or None
    if target is not None and target.startswith("ray://"):
        ray.init(address=target)  # Ray Client: the cluster's own settings hold; driver options would go to it
        return ray
    options: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
    if target is None:  # a private cluster ("local": never a stale `ray start` left on this machine)
        target = "local"
        options |= {"num_cpus": num_cpus or os.cpu_count() or 1, "include_dashboard": False,
                    "object_store_memory": OBJECT_STORE_BYTES}  # fmt: skip
    ray.init(address=target, **options)
    return ray


def shutdown() -> None:
    """Disconnect (and stop a private cluster); nothing when Ray was never connected."""
    import sys

    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        ray.shutdown()
