"""Tools: `@tool`, toolsets, and the built-in tools (in `agentcore.tools.builtin`)."""

from agentcore.tools.function import Tool, make_tool, tool
from agentcore.tools.toolset import CombinedToolset, FilteredToolset, FunctionToolset, Toolset, as_toolset

__all__ = [
    "CombinedToolset",
    "FilteredToolset",
    "FunctionToolset",
    "Tool",
    "Toolset",
    "as_toolset",
    "make_tool",
    "tool",
]
