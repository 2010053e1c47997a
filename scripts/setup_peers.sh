#!/usr/bin/env bash
# The peer frameworks of the side-by-side benchmark (`make bench-peers`), each in its own folder under bench/peers,
# never in .venv's site-packages. They run on .venv's Python (bench/systems/peer_*.py appends their folder to
# sys.path, after the project's packages) and reuse its llama-cpp-python, pydantic, httpx2, jinja2, ...
#   smolagents   bench/peers/.venv-smolagents   with its dependencies, as `make bench-peers` always did
#   effgen       bench/peers/.venv-effgen       --no-deps: its declared dependencies pull in torch, transformers and
#                                                cloud SDKs, none of which its GGUF engine and ReAct agent import
#   pydantic-ai  bench/peers/.venv-pydantic-ai  pydantic-ai-slim[openai] with what .venv lacks, --no-deps
# Idempotent: a stamp per folder (keyed by this script) skips an install that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PIP=(.venv/bin/python -m pip install -q --disable-pip-version-check --no-compile --upgrade)
PEERS=bench/peers
KEY=$(sha256sum scripts/setup_peers.sh | cut -c1-12)

SMOLAGENTS=(smolagents==1.26.0)
# effgen plus the small modules it imports that .venv does not have (checked by the import below).
EFFGEN=(effgen==1.3.0 loguru==0.7.3 json5==0.17.3 cachetools==8.0.2 colorama==0.4.6 nest-asyncio==1.6.0)
# pydantic-ai-slim[openai]==2.68.0 minus what .venv already has (pip's resolver over .venv listed these).
PYDANTIC_AI=(pydantic-ai-slim==2.68.0 pydantic-graph==2.68.0 genai-prices==0.2.3 griffelib==2.4.1
  logfire-api==5.6.0 openai==3.57.0 jiter==0.19.0 tiktoken==0.14.0 regex==2026.11.19 sniffio==1.3.1)

if [ ! -x .venv/bin/python ]; then
  echo "setup_peers: no .venv; run ./scripts/setup.sh first" >&2
  exit 1
fi

# install FOLDER CHECK PIP-ARGS...: pip-install into FOLDER, then check that CHECK imports from .venv + FOLDER.
install() {
  local name=$1 folder=$PEERS/$1 check=$2
  shift 2
  local stamp=$folder/.setup-peers-$KEY
  if [ -f "$stamp" ]; then return 0; fi
  mkdir -p "$folder"
  "${PIP[@]}" --target "$folder" "$@"
  EFFGEN_HOME="$folder/home" .venv/bin/python -c "import sys; sys.path.append('$folder'); $check"
  rm -f "$folder"/.setup-peers-*
  touch "$stamp"
  echo "setup_peers: $name ready ($folder)"
}

install .venv-smolagents "import smolagents" "${SMOLAGENTS[@]}"
install .venv-effgen "import effgen.core.agent, effgen.models.gguf_engine, llama_cpp" --no-deps "${EFFGEN[@]}"
install .venv-pydantic-ai "import pydantic_ai.models.openai, pydantic_ai.providers.openai" --no-deps "${PYDANTIC_AI[@]}"
