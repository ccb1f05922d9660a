#!/usr/bin/env bash
# The service's own overhead: wrk against a trivial search and against a
# route that does no search, on loopback, with the release binary.
# Needs wrk (apt-get install wrk). Usage: bash benches/http_overhead.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
port=${GAMEAI_BENCH_PORT:-18481}
cargo build --release --quiet
GAMEAI_ADDR=127.0.0.1:$port RUST_LOG=warn ./target/release/gameai &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do curl -fs "localhost:$port/healthz" >/dev/null && break; sleep 0.05; done

script=$(mktemp --suffix=.lua)
cat >"$script" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"game":"tictactoe","moves":["a1","b2","b1","c3"]}'
LUA

row() {
  local name=$1; shift
  local out
  out=$(wrk --latency -t2 -c32 -d"${secs}s" "$@")
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '| %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99"
}

echo "| route (wrk -t2 -c32, ${secs}s) | requests/s | p50 | p99 |"
echo "|---|---|---|---|"
row "GET /healthz (no search)" "http://127.0.0.1:$port/healthz"
row "POST /v1/search (tic-tac-toe, win in 1)" -s "$script" "http://127.0.0.1:$port/v1/search"
rm -f "$script"
