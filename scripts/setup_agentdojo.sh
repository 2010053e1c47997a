#!/usr/bin/env bash
# The AgentDojo venv for bench/security (`make bench-security`). agentdojo pins a heavy stack of its own (API
# clients it never calls here, since it runs offline), so it lives in bench/peers/.venv-agentdojo, apart from
# .venv. agentcore goes in editable; llama-cpp-python comes from the portable wheel that scripts/setup.sh built,
# never from a fresh source build. Idempotent: a stamp file skips the work when nothing it depends on changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=bench/peers/.venv-agentdojo
AGENTDOJO_VERSION=0.1.35
CACHE=${AGENTCORE_CACHE:-$HOME/.cache/agentcore}

# The wheelhouse is keyed by the llama.cpp version and build flags: read both from scripts/setup.sh, so the
# two scripts can never disagree about where the wheel is.
eval "$(grep -E '^(LLAMA_VERSION|CMAKE_ARGS_PORTABLE)=' scripts/setup.sh)"
KEY=$(printf '%s' "$LLAMA_VERSION $CMAKE_ARGS_PORTABLE" | sha256sum | cut -c1-12)
WHEELHOUSE=$CACHE/wheelhouse/$KEY
STAMP=$VENV/.agentdojo-setup-$(cat pyproject.toml scripts/setup_agentdojo.sh | sha256sum | cut -c1-12)

if [ -f "$STAMP" ]; then exit 0; fi
if ! ls "$WHEELHOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl >/dev/null 2>&1; then
  echo "setup_agentdojo: no llama-cpp-python wheel in $WHEELHOUSE; run ./scripts/setup.sh first (it builds it)" >&2
  exit 1
fi

[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip wheel setuptools
# llama-cpp-python first and pinned: `pip install -e .` then finds it satisfied and never builds a newer sdist.
"$VENV/bin/python" -m pip install -q --find-links "$WHEELHOUSE" "llama-cpp-python==$LLAMA_VERSION"
"$VENV/bin/python" -m pip install -q --find-links "$WHEELHOUSE" "agentdojo==$AGENTDOJO_VERSION" -e .

# Offline smoke check: the suites load from the package's data, and agentcore with Tool-Guard imports.
HF_HUB_OFFLINE=1 "$VENV/bin/python" -c "
from agentdojo.task_suite.load_suites import get_suite
import agentcore.policies.toolguard, llama_cpp
print('setup_agentdojo: banking has', len(get_suite('v1.2', 'banking').user_tasks), 'user tasks')"
rm -f "$VENV"/.agentdojo-setup-*
touch "$STAMP"
echo "setup_agentdojo: done ($VENV)"
