#!/usr/bin/env bash
# Makes othello's pattern weights (src/games/othello/weights.bin) from
# nothing, in generations: the hand-made evaluation plays the games that
# train the first weights, and each generation's weights play the games
# that, with the earlier ones, train the next. Every step is reproducible
# to the bit (fixed seeds, depth-limited players, the games joined in
# order), and a step whose output exists is skipped, so an interrupted run
# resumes where it stopped.
#
# The committed weights are generation 3 (about 3.3 hours on two cores:
# 100,000 games by the hand-made evaluation, 60,000 by generation 1 and
# 60,000 by generation 2; generation 3 is fitted on generation 2's games
# alone); GENERATIONS=1 or 2 stops after that generation.
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

generations=${GENERATIONS:-3}
step g0.txt selfplay 100000 10 @OUT hand 4
step w1.bin fit @OUT "$work/g0.txt"
last=w1.bin
if [ "$generations" -ge 2 ]; then
  step g1.txt selfplay 60000 11 @OUT "$work/w1.bin" 4
  step w2.bin fit @OUT "$work/g0.txt" "$work/g1.txt"
  last=w2.bin
fi
if [ "$generations" -ge 3 ]; then
  # Six blocks of 10,000 games (seeds 31-36), each resumable on its own.
  g2=()
  for seed in 31 32 33 34 35 36; do
    step "g2-$seed.txt" selfplay 10000 "$seed" @OUT "$work/w2.bin" 4
    g2+=("$work/g2-$seed.txt")
  done
  step w3.bin fit @OUT "${g2[@]}"
  last=w3.bin
fi
cp "$work/$last" src/games/othello/weights.bin

# Held-out games for the loss figures (`othello_train loss WEIGHTS FILE`).
step heldout0.txt selfplay 3000 99 @OUT hand 4
step heldout1.txt selfplay 3000 98 @OUT "$work/w1.bin" 4
if [ -s "$work/w2.bin" ]; then
  step heldout2.txt selfplay 3000 97 @OUT "$work/w2.bin" 4
fi
