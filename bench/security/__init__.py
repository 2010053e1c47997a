"""Security benchmarks: Tool-Guard against poisoned tool descriptions on AgentDojo (see run_agentdojo.py)."""
