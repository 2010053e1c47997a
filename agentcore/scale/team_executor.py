"""`agentcore team run FILE --executor local|ray|ray://HOST:PORT|auto [--replicas N]`: the executor and registry
for a team run. Local is the engine's own default; on Ray, the default model becomes a `ReplicaPool` (the
`--model`, else the default GGUF) shared by every node, and nodes run as Ray tasks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from agentcore.errors import UserError

Close = Callable[[], None]


async def team_executor(
    args: argparse.Namespace, local_registry: Callable[[argparse.Namespace], Awaitable[Any]]
) -> tuple[Any, Any, Close]:
    """(executor or None for the default, registry, close) for the run's flags."""
    from agentcore.scale.cluster import parse_executor, resolve

    if args.replicas < 1:
        raise UserError(f"--replicas must be at least 1, got {args.replicas}")
    choice = resolve(parse_executor(args.executor))
    if choice.kind == "local":
        return None, await local_registry(args), lambda: None
    from agentcore.models.registry import DEFAULT_MODEL
    from agentcore.scale.ray_executor import RayExecutor
    from agentcore.scale.replicas import ReplicaPool
    from agentcore.teams.registry import Registry

    if not args.quiet:
        print(f"starting {args.replicas} model replica(s) on Ray ...", file=sys.stderr, flush=True)
    pool = ReplicaPool.start(args.model or DEFAULT_MODEL, args.replicas, threads=args.threads or 1)
    registry = Registry(models={"default": pool})
    return RayExecutor(registry), registry, pool.close
