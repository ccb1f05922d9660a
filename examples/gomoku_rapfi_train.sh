#!/usr/bin/env bash
# Makes a rule set's evaluation and move-ordering weights (WORKDIR/RULE-w.bin,
# the layout of src/games/gomoku/eval-RULE.bin) from games classical Rapfi played
# against itself under that rule at 8,000 nodes a move, from the same kind of random
# openings as our self-play: outcomes of stronger play than our own
# 3,000-node games, where the defence holds longer. Rapfi is built as
# ../shared/ANCHORS.md says (classical evaluation, no network); give its
# pbrain-rapfi, with its config and model beside it.
#
# Eight engine processes play 2,000-game blocks side by side (each waits
# 30 ms after every move, so four share a core); freestyle's block lengths
# are where its first run was stopped (12,469 games, about 35 minutes on
# two cores), the other rules' 1,550 each (12,400 games, renju's in 36
# minutes). The last
# block's last 250 games are held out (`gomoku_train loss RULE WEIGHTS
# FILE`). A step whose output exists is skipped, and a block resumes where
# it stopped (with a fresh engine, whose table starts empty, so the games
# after that point differ from an uninterrupted run's).
#
# Its weights are where the committed ones start: freestyle's
# (examples/gomoku_distill.sh refines them on positions Rapfi scored, and
# standard plays with the result) and renju's
# (examples/gomoku_distill_rule.sh, then gomoku_refine_canonical.sh). They
# stay in WORKDIR; the engine page has the matches that chose each step.
#
#   bash examples/gomoku_rapfi_train.sh PBRAIN_RAPFI [RULE] [WORKDIR]
#       (RULE freestyle, standard or renju, default freestyle; WORKDIR
#       default target/gomoku-rapfi, or target/gomoku-rapfi-RULE for the
#       other rules)
set -euo pipefail
engine=$(realpath "$1")
cd "$(dirname "$0")/.."
rule=${2:-freestyle}
case $rule in
  freestyle) work=${3:-target/gomoku-rapfi} blocks=(1550 1530 1550 1483 1653 1566 1588 1549) ;;
  standard | renju) work=${3:-target/gomoku-rapfi-$rule} blocks=(1550 1550 1550 1550 1550 1550 1550 1550) ;;
  *) echo "unknown rule $rule" >&2; exit 2 ;;
esac
mkdir -p "$work"
cargo build --release --quiet --example gomoku_train
train=target/release/examples/gomoku_train

# shellcheck source=examples/common/step.sh
source examples/common/step.sh

heldout=250
players=()
for b in "${!blocks[@]}"; do
  python3 examples/gomoku_engine_games.py "$engine" 8000 17 $((b * 2000)) \
    "${blocks[$b]}" "$work/rapfi-$b.txt" "$rule" &
  players+=($!)
done
for p in "${players[@]}"; do wait "$p"; done
last=$((${#blocks[@]} - 1))
if [ ! -s "$work/rapfi-train.txt" ]; then
  for b in "${!blocks[@]}"; do
    if [ "$b" -lt "$last" ]; then cat "$work/rapfi-$b.txt"; fi
  done >"$work/rapfi-train.part"
  head -n -$heldout "$work/rapfi-$last.txt" >>"$work/rapfi-train.part"
  mv "$work/rapfi-train.part" "$work/rapfi-train.txt"
fi
tail -n $heldout "$work/rapfi-$last.txt" >"$work/rapfi-heldout.txt"

step "$rule-e.bin" fit "$rule" @OUT "$work/rapfi-train.txt"
step "$rule-w.bin" order "$rule" "$work/$rule-e.bin" @OUT "$work/rapfi-train.txt"
