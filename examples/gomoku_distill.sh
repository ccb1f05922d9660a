#!/usr/bin/env bash
# Makes the freestyle evaluation (src/games/gomoku/eval-freestyle.bin, which
# standard plays with too) by
# refining the weights fitted to Rapfi's games (examples/gomoku_rapfi_train.sh)
# on positions Rapfi scored: every third position of the standard recipe's
# games (gomoku_rapfi_train.sh PBRAIN standard; the rules differ only on
# overlines, and a position a six has already won under freestyle rules is
# left out), and positions of our own games against Rapfi and against
# ourselves (examples/data/gomoku-match-games*.txt.gz), searched at 50,000
# nodes under freestyle rules, its score turned into an expected score for
# the side to move. Rapfi is built as
# ../shared/ANCHORS.md says (classical evaluation, no network); give its
# pbrain-rapfi, with its config and model beside it.
#
# Four engine processes score the positions side by side (each waits 30 ms
# after every answer, so two share a core); the counts are where the first
# run of the standard games was stopped (80,834 positions, about 32
# minutes on two cores); our own games are scored to the end. A step
# whose output exists is skipped, and a lane resumes where it stopped.
# The fit starts from the Rapfi-games weights (gomoku_train fit --from,
# only weakly pulled back to them); their move ordering is kept. The standard
# games the committed weights were scored on are the ones the README
# describes, one block of them resumed after a lost command: a run from
# nothing plays that block's last 1,464 games differently, and scores
# other positions from them.
#
#   bash examples/gomoku_distill.sh PBRAIN_RAPFI [WORKDIR]
#       (WORKDIR default target/gomoku-distill; the two recipes it builds
#       on keep their own work directories)
set -euo pipefail
engine=$(realpath "$1")
cd "$(dirname "$0")/.."
work=${2:-target/gomoku-distill}

# The starting weights and the games: both recipes skip what they have
# made already.
bash examples/gomoku_rapfi_train.sh "$engine" freestyle
bash examples/gomoku_rapfi_train.sh "$engine" standard
mkdir -p "$work"
cargo build --release --quiet --example gomoku_train
train=target/release/examples/gomoku_train

# shellcheck source=examples/common/step.sh
source examples/common/step.sh

# shellcheck source=examples/common/score.sh
source examples/common/score.sh

# Every third position of the standard recipe's games, each lane stopped
# where the first run was.
score freestyle target/gomoku-rapfi-standard/rapfi-train.txt 3 scored 20119 20222 20286 20207

# Then the positions of our own games: every fifth of the 5,332 freestyle
# games in examples/data/gomoku-match-games.txt.gz (gomoku_match_games.py
# made it from the records of the matches issue 17 played at 200 ms a move:
# the service against classical Rapfi, and builds of it against each
# other), scored the same way to the end (45,055 positions, about 27
# minutes).
score freestyle examples/data/gomoku-match-games.txt.gz 5 match

# Then more of our games: every second position of the 759 games in
# examples/data/gomoku-match-games-2.txt.gz (the records of the matches
# played since with the weights made above, against Rapfi and against the
# build before; gomoku_match_games.py --except the first file), and the
# first file's positions two plies after the ones above (every fifth from
# offset 2).
score freestyle examples/data/gomoku-match-games-2.txt.gz 2 match2
score freestyle examples/data/gomoku-match-games.txt.gz 5+2 matchb

step freestyle-w.bin fit freestyle @OUT --from target/gomoku-rapfi/freestyle-w.bin \
  "$work"/scored-{0..3}.txt "$work"/{match,match2,matchb}-{0..3}.txt
cp "$work/freestyle-w.bin" src/games/gomoku/eval-freestyle.bin
