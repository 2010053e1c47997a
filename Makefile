# The two commands a fresh machine needs: `make demo` and `make test`. Everything else builds on `setup`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-unit lint bench bench-compare bench-security clean

setup:
	@./scripts/setup.sh

demo: setup
	$(BIN)/python examples/demo.py

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
