"""Security bench: Tool-Guard on AgentDojo, offline, on the real default model (run.py; README.md has results)."""
