#!/usr/bin/env bash
# Makes gomoku's evaluation weights (src/games/gomoku/eval-RULE.bin) from
# nothing, per rule set, in generations: the hand-made evaluation plays the
# games that train the first weights, and each generation's weights play
# the games that, with the generation before, train the next (three
# generations: several hours per rule set on two cores). Every step is
# reproducible to the bit (fixed seeds, node-limited players, the games
# joined in order), and a step whose output exists is skipped, so an
# interrupted run resumes where it stopped.
#
# The committed weights start from fits to Rapfi's games instead
# (examples/gomoku_rapfi_train.sh) and are then refined on Rapfi's scores
# (examples/gomoku_distill.sh, whose freestyle weights standard plays with
# too, and for renju gomoku_distill_rule.sh and
# gomoku_refine_canonical.sh), so this script
# writes into WORKDIR alone: the self-play weights the README compares
# them with (freestyle only when asked for).
#
#   bash examples/gomoku_train.sh [WORKDIR] [RULE...]
#       (default target/gomoku-train, standard and renju)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/gomoku-train}
shift || true
rules=("${@:-standard renju}")
mkdir -p "$work"
cargo build --release --quiet --example gomoku_train
train=target/release/examples/gomoku_train
nodes=3000

# shellcheck source=examples/common/step.sh
source examples/common/step.sh

for rule in ${rules[*]}; do
  # Freestyle, the rule most games are played under, gets twice the games.
  games=10000
  [ "$rule" = freestyle ] && games=20000
  step "$rule-w0.bin" hand "$rule" @OUT
  step "$rule-g0.txt" selfplay "$rule" "$games" 1 "$nodes" @OUT "$work/$rule-w0.bin"
  # Each generation: the evaluation fitted to the outcomes of the last two
  # generations' games, then the move ordering to the moves they chose.
  step "$rule-e1.bin" fit "$rule" @OUT "$work/$rule-g0.txt"
  step "$rule-w1.bin" order "$rule" "$work/$rule-e1.bin" @OUT "$work/$rule-g0.txt"
  step "$rule-g1.txt" selfplay "$rule" "$games" 2 "$nodes" @OUT "$work/$rule-w1.bin"
  step "$rule-e2.bin" fit "$rule" @OUT "$work/$rule-g0.txt" "$work/$rule-g1.txt"
  step "$rule-w2.bin" order "$rule" "$work/$rule-e2.bin" @OUT "$work/$rule-g0.txt" "$work/$rule-g1.txt"
  step "$rule-g2.txt" selfplay "$rule" "$games" 3 "$nodes" @OUT "$work/$rule-w2.bin"
  step "$rule-e3.bin" fit "$rule" @OUT "$work/$rule-g1.txt" "$work/$rule-g2.txt"
  step "$rule-w3.bin" order "$rule" "$work/$rule-e3.bin" @OUT "$work/$rule-g1.txt" "$work/$rule-g2.txt"
  # Held-out games for the loss figures (`gomoku_train loss RULE WEIGHTS FILE`).
  step "$rule-heldout.txt" selfplay "$rule" 2000 99 "$nodes" @OUT "$work/$rule-w2.bin"
done
