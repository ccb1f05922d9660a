#!/usr/bin/env bash
# The gomoku engine's test bench: a short match of this tree's build against
# another revision's (default: HEAD, so uncommitted changes play the last
# commit), or against a Piskvork-protocol engine, refereed by the shared
# harness (../shared/tools/gomoku_match.py), each opening played with both
# colours, and an Elo estimate paired by opening. Against a revision the
# openings are the balanced ones of benches/gomoku-openings-freestyle.jsonl
# (examples/gomoku_openings.rs), where the two colours score about even and
# fewer pairs of games split one each; against an engine, the 26
# canonical ones, as in the README's ladder. An --openings option after the
# first three arguments chooses others. Each server has one worker and no
# cache, as in the README's ladder.
#
# Usage: bash benches/gomoku_match.sh [REV | engine:CMD] [GAMES] [TIME_MS] [harness options...]
#   bash benches/gomoku_match.sh HEAD~1 52 200
#   bash benches/gomoku_match.sh engine:/path/to/pbrain-rapfi 52 200 --info 'max_node 10000'
# GAMEAI_MATCH_HARNESS names the harness elsewhere; GAMEAI_BENCH_PORT the
# first of the two ports.
set -euo pipefail
cd "$(dirname "$0")/.."
opponent=${1:-HEAD}
games=${2:-52}
time_ms=${3:-200}
shift $(($# < 3 ? $# : 3))
harness=${GAMEAI_MATCH_HARNESS:-../shared/tools/gomoku_match.py}
port=${GAMEAI_BENCH_PORT:-18561}
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; git worktree remove --force "$tmp/old" 2>/dev/null; rm -rf "$tmp"' EXIT

cargo build --release --quiet
serve() { # binary port
  GAMEAI_ADDR=127.0.0.1:$2 RUST_LOG=warn GAMEAI_WORKERS=1 GAMEAI_CACHE_MB=0 "$1" >/dev/null 2>&1 &
  pids+=("$!")
  until curl -s -o /dev/null "http://127.0.0.1:$2/healthz"; do sleep 0.05; done
}
serve target/release/gameai "$port"
new="http://127.0.0.1:$port/v1/search"

case $opponent in
  engine:*)
    old=$opponent
    extra=(--info 'thread_num 1')
    ;;
  *)
    # The other revision builds in a worktree of its own, with its own target.
    git worktree add --detach --quiet "$tmp/old" "$opponent"
    ln -s "$(pwd)/../shared" "$tmp/shared"
    (cd "$tmp/old" && cargo build --release --quiet --target-dir "$tmp/target")
    serve "$tmp/target/release/gameai" $((port + 1))
    old="http://127.0.0.1:$((port + 1))/v1/search"
    extra=(--openings benches/gomoku-openings-freestyle.jsonl)
    ;;
esac

python3 "$harness" --p1 "$new" --name1 "this tree" --p2 "$old" --name2 "$opponent" \
  --games "$games" --time-ms "$time_ms" "${extra[@]}" "$@"
