#!/usr/bin/env bash
# Ordinary searches under load while sessions ponder, against the same load
# with GAMEAI_PONDER=off: wrk's p50/p99 of an othello depth-7 search (past
# the cache) while a client opens an othello session every 100 ms (the AI
# moves, then idle workers ponder the replies), 2 workers, release binary.
# Needs wrk and curl.
# Usage: bash benches/ponder.sh [seconds] [connections...]
set -euo pipefail
cd "$(dirname "$0")/.."
. benches/wrk_post.sh
secs=${1:-12}
shift || true
conns=("${@:-1 3}")
port=${GAMEAI_BENCH_PORT:-18484}
cargo build --release --quiet
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT

wrk_post "$tmp/search.lua" '{"game":"othello","moves":"f5 d6 c3 d3 c4","depth":7,"cache":false}'

echo "| pondering | connections | requests/s | p50 | p99 | pondered positions | pondering time |"
echo "|---|---|---|---|---|---|---|"
for c in ${conns[*]}; do
  for ponder in off on; do
    GAMEAI_ADDR=127.0.0.1:$port RUST_LOG=warn GAMEAI_WORKERS=2 GAMEAI_PONDER=$ponder \
      target/release/gameai >/dev/null 2>&1 &
    server=$!
    pids=("$server")
    until curl -s -o /dev/null "http://127.0.0.1:$port/healthz"; do sleep 0.05; done
    (
      end=$((SECONDS + secs))
      while ((SECONDS < end)); do
        curl -s -o /dev/null "http://127.0.0.1:$port/v1/sessions" \
          -H 'content-type: application/json' \
          -d '{"game":"othello","moves":"f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6","ai":{"plays":"O","time_ms":200}}'
        sleep 0.1
      done
    ) &
    pids+=("$!")
    out=$(wrk -t1 -c"$c" -d"${secs}s" --latency -s "$tmp/search.lua" "http://127.0.0.1:$port/v1/search")
    wait "${pids[1]}" 2>/dev/null || true
    metrics=$(curl -s "http://127.0.0.1:$port/metrics")
    rate=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    count=$(awk '/^gameai_ponder_seconds_count/ {s += $2} END {print s + 0}' <<<"$metrics")
    spent=$(awk '/^gameai_ponder_seconds_sum/ {s += $2} END {printf "%.2f s", s}' <<<"$metrics")
    echo "| $ponder | $c | $rate | $p50 | $p99 | $count | $spent |"
    kill "$server"
    wait "$server" 2>/dev/null || true
  done
done
