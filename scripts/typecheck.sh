#!/usr/bin/env bash
# mypy --strict over the installed namespace. The package maps tools/, memory/ and policies/ into agentcore.*
# (setuptools package-dir), which mypy cannot follow in the source tree, so we check a symlinked view of it.
set -euo pipefail
cd "$(dirname "$0")/.."
view=build/typecheck
rm -rf "$view" && mkdir -p "$view/agentcore"
for entry in agentcore/*; do ln -s "$PWD/$entry" "$view/agentcore/"; done
ln -s "$PWD/tools" "$view/agentcore/tools"
ln -s "$PWD/memory" "$view/agentcore/memory"
ln -s "$PWD/policies" "$view/agentcore/policies"
cd "$view" && ../../.venv/bin/mypy --strict --no-incremental -p agentcore
