#!/usr/bin/env bash
# Tests both clients against the real binary: installs what they need,
# checks their generated parts match openapi.yaml, starts gameai (the newer
# of the release and debug builds, `GAMEAI_BIN` to choose, or a fresh
# debug build when neither exists) on a free port and runs
# the TypeScript and Python tests against it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
venv="${GAMEAI_CLIENTS_VENV:-$here/python/.venv}"
export GAMEAI_CLIENTS_VENV="$venv"

bin="${GAMEAI_BIN:-}"
if [ -z "$bin" ]; then
  # The newer of the release and debug builds: an old release binary must
  # not stand in for the code under test.
  for candidate in "$root/target/release/gameai" "$root/target/debug/gameai"; do
    if [ -x "$candidate" ] && { [ -z "$bin" ] || [ "$candidate" -nt "$bin" ]; }; then
      bin="$candidate"
    fi
  done
fi
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --quiet)
  bin="$root/target/debug/gameai"
fi

echo "clients: checking the generated code against openapi.yaml"
scratch="$(mktemp -d)"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
"$here/generate.sh" "$scratch"
diff -q "$scratch/typescript/src/schema.d.ts" "$here/typescript/src/schema.d.ts" >/dev/null || {
  echo "clients/typescript/src/schema.d.ts is stale: run clients/generate.sh" >&2
  exit 1
}
diff -rq -x __pycache__ "$scratch/python/gameai_client" "$here/python/gameai_client" || {
  echo "clients/python/gameai_client is stale: run clients/generate.sh" >&2
  exit 1
}
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/python/requirements-test.txt"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export GAMEAI_URL="http://127.0.0.1:$port"
echo "clients: starting $bin on $GAMEAI_URL"
GAMEAI_ADDR="127.0.0.1:$port" GAMEAI_WORKERS=2 RUST_LOG=warn "$bin" &
server=$!
for _ in $(seq 1 100); do
  curl -sf "$GAMEAI_URL/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "gameai exited at start" >&2; exit 1; }
  sleep 0.1
done
curl -sf "$GAMEAI_URL/healthz" >/dev/null

echo "clients: TypeScript"
(cd "$here/typescript" && npm test --silent)
echo "clients: Python"
(cd "$here/python" && PYTHONPATH=. "$venv/bin/python" -m pytest -q tests)
echo "clients: all passed"
