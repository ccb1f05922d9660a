#!/usr/bin/env bash
# The gomoku engine page's equal-time table: this tree's build (the service,
# one worker, no cache) against a Piskvork-protocol engine (classical Rapfi,
# built as ../shared/ANCHORS.md says) at the same time a move, one thread
# each, in every rule and on 20×20, refereed by the shared harness
# (../shared/tools/gomoku_match.py). Each row plays its openings twice with
# the colours swapped: the 26 canonical ones on 15×15, and on 20×20 26
# random ones from a seed no change was tuned on. It prints a Markdown
# table (W–L–D, score, Elo paired by opening, the score with each colour,
# each side's mean move time) and keeps each row's harness report and game
# records in OUT.
#
# Usage: bash benches/gomoku_rapfi_table.sh PBRAIN [TIME_MS] [OUT] [ROW...]
#   ROW is freestyle-15, standard-15, renju-15 or freestyle-20 (default:
#   all four); OUT defaults to target/gomoku-rapfi-table.
#   bash benches/gomoku_rapfi_table.sh /path/to/pbrain-rapfi 200
# GAMEAI_MATCH_HARNESS names the harness elsewhere; GAMEAI_BENCH_PORT the
# service's port; GAMEAI_TABLE_GAMES the games a row (default 52).
set -euo pipefail
engine=$(realpath "$1")
cd "$(dirname "$0")/.."
time_ms=${2:-200}
out=${3:-target/gomoku-rapfi-table}
shift $(($# < 3 ? $# : 3))
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(freestyle-15 standard-15 renju-15 freestyle-20)
harness=${GAMEAI_MATCH_HARNESS:-../shared/tools/gomoku_match.py}
port=${GAMEAI_BENCH_PORT:-18571}
games=${GAMEAI_TABLE_GAMES:-52}
# The 20×20 openings: random, from a seed no change was tuned on.
openings_20=random:26:2020
mkdir -p "$out"
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null' EXIT

cargo build --release --quiet
GAMEAI_ADDR=127.0.0.1:$port RUST_LOG=warn GAMEAI_WORKERS=1 GAMEAI_CACHE_MB=0 \
  target/release/gameai >/dev/null 2>&1 &
pid=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/healthz"; do sleep 0.05; done

# row RULE SIZE: plays the row's match and prints its line of the table.
row() {
  local rule=$1 size=$2 openings=() stem="$out/$1-$2-${time_ms}ms"
  [ "$size" = 15 ] || openings=(--openings "$openings_20")
  python3 "$harness" --p1 "http://127.0.0.1:$port/v1/search" --name1 gameai \
    --p2 "engine:$engine" --name2 opponent --games "$games" --time-ms "$time_ms" \
    --rule "$rule" --size "$size" "${openings[@]}" --info 'thread_num 1' \
    --record "$stem.jsonl" >"$stem.txt"
  awk -v label="$rule ${size}×${size}" '
    $1 == "A" && $2 == "as" && $3 == "black" { black = $8 }
    $1 == "A" && $2 == "as" && $3 == "white" { white = $8 }
    $1 == "total" { wld = $3 "–" $4 "–" $5; score = $6 }
    /Elo\(A - B\)/ {
      elo = $5
      if (match($0, /by game pairs \[[^]]*\]/)) pairs = substr($0, RSTART + 14, RLENGTH - 14)
    }
    $1 == "A" && $2 == "move" { ours = $5 }
    $1 == "B" && $2 == "move" { theirs = $5 }
    END {
      printf "| %s | %s | %s | %s %s | %s | %s | %s ms | %s ms |\n",
        label, wld, score, elo, pairs, black, white, ours, theirs
    }' "$stem.txt"
}

echo "| rule, board ($games games, $time_ms ms a move) | W–L–D | score | Elo (pairs) | as black | as white | our mean move time | opponent's |"
echo "|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do
  row "${r%-*}" "${r##*-}"
done
