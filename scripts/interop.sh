#!/usr/bin/env bash
# `make interop`: the official MCP conformance suite (npm @modelcontextprotocol/conformance, on Node 22 from npm's
# `node` package, both kept in .interop/) against our MCP server (tool scenarios) and our MCP client (initialize,
# tools_call). Expected failures, with reasons: scripts/interop/mcp-conformance-baseline.yml.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.interop
CONFORMANCE=0.1.16
PY=.venv/bin/python
if [ ! -x "$DIR/node_modules/.bin/conformance" ]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-audit --no-fund --silent "node@22" "@modelcontextprotocol/conformance@$CONFORMANCE"
fi
export PATH="$PWD/$DIR/node_modules/.bin:$PATH"
echo "interop: node $(node --version), conformance $CONFORMANCE"

PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$PY scripts/interop/mcp_conformance_server.py "$PORT" > "$DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  $PY -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" 2>/dev/null && break
  sleep 0.2
done

cd "$DIR"  # the suite writes its results/ folder here
BASELINE=../scripts/interop/mcp-conformance-baseline.yml
status=0
conformance server --url "http://127.0.0.1:$PORT/mcp" --expected-failures "$BASELINE" | tee server.txt | tail -40 || status=1
conformance server --url "http://127.0.0.1:$PORT/mcp" --scenario json-schema-2020-12 | tail -3 || status=1
for scenario in initialize tools_call; do
  conformance client --command "../$PY ../scripts/interop/mcp_conformance_client.py" --scenario "$scenario" \
    --expected-failures "$BASELINE" | tail -3 || status=1
done
echo "interop: conformance exit status $status (0: every failure is an expected one, listed in $BASELINE)"
exit $status
