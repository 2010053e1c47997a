"""`agentcore mcp serve` and `agentcore a2a serve`: flags, and what they publish.

What to publish comes from built-in tools (`--tools calculator,files`), agents on a model (`--agent NAME`, which
runs on `--model` with those tools), and the user's own objects by import path (`--object pkg.mod:thing`, a
toolset or an Agent). Models load on the first task, so a server starts in moments. `a2a serve --team FILE`
publishes a team file instead (its `--model` is loaded first, as the team's default model).
"""

from __future__ import annotations

import argparse
import importlib
import os
from typing import Any

from agentcore.errors import UserError


def add_parsers(sub: Any) -> None:
    mcp = sub.add_parser("mcp", help="serve tools and agents over MCP")
    mcp_sub = mcp.add_subparsers(dest="action", required=True)
    _serve_flags(mcp_sub.add_parser("serve", help="publish a toolset and agents as an MCP server"), 8000, True)
    a2a = sub.add_parser("a2a", help="serve an agent over A2A")
    a2a_sub = a2a.add_subparsers(dest="action", required=True)
    a2a_serve = a2a_sub.add_parser("serve", help="publish an agent, or a team file, as an A2A server")
    _serve_flags(a2a_serve, 9999, False)
    a2a_serve.add_argument("--team", default=None, help="publish this team file (YAML) instead of an agent")


def _serve_flags(parser: argparse.ArgumentParser, port: int, stdio: bool) -> None:
    if stdio:
        parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--tools", default="calculator", help="comma-separated built-ins: calculator,files,http")
    parser.add_argument("--workspace", default=None, help="root folder for the files tools")
    parser.add_argument("--agent", action="append", default=[], help="publish an agent of this name (repeat)")
    parser.add_argument("--object", action="append", default=[], help="module:attribute of a toolset or Agent")
    parser.add_argument("--model", default=None, help="model of the --agent agents (name, .gguf path or URL)")
    parser.add_argument("--instructions", default=None, help="instructions of the --agent agents")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    parser.add_argument("--port", type=int, default=port)
    parser.add_argument("--token", default=None, help="bearer token required from clients (or the env variable)")
    parser.add_argument("--max-body", type=int, default=1_000_000, help="largest request body in bytes")


def token_from(args: argparse.Namespace, env: str) -> str | None:
    return args.token or os.environ.get(env) or None


def published(args: argparse.Namespace) -> tuple[Any, list[Any]]:
    """(toolset, agents) that the flags name."""
    from agentcore.agent import Agent
    from agentcore.tools.builtin import builtin_toolset
    from agentcore.tools.toolset import CombinedToolset, Toolset

    names = [name.strip() for name in args.tools.split(",") if name.strip()]
    toolsets: list[Any] = [builtin_toolset(names, workspace=args.workspace)]
    kwargs = {"instructions": args.instructions} if args.instructions else {}
    agents: list[Any] = [Agent(args.model, tools=toolsets[0], name=name, **kwargs) for name in args.agent]
    for path in args.object:
        found = load_object(path)
        if isinstance(found, Agent):
            agents.append(found)
        elif isinstance(found, Toolset):
            toolsets.append(found)
        else:
            raise UserError(f"--object {path} is a {type(found).__name__}, not a toolset or an Agent")
    return (toolsets[0] if len(toolsets) == 1 else CombinedToolset(toolsets)), agents


def load_object(path: str) -> Any:
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise UserError(f"--object takes module:attribute (e.g. myapp.tools:toolset), got {path!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(f"cannot import {module_name!r} for --object {path}: {exc}") from exc
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise UserError(f"module {module_name!r} has no attribute {attribute!r} (--object {path})") from None


async def serve(args: argparse.Namespace) -> int:
    if args.command == "mcp":
        return await serve_mcp(args)
    return await serve_a2a(args)


async def serve_mcp(args: argparse.Namespace) -> int:
    from agentcore.protocols import mcp_server
    from agentcore.protocols.http_guard import check_exposure

    token = token_from(args, "AGENTCORE_MCP_TOKEN")
    if args.transport == "http":
        check_exposure(args.host, token, "AGENTCORE_MCP_TOKEN")  # before anything is built
    toolset, agents = published(args)
    server = mcp_server.build_server(toolset, agents)
    if args.transport == "stdio":
        await mcp_server.serve_stdio(server)
    else:
        await mcp_server.serve_http(server, host=args.host, port=args.port, token=token, max_body=args.max_body)
    return 0


async def serve_a2a(args: argparse.Namespace) -> int:
    """`agentcore a2a serve`: the team file (`--team`) or the one agent the flags name, on uvicorn."""
    import uvicorn

    from agentcore.protocols.a2a_server import TOKEN_ENV, build_app
    from agentcore.protocols.http_guard import check_exposure

    token = token_from(args, TOKEN_ENV)
    check_exposure(args.host, token, TOKEN_ENV)  # before anything is built
    url = f"http://{args.host}:{args.port}/"
    if args.team:
        app = await _team_app(args, url, token)
        await uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")).serve()
        return 0
    _, agents = published(args)  # the agent carries its own tools
    if len(agents) != 1:
        raise UserError(
            f"a2a serve publishes exactly one agent (--agent NAME or --object mod:agent), got {len(agents)}"
        )
    app = await build_app(agents[0], url=url, host=args.host, token=token, max_body=args.max_body)
    await uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")).serve()
    return 0


async def _team_app(args: argparse.Namespace, url: str, token: str | None) -> Any:
    """`a2a serve --team FILE`: the team file, validated before anything listens; `--model` is its default model."""
    from agentcore.protocols.a2a_team import build_team_app
    from agentcore.teams.engine import Team
    from agentcore.teams.registry import Registry

    if args.agent or args.object:
        raise UserError("a2a serve publishes one thing: --team FILE, or one agent (--agent / --object), not both")
    team = Team.load(args.team)  # a bad file stops here, each problem with its line
    if args.model is not None:
        from agentcore.models.loader import load_model_async

        team = Team.load(args.team, registry=Registry(models={"default": await load_model_async(args.model)}))
    return await build_team_app(team, url=url, host=args.host, token=token, max_body=args.max_body)
