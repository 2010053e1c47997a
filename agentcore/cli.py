"""The `agentcore` command: `agentcore run "task"` and `agentcore models list|pull`.

Errors (no model, bad path, bad flags) print one clear line and exit non-zero; never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from typing import Any

from agentcore.errors import AgentcoreError, AgentRunError
from agentcore.events import Event, ModelCalled, Notice, RunFinished, ToolCalled


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentcore", description="Agents on small local models.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run one task with an agent")
    run.add_argument("task")
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
    run.add_argument("--advisor", default=None, help="model that advises the main model (name, path or URL)")
    run.add_argument("--advice-mode", choices=["advice_first", "review_revise", "both"], default="advice_first")
    run.add_argument("--optimize", action="store_true", help="compress the prompt (tool descriptions, filler)")
    run.add_argument("--json-log", action="store_true", help="log every event as a JSON line on stderr")
    run.add_argument("--quiet", action="store_true", help="print only the answer")
    models = sub.add_parser("models", help="list or pull the embedded models")
    models_sub = models.add_subparsers(dest="action", required=True)
    models_sub.add_parser("list")
    pull = models_sub.add_parser("pull")
    pull.add_argument("name")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "models":
            return _models(args)
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        print("agentcore: interrupted", file=sys.stderr)
        return 130
    except AgentcoreError as exc:
        print(f"agentcore: error: {exc}", file=sys.stderr)
        return 1


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


async def _run(args: argparse.Namespace) -> int:
    from agentcore.agent import Agent
    from agentcore.log import configure_logging
    from agentcore.models.loader import load_model
    from agentcore.tools.builtin import builtin_toolset

    if args.json_log:
        configure_logging(json=True)
    say = _Printer(quiet=args.quiet or args.json_log)
    toolset = builtin_toolset(
        _names(args.tools), workspace=args.workspace, http_allow=args.http_allow, writable=args.allow_write
    )
    model = load_model(args.model, **_model_settings(args))
    await say.loading(model)
    kwargs: dict[str, Any] = {"instructions": args.instructions} if args.instructions else {}
    policies = _policies(args, model)

    def make_agent(_: object = None) -> Agent[None, str]:
        return Agent(model, tools=toolset, max_steps=args.max_steps, policies=policies, **kwargs)

    if args.route == "auto" and await _decompose_planned(args.task, toolset, say):
        return await _run_decomposed(args, model, make_agent, say)
    try:
        result = await make_agent().run(args.task, timeout=args.timeout, on_event=say.event)
    except AgentRunError as exc:
        print(f"agentcore: run stopped: {exc}", file=sys.stderr)
        if exc.partial is not None:
            say.ledger(exc.partial)
        return 3
    print(result.output if result.ok else f"[{result.status}] {result.error}")
    say.ledger(result)
    return 0 if result.ok else 3


def _policies(args: argparse.Namespace, model: Any) -> list[Any]:
    """The policies the flags ask for, in the order they wrap a turn: route, advise, optimise."""
    from agentcore.models.loader import load_model

    policies: list[Any] = []
    if args.route == "auto":
        from agentcore.policies.routing import RoutingPolicy

        policies.append(RoutingPolicy())
    if args.advisor:
        from agentcore.policies.advisor import Advisor

        policies.append(Advisor(load_model(args.advisor, **_model_settings(args, args.advisor)), mode=args.advice_mode))
    if args.optimize:
        from agentcore.policies.optimizer import PromptOptimizer

        policies.append(PromptOptimizer(count_tokens=getattr(model, "count_tokens", None)))
    return policies


async def _decompose_planned(task: str, toolset: Any, say: _Printer) -> bool:
    from agentcore.policies.router import ComplexityRouter

    names = [spec.name for spec in await toolset.list_tools()]
    decision = ComplexityRouter().route(task, tool_names=names)
    for reason in decision.reasons:
        say.line(f"route: {reason}")
    return decision.plan == "decompose"


async def _run_decomposed(args: argparse.Namespace, model: Any, make_agent: Any, say: _Printer) -> int:
    from agentcore.policies.decompose import Decomposer

    def show(event: dict[str, Any]) -> None:
        say.line("dag: " + ", ".join(f"{k}={v}" for k, v in event.items() if k != "time"))

    result = await Decomposer(model).run(args.task, make_agent, on_event=show)
    print(result.output if result.ok else f"[error] {result.error}")
    say.line(f"decomposition: {result.usage.calls} model calls, prompt tokens {result.usage.prompt_tokens}")
    return 0 if result.ok else 3


def _names(tools: str) -> list[str]:
    return [name.strip() for name in tools.split(",") if name.strip()] if tools else []


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

    async def loading(self, model: Any) -> None:
        if not hasattr(model, "aload"):
            return
        self.line(f"loading model {model.name} ...")
        started = time.perf_counter()
        await model.aload()
        self.line(f"model loaded in {time.perf_counter() - started:.1f}s")

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
