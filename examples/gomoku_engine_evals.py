#!/usr/bin/env python3
"""Positions scored by another engine, for gomoku_train: a Piskvork-protocol
engine (Rapfi, say) searches positions taken from recorded games (the
games format of gomoku_train and gomoku_engine_games.py) and its score
becomes the position's target, one line per position:

    =PROBABILITY MOVE_COUNT MOVE...

PROBABILITY is the engine's expected score for the side to move after the
moves, its evaluation turned into a probability by the engine's own scale
(Rapfi: sigmoid(eval / 200)); a proven win is 1, a proven loss 0. A
position where a side has five in a row to make is skipped (the fit skips
it too), as is one the engine answers without a search report.

    python3 examples/gomoku_engine_evals.py [--rule RULE] ENGINE NODES STRIDE[+OFFSET] LANE LANES GAMES OUT [COUNT]

takes the games of GAMES (gzip-compressed when its name ends in .gz)
whose index modulo LANES is LANE and, in each, the positions after the
random opening whose ply is congruent to the game's index plus OFFSET
(default 0; another offset takes other positions of the same games)
modulo STRIDE,
searched with NODES nodes (INFO max_node) on one thread in one engine
process, appending to OUT until it holds COUNT positions (all of them
without COUNT), under RULE (freestyle, the default, standard or renju:
the engine is told the rule, and a position where a side has a five to
make under it is skipped); positions OUT already holds are not searched
again, so an interrupted run resumes where it stopped (with a fresh
engine, whose table starts empty, so the scores after that point may
differ a little from an uninterrupted run's).
"""
import gzip
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gomoku_engine_games as games  # noqa: E402

# Rapfi's scale: win rate = sigmoid(eval / SCALE).
SCALE = 200.0
EVAL = re.compile(r"\| Eval (\S+) \|")


def probability(text):
    """The expected score an engine's evaluation text stands for."""
    if text.startswith("+M"):
        return 1.0
    if text.startswith("-M"):
        return 0.0
    return 1.0 / (1.0 + math.exp(-int(text) / SCALE))


class Scorer(games.Engine):
    evaluation = None

    def heard(self, line):
        m = EVAL.search(line)
        if line.startswith("MESSAGE") and m:
            self.evaluation = m.group(1)

    def score(self, moves):
        """The engine's last reported evaluation after `moves`, or None."""
        self.evaluation = None
        self.move(moves)
        return self.evaluation


def five_to_make(board, rule):
    """Whether either side has a cell that makes five in a row."""
    for r in range(games.SIZE):
        for c in range(games.SIZE):
            if board[r][c]:
                continue
            for colour in (1, 2):
                board[r][c] = colour
                won = games.wins(rule, board, r, c)
                board[r][c] = 0
                if won:
                    return True
    return False


def positions(line, index, stride, offset, rule):
    """The (moves) prefixes of a recorded game that are to be scored."""
    words = line.split()
    opening = int(words[1])
    names = words[2:]
    board = [[0] * games.SIZE for _ in range(games.SIZE)]
    for ply, name in enumerate(names):
        if ply >= opening and ply % stride == (index + offset) % stride and not five_to_make(board, rule):
            yield names[:ply]
        r, c = games.cell(name)
        board[r][c] = 1 + ply % 2


def main():
    args = sys.argv[1:]
    rule = "freestyle"
    if args[:1] == ["--rule"] and len(args) > 1:
        rule, args = args[1], args[2:]
    if len(args) not in (7, 8) or rule not in games.RULES:
        sys.exit(__doc__)
    program, nodes, stride, lane, lanes, source, out = args[:7]
    stride, _, offset = stride.partition("+")
    stride, offset, lane, lanes = int(stride), int(offset or 0), int(lane), int(lanes)
    count = int(args[7]) if len(args) == 8 else None
    scored = games.complete_lines(out)
    done = {" ".join(line.split()[2:]) for line in scored}
    held = len(scored)
    with (gzip.open(source, "rt") if source.endswith(".gz") else open(source)) as f:
        lines = f.read().splitlines()
    engine = None
    with open(out, "a") as f:
        for index, line in enumerate(lines):
            if count is not None and held >= count:
                break
            if index % lanes != lane:
                continue
            for names in positions(line, index, stride, offset, rule):
                if count is not None and held >= count:
                    break
                key = " ".join(names)
                if key in done:
                    continue
                if engine is None:
                    engine = Scorer(program, int(nodes), rule)
                text = engine.score([games.cell(n) for n in names])
                if text is None:
                    continue
                f.write(f"={probability(text):.4f} {len(names)} {key}\n")
                f.flush()
                held += 1
    if engine is not None:
        engine.close()


if __name__ == "__main__":
    main()
