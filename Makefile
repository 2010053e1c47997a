# The two commands a fresh machine needs: `make demo` and `make test`. Everything else builds on `setup`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-unit lint bench bench-compare bench-security clean

setup:
	@./scripts/setup.sh

demo: setup
	$(BIN)/agentcore run --tools calculator,files --workspace examples/workspace \
	  "Read prices.txt in the workspace, then compute the total cost of 3 widgets and 2 gadgets with the calculator."

test: setup
	$(BIN)/python -m pytest -q

test-unit: setup
	$(BIN)/python -m pytest -q tests/unit

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	./scripts/typecheck.sh

bench: setup
	$(BIN)/python -m bench.core

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
