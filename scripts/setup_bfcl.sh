#!/usr/bin/env bash
# bfcl-eval (BFCL v4's data and AST checker) for `python -m bench.bfcl`, in its own folder, never in .venv's
# site-packages: bench/bfcl.py appends bench/peers/.venv-bfcl to sys.path, after the project's packages.
# --no-deps: bfcl-eval declares every vendor SDK (openai, anthropic, mistralai, cohere, google-genai, boto3, vllm
# extras, sentence-transformers, ...) for its model handlers. Its data loader and AST checker need only filelock and
# tenacity, plus tree_sitter (with the Java and JavaScript grammars) for the handler utilities that import the
# parsers; the one module that pulls in the SDKs, bfcl_eval.constants.model_config, is replaced by a stub at import
# (bench/bfcl.py: install_model_config_stub).
# Idempotent: a stamp keyed by this script skips an install that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

FOLDER=bench/peers/.venv-bfcl
KEY=$(sha256sum scripts/setup_bfcl.sh | cut -c1-12)
STAMP=$FOLDER/.setup-bfcl-$KEY
PACKAGES=(bfcl-eval==2026.3.23 filelock==3.20.0 tenacity==9.2.1
  tree_sitter==0.21.3 tree-sitter-java==0.21.0 tree-sitter-javascript==0.21.4)

if [ ! -x .venv/bin/python ]; then
  echo "setup_bfcl: no .venv; run ./scripts/setup.sh first" >&2
  exit 1
fi
if [ -f "$STAMP" ]; then exit 0; fi
mkdir -p "$FOLDER"
.venv/bin/python -m pip install -q --disable-pip-version-check --no-compile --upgrade --no-deps \
  --target "$FOLDER" "${PACKAGES[@]}"
.venv/bin/python -c "
from bench.bfcl import CATEGORIES, load_bfcl, load_entries
bfcl = load_bfcl()
sizes = ', '.join(f'{c} {len(load_entries(bfcl, c))}' for c in CATEGORIES)
print(f'setup_bfcl: bfcl-eval {bfcl.version} ready ($FOLDER): {sizes}')
"
rm -f "$FOLDER"/.setup-bfcl-*
touch "$STAMP"
