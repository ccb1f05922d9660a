#!/usr/bin/env bash
# The service's own overhead: wrk (2 threads, 32 connections) against gameai
# and, side by side, against a bare axum server (examples/bare_server.rs)
# answering the same request shapes, on loopback. Each row is the median of
# several runs, taken in turn (gameai, bare, gameai, bare, ...) so a busy
# machine weighs on both alike; the last column is gameai's share of the
# bare rate (the target is 0.60 or more).
#
# Needs wrk (apt-get install wrk).
# Usage: bash benches/http_overhead.sh [seconds per run] [runs]
# GAMEAI_BENCH_PROFILE=dev measures the dev build instead of the release one
# (quicker to build, slower to serve: the ratios come out lower).
set -euo pipefail
cd "$(dirname "$0")/.."
. benches/wrk_post.sh
secs=${1:-10}
runs=${2:-3}
port=${GAMEAI_BENCH_PORT:-18481}
bare_port=$((port + 1))
profile=${GAMEAI_BENCH_PROFILE:-release}
if [ "$profile" = release ]; then
  cargo build --release --quiet --bin gameai --example bare_server
  dir=target/release
else
  cargo build --quiet --bin gameai --example bare_server
  dir=target/debug
fi

# The service as deployed, but with the access log off: the bench measures
# the request path, not the terminal (see GAMEAI_ACCESS_LOG).
GAMEAI_ADDR=127.0.0.1:$port GAMEAI_ACCESS_LOG=${GAMEAI_ACCESS_LOG:-off} RUST_LOG=warn \
  "$dir/gameai" &
server=$!
"$dir/examples/bare_server" "127.0.0.1:$bare_port" &
bare=$!
searched=$(mktemp --suffix=.lua)
repeated=$(mktemp --suffix=.lua)
trap 'kill $server $bare 2>/dev/null; rm -f "$searched" "$repeated"' EXIT
for p in "$port" "$bare_port"; do
  for _ in $(seq 200); do curl -fs "localhost:$p/healthz" >/dev/null && break; sleep 0.05; done
done

# The same search, once past the analysis cache (searched on a worker every
# time) and once as it comes (repeated, so the cache answers it).
wrk_post "$searched" '{"game":"tictactoe","moves":["a1","b2","b1","c3"],"cache":false}'
wrk_post "$repeated" '{"game":"tictactoe","moves":["a1","b2","b1","c3"]}'

# One wrk run: "requests/s p50 p99".
measure() {
  local out
  out=$(wrk --latency -t2 -c32 -d"${secs}s" "$@")
  awk '/Requests\/sec/ {rps = $2} $1 == "50%" {p50 = $2} $1 == "99%" {p99 = $2}
       END {print rps, p50, p99}' <<<"$out"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# row NAME PATH [wrk args]: gameai and the bare server in turn, `runs` times.
row() {
  local name=$1 path=$2; shift 2
  local ours=() theirs=() p50 p99
  for _ in $(seq "$runs"); do
    read -r rps p50 p99 < <(measure "$@" "http://127.0.0.1:$port$path")
    ours+=("$rps")
    read -r rps _ _ < <(measure "$@" "http://127.0.0.1:$bare_port$path")
    theirs+=("$rps")
  done
  local a b
  a=$(printf '%s\n' "${ours[@]}" | median)
  b=$(printf '%s\n' "${theirs[@]}" | median)
  printf '| %s | %.0f | %.0f | %.2f | %s | %s |\n' "$name" "$a" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')" "$p50" "$p99"
}

echo "| route (wrk -t2 -c32, ${secs}s, median of $runs, $profile) | gameai req/s | bare axum req/s | ratio | gameai p50 (last run) | p99 |"
echo "|---|---|---|---|---|---|"
row "GET /healthz" /healthz
row "POST /v1/search (tic-tac-toe, win in 1, searched)" /v1/search -s "$searched"
row "POST /v1/search (the same, repeated: from the cache)" /v1/search -s "$repeated"
# As browsers and most HTTP libraries send it: through the compression layer
# (the answer is too short to be compressed).
row "POST /v1/search (repeated, accept-encoding: gzip)" /v1/search -s "$repeated" \
  -H "Accept-Encoding: gzip"
