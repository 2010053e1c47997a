"""Benchmarks of agentcore (run as `python -m bench.<name>` from the repository root)."""
