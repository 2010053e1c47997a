"""`agentcore batch run TASKS --out RESULTS [--agent module:name] [--executor local|ray|... --replicas N]`.

Registered by a few lines in agentcore/cli.py. Progress goes to stderr; a summary line ends the run. Without
`--agent` the agent is the one `agentcore run` builds from `--model`, `--tools` and `--max-steps`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from functools import partial
from typing import Any

from agentcore.errors import UserError


def add_parser(sub: Any) -> None:
    batch = sub.add_parser("batch", help="run many tasks (JSON Lines) into a resumable results file")
    actions = batch.add_subparsers(dest="action", required=True)
    run = actions.add_parser("run", help="run every task of a task file; finished tasks are skipped on restart")
    run.add_argument("tasks", help="JSON Lines, one {'id': ..., 'task': ...} a line (the bench format)")
    run.add_argument("--out", required=True, help="results file (JSON Lines), appended and resumed")
    run.add_argument("--agent", default=None, help="an Agent (or a function returning one) as 'package.module:name'")
    run.add_argument("--model", default=None, help="registry name, .gguf path or URL (default: the agent's)")
    run.add_argument("--tools", default="calculator", help="built-in tools of the default agent")
    run.add_argument("--max-steps", type=int, default=6)
    run.add_argument("--max-tokens", type=int, default=None, help="generated tokens per model turn")
    run.add_argument("--executor", default="local", help="local (default), ray, ray://HOST:PORT or auto")
    run.add_argument("--replicas", type=int, default=1, help="model replicas (Ray actors) with --executor ray")
    run.add_argument("--threads", type=int, default=None, help="llama.cpp threads (per replica on Ray)")
    run.add_argument("--concurrency", type=int, default=None, help="tasks in flight (default: 2 per replica)")
    run.add_argument("--timeout", type=float, default=None, help="seconds per task")
    run.add_argument("--memory", default=None, help="memory directory (on Ray: written through one owner actor)")
    run.add_argument("--quiet", action="store_true", help="no progress, only the summary")


def main(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


def _check(args: argparse.Namespace) -> None:
    wrong = [
        message
        for ok, message in [
            (args.replicas >= 1, f"--replicas must be at least 1, got {args.replicas}"),
            (args.threads is None or args.threads >= 1, f"--threads must be at least 1, got {args.threads}"),
            (args.concurrency is None or args.concurrency >= 1, "--concurrency must be at least 1"),
            (args.max_steps >= 1, f"--max-steps must be at least 1, got {args.max_steps}"),
            (args.timeout is None or args.timeout > 0, "--timeout must be a positive number of seconds"),
        ]
        if not ok
    ]
    if wrong:
        raise UserError("; ".join(wrong))


async def _run(args: argparse.Namespace) -> int:
    from agentcore.scale.batch import run_batch
    from agentcore.scale.cluster import parse_executor, resolve
    from agentcore.scale.tasks import read_tasks

    _check(args)
    choice = parse_executor(args.executor)  # before anything loads: a typo costs nothing
    tasks = read_tasks(args.tasks)
    agent = make_agent(args)
    pool, model = await _models(args, agent, resolve(choice))
    concurrency = args.concurrency or 2 * (args.replicas if pool is not None else 1)
    show = _Progress(args.quiet)
    try:
        report = await run_batch(tasks, agent, args.out, model=model, concurrency=concurrency,
                                 timeout=args.timeout, progress=show)  # fmt: skip
    finally:
        if pool is not None:
            pool.close()
    show.end()
    where = f"ray, {args.replicas} replica(s)" if pool is not None else "local"
    print(f"batch: {report.ran} run ({report.completed} completed, {report.failed} failed, {report.errors} errors),"
          f" {report.skipped} already done; {report.tasks_per_minute:.1f} tasks/min ({where}) -> {args.out}",
          file=sys.stderr)  # fmt: skip
    return 0 if report.errors == 0 else 3


async def _models(args: argparse.Namespace, agent: Any, choice: Any) -> tuple[Any, Any]:
    """(the replica pool or None, the model the runs use or None for the agent's own); attaches `--memory`."""
    if choice.kind == "ray":
        from agentcore.scale.replicas import ReplicaPool

        _say(args, f"starting {args.replicas} model replica(s) on Ray ...")
        pool = ReplicaPool.start(replica_factory(args, agent), args.replicas, threads=args.threads or 1)
        if args.memory:  # one owner actor for the directory, shared by every batch driver of the cluster
            from agentcore.scale.memory_owner import MemoryOwner, owned_memory

            agent.memory = owned_memory(MemoryOwner.start(args.memory))
        return pool, pool
    if args.memory:
        from agentcore.memory import Memory

        agent.memory = Memory.open(args.memory)
    if args.model is None and _has_model(agent):
        return None, None
    from agentcore.models.loader import load_model_async

    spec = args.model or agent.model
    settings = {} if str(spec).startswith(("http://", "https://")) else {"n_threads": args.threads}
    return None, await load_model_async(spec, progress=partial(_say, args), **settings)


def make_agent(args: argparse.Namespace) -> Any:
    """The `--agent` import path (an Agent, an Agent class or a function returning one), or the default agent."""
    from agentcore.agent import Agent

    if args.agent:
        from agentcore.teams.registry import import_path

        try:
            found = import_path(args.agent)
        except LookupError as exc:
            raise UserError(f"--agent {args.agent}: {exc}") from None
        agent = found() if callable(found) and not isinstance(found, Agent) else found
        if not isinstance(agent, Agent):
            raise UserError(f"--agent {args.agent} is a {type(agent).__name__}, not an Agent (or a factory of one)")
    else:
        from agentcore.tools.builtin import builtin_toolset

        names = [n.strip() for n in args.tools.split(",") if n.strip()]
        agent = Agent(args.model, tools=builtin_toolset(names), max_steps=args.max_steps)
    if args.max_tokens is not None:
        agent.max_tokens = args.max_tokens
    return agent


def _has_model(agent: Any) -> bool:
    return agent.model is not None and not isinstance(agent.model, str)


def replica_factory(args: argparse.Namespace, agent: Any) -> Any:
    """What each replica loads: the model spec (a name, path or URL), or the `--agent`'s own model object,
    rebuilt in the replica by importing the agent's module there."""
    from agentcore.models.registry import DEFAULT_MODEL

    if args.model is not None or not _has_model(agent):
        return args.model or agent.model or DEFAULT_MODEL
    return partial(agent_model, args.agent)


def agent_model(path: str) -> Any:
    from agentcore.agent import Agent
    from agentcore.teams.registry import import_path

    found = import_path(path)
    agent = found() if callable(found) and not isinstance(found, Agent) else found
    return agent.model


def _say(args: argparse.Namespace, line: str) -> None:
    if not args.quiet:
        print(line, file=sys.stderr, flush=True)


class _Progress:
    """A one-line progress bar on a terminal (a line per ~5% otherwise)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet, self.tty = quiet, sys.stderr.isatty()
        self.last_step = -1
        self.started = time.perf_counter()

    def __call__(self, report: Any) -> None:
        if self.quiet or report.total == 0:
            return
        step = report.done * 20 // report.total
        if not self.tty and step == self.last_step and report.done != report.total:
            return
        self.last_step = step
        bar = "#" * step + "." * (20 - step)
        rate = f"{report.tasks_per_minute:.1f} tasks/min" if report.ran else "starting"
        text = (f"[{bar}] {report.done}/{report.total} ({report.completed} ok, {report.failed} failed,"
                f" {report.errors} errors, {report.skipped} skipped) {rate}")  # fmt: skip
        print(("\r" + text) if self.tty else text, end="" if self.tty else "\n", file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.tty and not self.quiet:
            print(file=sys.stderr)
