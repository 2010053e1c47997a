"""`agentcore team validate|run|graph|schema|design`. Registered by a few lines in agentcore/cli.py.

Progress goes to stderr, the answer (or the schema, the graph, the drafted file) to stdout; errors are one
located line per problem, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    team = sub.add_parser("team", help="declarative multi-agent teams (YAML): validate, run, graph, schema, design")
    actions = team.add_subparsers(dest="action", required=True)
    check = actions.add_parser("validate", help="check team files; every problem with its file, line and field")
    check.add_argument("files", nargs="+")
    run = actions.add_parser("run", help="run a team file on a task, showing node-by-node progress")
    run.add_argument("file")
    run.add_argument("--task", default=None)
    run.add_argument("--resume", default=None, metavar="RUN_ID", help="continue an interrupted run")
    run.add_argument("--model", default=None, help="the default model (registry name, .gguf path or URL)")
    run.add_argument("--timeout", type=float, default=None, help="seconds for the whole team run")
    run.add_argument("--threads", type=int, default=None)
    run.add_argument("--n-ctx", type=int, default=4096)
    run.add_argument("--checkpoints", default=None, help="checkpoint folder (default: the cache folder)")
    run.add_argument("--json", action="store_true", help="print the result (state, ledger) as JSON")
    run.add_argument("--quiet", action="store_true", help="print only the answer")
    run.add_argument("--executor", default="local", help="where nodes run: local (default), ray, ray://HOST:PORT, auto")
    run.add_argument("--replicas", type=int, default=1, help="model replicas (Ray actors) with a Ray executor")
    graph = actions.add_parser("graph", help="draw the topology: Mermaid text, or an SVG/PNG picture")
    graph.add_argument("file")
    graph.add_argument("--format", choices=["mermaid", "svg", "png"], default="mermaid")
    graph.add_argument("--out", default=None, help="output file (required for svg and png)")
    schema = actions.add_parser("schema", help="print the JSON Schema of team files (for editors)")
    schema.add_argument("--out", default=None)
    design = actions.add_parser("design", help="draft a team file for a task with a model, validated")
    design.add_argument("task")
    design.add_argument("--model", default=None)
    design.add_argument("--repairs", type=int, default=2, help="repair rounds with the validator's messages")
    design.add_argument("--out", default=None, help="write the draft here (default: stdout)")
    design.add_argument("--threads", type=int, default=None)


def main(args: argparse.Namespace) -> int:
    handlers = {"validate": _validate, "schema": _schema, "graph": _graph}
    if args.action in handlers:
        return handlers[args.action](args)
    if args.action == "run":
        return asyncio.run(_run(args))
    return asyncio.run(_design(args))


def _validate(args: argparse.Namespace) -> int:
    from agentcore.teams.errors import TeamSpecError
    from agentcore.teams.loader import load_spec
    from agentcore.teams.validate import validate

    failed = 0
    for file in args.files:
        try:
            spec, source = load_spec(file)
            validate(spec, source)
        except TeamSpecError as exc:
            failed += 1
            for problem in exc.problems:
                print(f"agentcore: error: {problem}", file=sys.stderr)
            continue
        print(f"ok: {file} (team {spec.team}: {len(spec.nodes)} nodes, {len(spec.topology.edges)} edges)")
    return 1 if failed else 0


def _schema(args: argparse.Namespace) -> int:
    from agentcore.teams.spec import json_schema

    _emit(json.dumps(json_schema(), indent=2) + "\n", args.out)
    return 0


def _graph(args: argparse.Namespace) -> int:
    from agentcore.errors import UserError
    from agentcore.teams.graph import mermaid
    from agentcore.teams.loader import load_spec
    from agentcore.teams.validate import validate

    spec, source = load_spec(args.file)
    validate(spec, source)
    if args.format == "mermaid":
        _emit(mermaid(spec), args.out)
        return 0
    if not args.out:
        raise UserError(f"--format {args.format} writes a picture: give --out FILE.{args.format}")
    from agentcore.teams.picture import draw

    draw(spec, Path(args.out), args.format)
    print(args.out)
    return 0


def _emit(text: str, out: str | None) -> None:
    if out:
        Path(out).write_text(text)
        print(out)
    else:
        sys.stdout.write(text)


async def _run(args: argparse.Namespace) -> int:
    from agentcore.errors import UserError
    from agentcore.models.registry import cache_dir
    from agentcore.teams.engine import Team

    if not args.resume and not (args.task or "").strip():
        raise UserError('give the task: agentcore team run FILE --task "..." (or --resume RUN_ID)')
    from agentcore.scale.team_executor import team_executor

    check_team_file(args.file)
    executor, registry, close = await team_executor(args, _registry)
    folder = Path(args.checkpoints) if args.checkpoints else cache_dir() / "teams" / "runs"
    team = Team.load(args.file, registry=registry, checkpoint_dir=folder, stats_dir=cache_dir() / "teams" / "stats",
                     executor=executor)  # fmt: skip
    show = _Progress(args.quiet or args.json)
    try:
        if args.resume:
            result = await team.resume(args.resume, on_event=show, timeout=args.timeout)
        else:
            result = await team.run(args.task, on_event=show, timeout=args.timeout)
    finally:
        close()
    show.line(result.summary())
    if args.json:
        print(json.dumps(_result_json(result), indent=2, default=str))
    if not result.ok:
        print(f"agentcore: error: {result.error} (resume with --resume {result.run_id})", file=sys.stderr)
        return 3
    if not args.json:
        print(result.output)
    return 0


async def _registry(args: argparse.Namespace) -> Any:
    from agentcore.teams.registry import Registry

    if args.model is None:
        return Registry()
    from agentcore.models.loader import load_model_async

    settings: dict[str, Any] = {}
    if not args.model.startswith(("http://", "https://")):
        settings = {"n_ctx": args.n_ctx, "n_threads": args.threads}
    model = await load_model_async(args.model, progress=lambda line: print(line, file=sys.stderr), **settings)
    return Registry(models={"default": model})


def _result_json(result: Any) -> dict[str, Any]:
    from dataclasses import asdict

    return {
        "run_id": result.run_id,
        "trace_id": result.trace_id,
        "status": result.status,
        "error": result.error,
        "output": result.output,
        "state": result.state,
        "ledger": [asdict(r) for r in result.ledger],
        "seconds": result.seconds,
    }


class _Progress:
    """Node-by-node progress on stderr, as it happens."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def line(self, text: str) -> None:
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)

    def __call__(self, event: Any) -> None:
        data = event.data
        if event.kind == "team_start":
            self.line(f"team {event.team} run {event.run_id}")
        elif event.kind in ("node_start", "node_retry"):
            again = f" (attempt {data['attempt']}: {data['error']})" if event.kind == "node_retry" else ""
            self.line(f"  > {event.node}{again}")
        elif event.kind == "node_end":
            usage = data.get("usage", {})
            tokens = f", {usage.get('prompt', 0)}+{usage.get('generated', 0)} tokens" if usage.get("calls") else ""
            what = data.get("error") or ", ".join(f"{k}={_short(v)}" for k, v in data.get("writes", {}).items())
            self.line(f"  < {event.node} {data['status']} in {data['seconds']:.2f}s{tokens}: {what}")
        elif event.kind == "loop_bound":
            self.line(f"  ! loop bound reached after {event.node} (max_loops {data['max_loops']})")


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


async def _design(args: argparse.Namespace) -> int:
    from agentcore.models.loader import load_model_async
    from agentcore.teams.design import design_team

    settings: dict[str, Any] = {} if (args.model or "").startswith("http") else {"n_threads": args.threads}
    model = await load_model_async(args.model, progress=lambda line: print(line, file=sys.stderr), **settings)
    draft = await design_team(args.task, model, repairs=args.repairs)
    for note in draft.notes:
        print(note, file=sys.stderr)
    if not draft.ok:
        print(f"agentcore: error: no valid team after {draft.attempts} drafts: {draft.problems[-1]}", file=sys.stderr)
        return 3
    _emit(draft.text, args.out)
    return 0


def check_team_file(path: str) -> None:
    """Load and validate a team file (TeamSpecError on any problem), before any model is loaded."""
    from agentcore.teams.loader import load_spec
    from agentcore.teams.validate import validate

    spec, source = load_spec(path)
    validate(spec, source)


async def run_routed_team(path: str, task: str, model: Any, say: Any, timeout: float | None) -> int:
    """The router's `team` plan: run the team file on the task, with the run's model as the default model."""
    from agentcore.teams.engine import Team
    from agentcore.teams.registry import Registry

    team = Team.load(path, registry=Registry(models={"default": model}))
    say(f"route: handing the task to team {team.name} ({path})")
    result = await team.run(task, on_event=_Progress(False), timeout=timeout)
    say(result.summary())
    if not result.ok:
        print(f"agentcore: error: team run {result.status}: {result.error}", file=sys.stderr)
        return 3
    print(result.output)
    return 0
