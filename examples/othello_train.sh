#!/usr/bin/env bash
# Makes othello's pattern weights (src/games/othello/weights.bin) from
# nothing, in generations: the hand-made evaluation plays the games that
# train the first weights, and each generation's weights play the games
# that, with the earlier ones, train the next. Every step is reproducible
# to the bit (fixed seeds, depth-limited players, the games joined in
# order), and a step whose output exists is skipped, so an interrupted run
# resumes where it stopped.
#
# The committed weights are generation 2 (about 2.5 hours on two cores:
# 100,000 games by the hand-made evaluation, 60,000 by generation 1);
# GENERATIONS=1 stops after the first.
#
#   bash examples/othello_train.sh [WORKDIR]    (default target/othello-train)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/othello-train}
mkdir -p "$work"
cargo build --release --quiet --example othello_train
train=target/release/examples/othello_train

# shellcheck source=examples/common/step.sh
source examples/common/step.sh

step g0.txt selfplay 100000 10 @OUT hand 4
step w1.bin fit @OUT "$work/g0.txt"
last=w1.bin
if [ "${GENERATIONS:-2}" -ge 2 ]; then
  step g1.txt selfplay 60000 11 @OUT "$work/w1.bin" 4
  step w2.bin fit @OUT "$work/g0.txt" "$work/g1.txt"
  last=w2.bin
fi
cp "$work/$last" src/games/othello/weights.bin

# Held-out games for the loss figures (`othello_train loss WEIGHTS FILE`).
step heldout0.txt selfplay 3000 99 @OUT hand 4
step heldout1.txt selfplay 3000 98 @OUT "$work/w1.bin" 4
