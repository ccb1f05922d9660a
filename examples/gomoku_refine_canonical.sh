#!/usr/bin/env bash
# Refines a rule set's evaluation (WORKDIR/RULE-w.bin; renju's is copied to
# src/games/gomoku/eval-renju.bin) on
# positions of our own play that classical Rapfi scored at 50,000 nodes,
# most of them from the 26 canonical three-stone openings every renju game
# (and the match bench's 15x15 rows) starts from. The starting weights are
# the ones the rule's earlier recipe made (run first when missing): renju's
# from examples/gomoku_distill_rule.sh, standard's from
# examples/gomoku_rapfi_train.sh.
#
# 1. Renju only: positions of our games against Rapfi on random openings,
#    every second one of the 2,204 games of
#    examples/data/gomoku-renju-match-games*.txt.gz, scored by Rapfi at
#    50,000 nodes (gomoku_engine_evals.py --rule renju PBRAIN 50000 2 LANE
#    4, in three sets of games, four lanes each). They are committed as
#    scored: examples/data/gomoku-renju-match-scored.txt.gz (lanes 0-2 of
#    each set, 22,044 positions) and gomoku-renju-match-scored-3.txt.gz
#    (lane 3, 6,926). The weights fitted to the first file alone play the
#    games of step 2.
# 2. 1,500 self-play games at 30,000 nodes a move, each from a canonical
#    opening and one or two random stones (`gomoku_train selfplay ...
#    --openings`), every second position after them scored by Rapfi the
#    same way (four scorers on two cores, about 20 minutes).
# 3. The fit: from the starting weights, pull 3e-3, on all of it; the move
#    ordering stays the starting weights'.
#
# Standard's result scored less against Rapfi than the weights it started
# from, and standard plays with freestyle's weights, which scored more
# (docs/engines/gomoku.md): it stays in WORKDIR.
#
# A step whose output exists is skipped, and a scoring lane resumes where
# it stopped.
#
#   bash examples/gomoku_refine_canonical.sh PBRAIN_RAPFI RULE [WORKDIR]
#       (RULE renju or standard; WORKDIR default target/gomoku-canonical-RULE)
set -euo pipefail
engine=$(realpath "$1")
cd "$(dirname "$0")/.."
rule=$2
case $rule in
  renju)
    start=target/gomoku-distill-renju/renju-w.bin
    [ -s "$start" ] || bash examples/gomoku_distill_rule.sh "$engine" renju
    ;;
  standard)
    start=target/gomoku-rapfi-standard/standard-w.bin
    [ -s "$start" ] || bash examples/gomoku_rapfi_train.sh "$engine" standard
    ;;
  *) echo "unknown rule $rule (renju or standard)" >&2; exit 2 ;;
esac
work=${3:-target/gomoku-canonical-$rule}
mkdir -p "$work"
cargo build --release --quiet --example gomoku_train
train=target/release/examples/gomoku_train
pull=3e-3

# shellcheck source=examples/common/step.sh
source examples/common/step.sh
# shellcheck source=examples/common/score.sh
source examples/common/score.sh

extra=()
player=$start
if [ "$rule" = renju ]; then
  for set in match-scored match-scored-3; do
    [ -s "$work/$set.txt" ] || zcat "examples/data/gomoku-renju-$set.txt.gz" >"$work/$set.txt"
    extra+=("$work/$set.txt")
  done
  step match-w.bin fit renju @OUT --from "$start" --pull "$pull" "$work/match-scored.txt"
  player=$work/match-w.bin
fi

# The 26 canonical openings, as the match harness numbers them (D1-D13,
# I1-I13): black on the centre, white above it or diagonally, black's
# third stone within two cells.
cat >"$work/canonical.txt" <<'EOF'
h8 h7 h6
h8 h7 i6
h8 h7 j6
h8 h7 i7
h8 h7 j7
h8 h7 i8
h8 h7 j8
h8 h7 h9
h8 h7 i9
h8 h7 j9
h8 h7 h10
h8 h7 i10
h8 h7 j10
h8 i7 j6
h8 i7 j7
h8 i7 j8
h8 i7 j9
h8 i7 j10
h8 i7 i8
h8 i7 i9
h8 i7 i10
h8 i7 h9
h8 i7 h10
h8 i7 g9
h8 i7 g10
h8 i7 f10
EOF
step canonical-games.txt selfplay "$rule" 1500 41 30000 @OUT "$player" --openings "$work/canonical.txt"

score "$rule" "$work/canonical-games.txt" 2 canonical-scored

step "$rule-w.bin" fit "$rule" @OUT --from "$start" --pull "$pull" \
  "${extra[@]}" "$work"/canonical-scored-{0..3}.txt
if [ "$rule" = renju ]; then
  cp "$work/$rule-w.bin" src/games/gomoku/eval-renju.bin
fi
