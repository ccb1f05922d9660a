#!/usr/bin/env bash
# The service's own overhead: wrk (2 threads, 32 connections) against gameai
# in its default configuration and, side by side, against a bare axum
# server (examples/bare_server.rs: its own /healthz, and a JSON echo for the
# answers that need no search), on loopback. Each row is the median of
# several runs, taken in turn (gameai, bare, gameai, bare, ...) so a busy
# machine weighs on both alike; the ratio is gameai's share of the bare rate
# (the targets: 0.80 for /healthz, 0.70 for answers from the cache or a
# book). Last, how much log the service wrote under that load.
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

# The service as a user runs it: the default configuration (the log goes
# to a file, whose size the bench reports).
log=$(mktemp)
GAMEAI_ADDR=127.0.0.1:$port "$dir/gameai" >"$log" 2>&1 &
server=$!
"$dir/examples/bare_server" "127.0.0.1:$bare_port" &
bare=$!
searched=$(mktemp --suffix=.lua)
repeated=$(mktemp --suffix=.lua)
othello=$(mktemp --suffix=.lua)
othello_book=$(mktemp --suffix=.lua)
connect4_book=$(mktemp --suffix=.lua)
trap 'kill $server $bare 2>/dev/null; rm -f "$searched" "$repeated" "$othello" "$othello_book" "$connect4_book" "$log"' EXIT
for p in "$port" "$bare_port"; do
  for _ in $(seq 200); do curl -fs "localhost:$p/healthz" >/dev/null && break; sleep 0.05; done
done

# The same search, once past the analysis cache (searched on a worker every
# time) and once as it comes (repeated, so the cache answers it).
wrk_post "$searched" '{"game":"tictactoe","moves":["a1","b2","b1","c3"],"cache":false}'
wrk_post "$repeated" '{"game":"tictactoe","moves":["a1","b2","b1","c3"]}'
# Past othello's book, so searched once and then answered from the cache.
othello_cached='{"game":"othello","moves":"f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4","time_ms":100}'
wrk_post "$othello" "$othello_cached"
curl -fs "localhost:$port/v1/search" -H 'content-type: application/json' -d "$othello_cached" >/dev/null
# Opening moves, from the books.
wrk_post "$othello_book" '{"game":"othello","moves":"f5 d6"}'
wrk_post "$connect4_book" '{"game":"connect4","moves":"44"}'

# One wrk run: "requests/s p50 p99".
measure() {
  local out
  out=$(wrk --latency -t2 -c32 -d"${secs}s" "$@")
  awk '/Requests\/sec/ {rps = $2} $1 == "50%" {p50 = $2} $1 == "99%" {p99 = $2}
       END {print rps, p50, p99}' <<<"$out"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# row NAME PATH BARE_PATH [wrk args]: gameai on PATH and the bare server on
# BARE_PATH in turn, `runs` times.
row() {
  local name=$1 path=$2 bare_path=$3; shift 3
  local ours=() theirs=() p50 p99
  for _ in $(seq "$runs"); do
    read -r rps p50 p99 < <(measure "$@" "http://127.0.0.1:$port$path")
    ours+=("$rps")
    read -r rps _ _ < <(measure "$@" "http://127.0.0.1:$bare_port$bare_path")
    theirs+=("$rps")
  done
  local a b
  a=$(printf '%s\n' "${ours[@]}" | median)
  b=$(printf '%s\n' "${theirs[@]}" | median)
  printf '| %s | %.0f | %.0f | %.2f | %s | %s |\n' "$name" "$a" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')" "$p50" "$p99"
}

started=$SECONDS
logged=$(stat -c %s "$log")
echo "| route (wrk -t2 -c32, ${secs}s, median of $runs, $profile) | gameai req/s | bare axum req/s | ratio | gameai p50 (last run) | p99 |"
echo "|---|---|---|---|---|---|"
row "GET /healthz, against its /healthz" /healthz /healthz
row "othello from the cache, against a JSON echo" /v1/search /echo -s "$othello"
row "othello's book (f5 d6), against a JSON echo" /v1/search /echo -s "$othello_book"
row "Connect Four's book (44), against a JSON echo" /v1/search /echo -s "$connect4_book"
row "tic-tac-toe searched (\"cache\": false), against the typed answer" /v1/search /v1/search -s "$searched"
row "tic-tac-toe from the cache, against the typed answer" /v1/search /v1/search -s "$repeated"
# As browsers and most HTTP libraries send it: through the compression layer
# (the answer is too short to be compressed).
row "tic-tac-toe from the cache, accept-encoding: gzip" /v1/search /v1/search -s "$repeated" \
  -H "Accept-Encoding: gzip"
elapsed=$((SECONDS - started))
bytes=$(($(stat -c %s "$log") - logged))
echo
echo "The service wrote $bytes bytes of log in ${elapsed} s of load ($((bytes * 60 / (elapsed > 0 ? elapsed : 1))) bytes a minute), with the default configuration."
