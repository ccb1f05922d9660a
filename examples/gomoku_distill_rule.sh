#!/usr/bin/env bash
# Refines a rule set's evaluation (WORKDIR/RULE-w.bin, the layout of
# src/games/gomoku/eval-RULE.bin; renju's is refined further by
# examples/gomoku_refine_canonical.sh, which copies its own) the way
# examples/gomoku_distill.sh refined freestyle's: on positions classical
# Rapfi scored under that rule. The positions are every second one after
# the random opening of Rapfi's own games under the rule
# (examples/gomoku_rapfi_train.sh PBRAIN RULE), each searched at 50,000
# nodes, its score turned into an expected score for the side to move; the
# fit starts from the weights fitted to those games' outcomes (gomoku_train
# fit --from, only weakly pulled back to them) and keeps their move
# ordering. Rapfi is built as ../shared/ANCHORS.md says (classical
# evaluation, no network); give its pbrain-rapfi, with its config and model
# beside it.
#
# Renju's committed weights were scored on the first games of each of the
# eight blocks, as many as the counts below (5,738 games, 71,289
# positions, about 40 minutes for four scorers on two cores); a rule
# without counts scores every game. Four scorers run side by side (each
# waits 30 ms after every answer, so two share a core). A step whose output
# exists is skipped, and a lane resumes where it stopped.
#
#   bash examples/gomoku_distill_rule.sh PBRAIN_RAPFI RULE [WORKDIR]
#       (RULE standard or renju; WORKDIR default target/gomoku-distill-RULE;
#       the games come from gomoku_rapfi_train.sh's own work directory)
set -euo pipefail
engine=$(realpath "$1")
cd "$(dirname "$0")/.."
rule=$2
case $rule in
  renju) counts=(731 720 693 749 694 724 667 760) ;;
  standard) counts=() ;;
  *) echo "unknown rule $rule (standard or renju)" >&2; exit 2 ;;
esac
work=${3:-target/gomoku-distill-$rule}
games=target/gomoku-rapfi-$rule

# The games and the weights fitted to their outcomes (skipped when made).
bash examples/gomoku_rapfi_train.sh "$engine" "$rule"
mkdir -p "$work"
train=target/release/examples/gomoku_train

# shellcheck source=examples/common/step.sh
source examples/common/step.sh
# shellcheck source=examples/common/score.sh
source examples/common/score.sh

if [ ! -s "$work/games.txt" ]; then
  for b in 0 1 2 3 4 5 6 7; do
    if [ ${#counts[@]} -gt 0 ]; then head -n "${counts[$b]}" "$games/rapfi-$b.txt"; else cat "$games/rapfi-$b.txt"; fi
  done >"$work/games.part"
  mv "$work/games.part" "$work/games.txt"
fi

score "$rule" "$work/games.txt" 2 scored

step "$rule-w.bin" fit "$rule" @OUT --from "$games/$rule-w.bin" "$work"/scored-{0..3}.txt
