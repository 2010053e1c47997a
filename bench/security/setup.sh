#!/usr/bin/env bash
# The AgentDojo venv for bench/security: agentdojo pins its own stack, so it lives apart from .venv.
# agentcore goes in editable without its dependencies (those the bench needs are added by hand), and
# llama-cpp-python comes from the wheel the project's setup built, when there is one.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=bench/peers/.venv-agentdojo
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q "agentdojo==0.1.35" structlog
"$VENV/bin/pip" install -q --no-deps -e .
if ! "$VENV/bin/python" -c "import llama_cpp" 2>/dev/null; then
  wheel=$(ls ~/.cache/agentcore/wheelhouse/*/llama_cpp_python-*.whl 2>/dev/null | head -n1 || true)
  "$VENV/bin/pip" install -q "${wheel:-llama-cpp-python}"
fi
"$VENV/bin/python" -c "import agentdojo, agentcore.policies.toolguard; print('agentdojo venv ready')"
