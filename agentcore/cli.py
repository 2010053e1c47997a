"""The `agentcore` command: `agentcore run "task"` and `agentcore models list|pull`.

Errors (no model, bad path, bad flags, a failed run) print one line `agentcore: error: ...` on stderr and exit
non-zero; never a traceback. Flags are checked before anything is loaded, and the model is loaded before the run,
so a typo costs no minutes of pulling or loading. The answer alone goes to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from agentcore.errors import AgentcoreError, AgentRunError, UserError
from agentcore.events import Event, ModelCalled, Notice, RunFinished, ToolCalled

TRACEBACK_ENV = "AGENTCORE_TRACEBACK"  # "1": let unexpected exceptions show their traceback (for bug reports)


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line like ours (it prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        _error(f"{message} (see {self.prog} --help)")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="agentcore", description="Agents on small local models.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run one task with an agent")
    run.add_argument("task")
    _agent_flags(run)
    chat = sub.add_parser("chat", help="an interactive conversation, kept in a session")
    chat.add_argument("--session", default=None, help="session id to resume (default: a new one, printed)")
    chat.add_argument("--sessions-db", default=None, help="SQLite file of the sessions (default: the cache folder)")
    _agent_flags(chat)
    chat.set_defaults(task="chat")
    models = sub.add_parser("models", help="list or pull the embedded models")
    models_sub = models.add_subparsers(dest="action", required=True)
    models_sub.add_parser("list")
    pull = models_sub.add_parser("pull")
    pull.add_argument("name")
    from agentcore.memory.cli import add_memory_parser  # argparse only: loads no store
    from agentcore.protocols.serve_cli import add_parsers
    from agentcore.scale.batch_cli import add_parser as add_batch_parser
    from agentcore.teams.cli import add_parser as add_team_parser

    add_memory_parser(sub)
    add_team_parser(sub)
    add_batch_parser(sub)
    add_parsers(sub)  # agentcore mcp serve, agentcore a2a serve
    return parser


def _agent_flags(run: argparse.ArgumentParser) -> None:
    run.add_argument("--model", default=None, help="registry name, path to a .gguf file, or http(s) URL")
    run.add_argument("--tools", default="calculator", help="comma-separated built-ins: calculator,files,http")
    run.add_argument("--workspace", default=None, help="root folder for the files tools")
    run.add_argument("--allow-write", action="store_true", help="let the files tools write in the workspace")
    run.add_argument("--http-allow", action="append", default=[], help="host the http tool may fetch (repeat)")
    run.add_argument("--instructions", default=None)
    run.add_argument("--max-steps", type=int, default=8)
    run.add_argument("--timeout", type=float, default=None, help="overall run timeout in seconds")
    run.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: all cores)")
    run.add_argument("--n-ctx", type=int, default=4096)
    run.add_argument("--gpu-layers", type=int, default=0)
    run.add_argument("--route", choices=["auto", "off"], default="off", help="complexity routing before the run")
    run.add_argument("--team", default=None, help="team file the router may hand complex tasks to (--route auto)")
    run.add_argument(
        "--large", default=None, help="larger model for runs offered two or more tools (e.g. qwen2.5-coder-1.5b)"
    )
    run.add_argument(
        "--large-format",
        choices=["json", "native", "native-first"],
        default="json",
        help="the large model's tool format (native-first: its chat template's format for the first call; see"
        " docs/native-tools.md)",
    )
    run.add_argument("--advisor", default=None, help="model that advises the main model (name, path or URL)")
    run.add_argument("--advice-mode", choices=["advice_first", "review_revise", "both"], default="advice_first")
    run.add_argument("--optimize", action="store_true", help="compress the prompt (tool descriptions, filler)")
    run.add_argument("--json-log", action="store_true", help="log every event as a JSON line on stderr")
    run.add_argument("--memory", default=None, help="memory directory: recall into the run, record it after")
    run.add_argument("--quiet", action="store_true", help="print only the answer")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        _interrupt_models()
        print("agentcore: interrupted", file=sys.stderr)
        return 130
    except AgentcoreError as exc:
        _error(str(exc))
        return 1
    except Exception as exc:  # a bug of ours or a library's: still one line, unless asked for the traceback
        if os.environ.get(TRACEBACK_ENV) == "1":
            raise
        _error(f"unexpected {type(exc).__name__}: {exc} (set {TRACEBACK_ENV}=1 to see the traceback)")
        return 1


# Subcommands whose code lives with their feature: module and function, imported only when used.
_ELSEWHERE = {
    "memory": ("agentcore.memory.cli", "run_memory"),
    "team": ("agentcore.teams.cli", "main"),
    "batch": ("agentcore.scale.batch_cli", "main"),
}


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "models":
        return _models(args)
    if args.command in ("mcp", "a2a"):
        from agentcore.protocols.serve_cli import serve

        return asyncio.run(serve(args))
    if args.command in _ELSEWHERE:
        from importlib import import_module

        module, function = _ELSEWHERE[args.command]
        result: int = getattr(import_module(module), function)(args)
        return result
    check_run_args(args)
    return asyncio.run(_chat(args) if args.command == "chat" else _run(args))


def check_run_args(args: argparse.Namespace) -> None:
    """Refuse an empty task and every out-of-range flag (UserError), before anything is built or loaded."""
    from agentcore.models.registry import check_model_spec

    if not args.task.strip():
        raise UserError('the task is empty: say what the agent should do, e.g. agentcore run "What is 17 * 23?"')
    try:
        args.task.encode("utf-8")  # bytes the shell could not decode arrive as lone surrogates
    except UnicodeEncodeError as exc:
        raise UserError(f"the task is not valid text (character {exc.start + 1} could not be decoded)") from None
    checks = [
        (args.max_steps >= 1, f"--max-steps must be at least 1, got {args.max_steps}"),
        (_positive(args.timeout), f"--timeout must be a positive number of seconds, got {args.timeout}"),
        (args.n_ctx >= 1, f"--n-ctx must be a positive number of tokens (e.g. 4096), got {args.n_ctx}"),
        (args.threads is None or args.threads >= 1, f"--threads must be at least 1, got {args.threads}"),
        (args.gpu_layers >= -1, f"--gpu-layers must be -1 (all), 0 or a number of layers, got {args.gpu_layers}"),
        (_format_applies(args), "--large-format needs --large, a local model (an HTTP server keeps its own format)"),
    ]
    wrong = [message for ok, message in checks if not ok]
    if wrong:
        raise UserError("; ".join(wrong))
    for spec in (args.model, args.advisor, args.large):
        if spec is not None:
            check_model_spec(spec)
    if getattr(args, "team", None):
        from agentcore.teams.cli import check_team_file

        check_team_file(args.team)


def _positive(seconds: float | None) -> bool:
    return seconds is None or (math.isfinite(seconds) and seconds > 0)


def _error(message: str) -> None:
    print(f"agentcore: error: {message}", file=sys.stderr, flush=True)


def _interrupt_models() -> None:
    """Stop in-process model calls within moments, so that exiting does not wait for their threads."""
    llamacpp = sys.modules.get("agentcore.models.llamacpp")
    if llamacpp is not None:
        llamacpp.interrupt_all()


def _models(args: argparse.Namespace) -> int:
    from agentcore.models.registry import DEFAULT_MODEL, list_models, pull

    if args.action == "pull":
        print(pull(args.name, progress=lambda line: print(line, file=sys.stderr)))
        return 0
    for info, path in list_models():
        mark = "*" if info.name == DEFAULT_MODEL else " "
        where = str(path) if path else "(not pulled)"
        print(f"{mark} {info.name:<20} {info.size_bytes / 1e6:6.0f} MB  {where}  {info.description}")
    return 0


async def _setup(args: argparse.Namespace) -> tuple[Any, Any, Any, _Printer]:
    """(make_agent, model, toolset, printer) from the flags; models are loaded here, before any run."""
    from agentcore.agent import Agent
    from agentcore.log import configure_logging
    from agentcore.models.loader import load_model_async
    from agentcore.tools.builtin import builtin_toolset

    if args.json_log:
        configure_logging(json=True)
    say = _Printer(quiet=args.quiet or args.json_log)
    toolset = builtin_toolset(
        _names(args.tools), workspace=args.workspace, http_allow=args.http_allow, writable=args.allow_write
    )
    model = await load_model_async(args.model, progress=say.line, **_model_settings(args))
    advisor = None
    if args.advisor:
        advisor = await load_model_async(args.advisor, progress=say.line, **_model_settings(args, args.advisor))
    large = None
    if args.large:
        settings = _model_settings(args, args.large)
        if args.large_format != "json":  # a local GGUF (checked with the flags)
            settings["tool_format"] = args.large_format
        large = await load_model_async(args.large, progress=say.line, **settings)
    kwargs: dict[str, Any] = {"instructions": args.instructions} if args.instructions else {}
    policies = _policies(args, model, advisor, large)

    if args.memory:
        from agentcore.memory import Memory

        kwargs["memory"] = Memory.open(args.memory)

    def make_agent(_: object = None) -> Agent[None, str]:
        return Agent(model, tools=toolset, max_steps=args.max_steps, policies=policies, **kwargs)

    return make_agent, model, toolset, say


async def _chat(args: argparse.Namespace) -> int:
    import uuid

    from agentcore.chat import chat_loop
    from agentcore.sessions import SQLiteSession

    make_agent, _, _, say = await _setup(args)
    session = SQLiteSession(args.session or uuid.uuid4().hex[:8], args.sessions_db)
    earlier = len(await session.messages())
    say.line(
        f"session {session.session_id} ({earlier} earlier messages) in {session.path}; /reset clears, /exit leaves"
    )
    await chat_loop(make_agent(), session, on_event=say.event, timeout=args.timeout)
    say.line(f"resume with: agentcore chat --session {session.session_id}")
    return 0


async def _run(args: argparse.Namespace) -> int:
    make_agent, model, toolset, say = await _setup(args)

    plan = await _route_plan(args.task, toolset, say, args.team) if args.route == "auto" else "agent"
    if plan == "team":
        from agentcore.teams.cli import run_routed_team

        return await run_routed_team(args.team, args.task, model, say.line, args.timeout)
    if plan == "decompose":
        return await _run_decomposed(args, model, make_agent, say)
    try:
        result = await make_agent().run(args.task, timeout=args.timeout, on_event=say.event)
    except AgentRunError as exc:
        if exc.partial is not None:
            say.ledger(exc.partial)
        _error(f"run stopped: {exc}")
        return 3
    say.ledger(result)
    if args.memory:
        judge = f"agentcore memory --dir {args.memory} feedback {result.run_id} good|bad"
        say.line(f"run {result.run_id} recorded in memory; judge it with: {judge}")
    if not result.ok:
        _error(f"run ended with status {result.status}: {result.error}")
        return 3
    print(result.output)
    return 0


def _policies(args: argparse.Namespace, model: Any, advisor: Any, large: Any) -> list[Any]:
    """The policies the flags ask for, in the order they wrap a turn: route (and tiers), advise, optimise.
    `--large` alone routes tiers only: no task loses its tools to the direct plan unless --route auto says so."""
    policies: list[Any] = []
    if args.route == "auto" or large is not None:
        from agentcore.policies.routing import RoutingPolicy

        tiers = {"small": model, "large": large} if large is not None else None
        policies.append(RoutingPolicy(tiers=tiers, allow_direct=args.route == "auto"))
    if advisor is not None:
        from agentcore.policies.advisor import Advisor

        policies.append(Advisor(advisor, mode=args.advice_mode))
    if args.optimize:
        from agentcore.policies.optimizer import PromptOptimizer

        policies.append(PromptOptimizer(count_tokens=getattr(model, "count_tokens", None)))
    return policies


async def _route_plan(task: str, toolset: Any, say: _Printer, team: str | None) -> str:
    from agentcore.policies.router import ComplexityRouter

    names = [spec.name for spec in await toolset.list_tools()]
    decision = ComplexityRouter().route(task, tool_names=names, team_available=team is not None)
    for reason in decision.reasons:
        say.line(f"route: {reason}")
    return decision.plan


async def _run_decomposed(args: argparse.Namespace, model: Any, make_agent: Any, say: _Printer) -> int:
    from agentcore.teams.decompose import Decomposer

    def show(event: dict[str, Any]) -> None:
        say.line("dag: " + ", ".join(f"{k}={v}" for k, v in event.items() if k != "time"))

    result = await Decomposer(model).run(args.task, make_agent, on_event=show)
    say.line(f"decomposition: {result.usage.calls} model calls, prompt tokens {result.usage.prompt_tokens}")
    if not result.ok:
        _error(f"decomposed run failed: {result.error}")
        return 3
    print(result.output)
    return 0


def _names(tools: str) -> list[str]:
    return [name.strip() for name in tools.split(",") if name.strip()] if tools else []


def _format_applies(args: argparse.Namespace) -> bool:
    large = getattr(args, "large", None)
    if getattr(args, "large_format", "json") == "json":
        return True
    return large is not None and not large.startswith(("http://", "https://"))


def _model_settings(args: argparse.Namespace, spec: str | None = None) -> dict[str, Any]:
    spec = spec if spec is not None else args.model
    if spec and spec.startswith(("http://", "https://")):
        return {}
    return {"n_ctx": args.n_ctx, "n_threads": args.threads, "n_gpu_layers": args.gpu_layers}


class _Printer:
    """Live progress on stderr; the answer alone goes to stdout."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def line(self, text: str) -> None:
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)

    def event(self, event: Event) -> None:
        if isinstance(event, ModelCalled):
            u = event.usage
            what = event.tool_call.signature() if event.tool_call else "final answer"
            self.line(
                f"[step {event.step}] model {event.seconds:.2f}s"
                f" (prompt {u.prompt_tokens}, cached {u.cached_tokens}, generated {u.generated_tokens}) -> {what}"
            )
        elif isinstance(event, ToolCalled):
            flag = "error" if event.error else "result"
            self.line(
                f"[step {event.step}]   {event.call.name} {flag} in {event.seconds * 1000:.1f}ms: {event.result[:200]}"
            )
        elif isinstance(event, Notice):
            self.line(f"[step {event.step}]   note: {event.message}")
        elif isinstance(event, RunFinished):
            self.line(f"run {event.run_id} {event.status}")

    def ledger(self, result: Any) -> None:
        u = result.usage
        self.line(
            f"ledger: {result.ledger.summary()}; {u.calls} model calls, prompt tokens {u.prompt_tokens}"
            f" ({u.cached_tokens} cached), generated {u.generated_tokens}"
        )


if __name__ == "__main__":
    sys.exit(main())
