"""What a team file may name: tools, functions, agents and models, registered from Python or found by import
path. A team file never embeds code; it names code that lives in the application.

    registry = Registry(tools=[lookup], functions={"score": score}, models={"default": model})
    team = Team.load("team.yaml", registry=registry)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from agentcore.errors import UserError

if TYPE_CHECKING:
    from agentcore.agent import Agent
    from agentcore.models.base import Model
    from agentcore.tools.function import Tool
    from agentcore.tools.toolset import Toolset

_global_functions: dict[str, Callable[..., Any]] = {}


def register_function(name: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: make a function available to every team file under `name` (default: its own name)."""

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        _global_functions[name or function.__name__] = function
        return function

    return wrap


def import_path(path: str) -> Any:
    """The object named 'package.module:attribute' (or 'package.module.attribute'). Raises LookupError."""
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise LookupError(f"{path!r} is not an import path like 'package.module:name'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise LookupError(f"cannot import module {module_name!r}: {exc}") from None
    found = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise LookupError(f"module {module_name!r} has no attribute {attribute!r}")
        found = getattr(found, part)
    return found


def _looks_like_path(name: str) -> bool:
    return ":" in name or ("." in name and not name.startswith("."))


class Registry:
    """Tools, functions, agents, models and toolsets a team may name. Built-in tools (calculator) are always there."""

    def __init__(
        self,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        functions: Mapping[str, Callable[..., Any]] | None = None,
        agents: Mapping[str, Agent[Any, Any]] | None = None,
        models: Mapping[str, Model] | None = None,
        toolsets: Mapping[str, Toolset] | None = None,
    ) -> None:
        from agentcore.tools.builtin.calculator import calculator
        from agentcore.tools.function import Tool, make_tool

        self.tools: dict[str, Tool] = {calculator.name: calculator}
        for item in tools:
            made = item if isinstance(item, Tool) else make_tool(item)
            self.tools[made.name] = made
        self.functions = dict(functions or {})
        self.agents = dict(agents or {})
        self.models = dict(models or {})
        self.toolsets = dict(toolsets or {})  # named toolsets (an MCPToolset built in Python) nodes name in `mcp:`

    def function(self, name: str) -> Callable[..., Any]:
        from agentcore.teams.functions import BUILTIN_FUNCTIONS

        found = self.functions.get(name) or _global_functions.get(name) or BUILTIN_FUNCTIONS.get(name)
        if found is None and _looks_like_path(name):
            found = import_path(name)
        if found is None:
            known = sorted({*self.functions, *_global_functions})
            raise LookupError(f"no function {name!r}: register it, or give an import path 'package.module:name'"
                              f" (registered: {known or 'none'})")  # fmt: skip
        if not callable(found):
            raise LookupError(f"{name!r} is not callable")
        return found

    def agent(self, name: str) -> Agent[Any, Any]:
        from agentcore.agent import Agent

        found: Any = self.agents.get(name)
        if found is None and _looks_like_path(name):
            found = import_path(name)
            if isinstance(found, type) and issubclass(found, Agent):
                found = found()
        if not isinstance(found, Agent):
            raise LookupError(f"no agent {name!r}: pass it in Registry(agents=...), or give an import path"
                              " 'package.module:name' of an Agent")  # fmt: skip
        return found

    def tool(self, name: str) -> Tool:
        """A registered or built-in tool, or a function or Tool by import path 'package.module:name'."""
        from agentcore.tools.function import Tool, make_tool

        found = self.tools.get(name)
        if found is None and _looks_like_path(name):
            target = import_path(name)
            found = self.tools[name] = target if isinstance(target, Tool) else make_tool(target)
        if found is None:
            raise LookupError(f"unknown tool {name!r}; known tools: {', '.join(sorted(self.tools))}"
                              " (or give an import path 'package.module:name')")  # fmt: skip
        return found

    def check_model(self, name: str, declared: Mapping[str, str]) -> None:
        """Raise LookupError when `name` is neither a declared or registered model nor a loadable spec."""
        if name in declared or name in self.models:
            return
        from agentcore.models.registry import check_model_spec

        try:
            check_model_spec(name)
        except UserError as exc:
            raise LookupError(str(exc)) from None


POLICIES = ("routing", "optimizer", "context")


def make_policy(name: str, tiers: Mapping[str, Model] | None = None) -> Any:
    """A policy by its team-file name (each with its default settings). `tiers`: the routing policy's models by
    tier name (`small`, `large`), so that a run offered two or more tools goes to `large` (docs/routing-tiers.md)."""
    if name == "routing":
        from agentcore.policies.routing import RoutingPolicy

        return RoutingPolicy(tiers=tiers)
    if name == "optimizer":
        from agentcore.policies.optimizer import PromptOptimizer

        return PromptOptimizer()
    if name == "context":
        from agentcore.policies.context import ContextPolicy

        return ContextPolicy()
    raise UserError(f"unknown policy {name!r}; allowed: {', '.join(POLICIES)}")
