"""Interop with the wider ecosystem: MCP (client sessions and `agentcore mcp serve`) and A2A (server and client).

Every module here imports its SDK (`mcp`, `a2a`) lazily or only when imported itself, so `import agentcore` never
pays for them.
"""
