"""Policies: routing, prompt optimisation, decomposition, Tool-Guard, advisor and context policies."""
