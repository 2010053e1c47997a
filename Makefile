# The two commands a fresh machine needs: `make demo` and `make test`. Everything else builds on `setup`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-unit lint bench bench-compare bench-peers bench-security bench-learning clean interop

setup:
	@./scripts/setup.sh

demo: setup
	$(BIN)/python examples/demo.py

# Then the official MCP conformance suite (~1 min; its first run installs Node 22 and the suite from npm into .interop/).
test: setup
	$(BIN)/python -m pytest -q
	./scripts/interop.sh

test-unit: setup
	$(BIN)/python -m pytest -q tests/unit

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	./scripts/typecheck.sh

# Numbers, never pass/fail: each bench prints what it measured and the command that reproduces it.
bench: setup
	$(BIN)/python -m bench.core
	$(BIN)/python -m bench.routing_bench
	$(BIN)/python -m bench.optimizer_bench
	$(BIN)/python -m bench.teams_bench
	$(BIN)/python -m bench.memory_bench
	$(BIN)/python -m bench.scale_bench
	$(BIN)/python -m bench.advisor_kv
	$(BIN)/python -m bench.lookup_bench

bench-compare: setup bench-peers
	$(BIN)/python -m bench.harness $(ARGS)

# Peer frameworks live in their own folders under bench/peers, never in the runtime's dependencies.
bench-peers: setup
	./scripts/setup_peers.sh

bench-security: setup
	./scripts/setup_agentdojo.sh
	bench/peers/.venv-agentdojo/bin/python -m bench.security.run $(ARGS)

# Issue #17's Tool-Guard proof: 3 AgentDojo cases, cold, undefended and Tool-Guard with one KV state and several.
.PHONY: bench-toolguard-kv
bench-toolguard-kv: setup
	./scripts/setup_agentdojo.sh
	bench/peers/.venv-agentdojo/bin/python -m bench.security.kv_compare --fresh $(if $(OUT),--out $(OUT)) \
	  --runs none:default,toolguard:default:stable_first,toolguard:off:stable_first,toolguard:default,toolguard:off $(ARGS)

# Learning gain of experience memory (train with memory writing, reflect, test read-only): see docs/memory.md.
bench-learning: setup
	$(BIN)/python -m bench.learning $(ARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache

# BFCL v4 single-turn categories on agentcore and bare llama.cpp (bfcl-eval in bench/peers/.venv-bfcl, --no-deps).
.PHONY: bench-bfcl
bench-bfcl: setup
	./scripts/setup_bfcl.sh
	$(BIN)/python -m bench.bfcl $(ARGS)

# The official MCP conformance suite against our MCP server and client (Node 22 and the suite from npm, in .interop/).
interop: setup
	./scripts/interop.sh
