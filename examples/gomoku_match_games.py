#!/usr/bin/env python3
"""Match records as games for gomoku_engine_evals.py: the 15×15 games of
one rule (freestyle unless --rule says otherwise) in match records (the JSON lines `gomoku_match.py --record` writes),
each distinct game once, shuffled with a fixed seed so that every lane of
the scorer gets a mix of the records, in the games format of gomoku_train:

    RESULT 3 MOVE...

RESULT is X (black won), O (white won) or D (a draw); the 3 is the opening
the scorer skips (the canonical openings' three stones; a longer opening's
other stones are scored like any position).

    python3 examples/gomoku_match_games.py [--rule RULE] [--except EARLIER.gz] RECORDS... | gzip -9n > GAMES.gz

With --except, a game the earlier games file already holds is left out.
"""
import gzip
import json
import random
import sys

SEED = 7


def main():
    paths = sys.argv[1:]
    rule = "freestyle"
    if paths[:1] == ["--rule"] and len(paths) > 1:
        rule, paths = paths[1], paths[2:]
    seen = set()
    if paths[:1] == ["--except"] and len(paths) > 1:
        with gzip.open(paths[1], "rt") as f:
            seen = {tuple(line.split()[2:]) for line in f}
        paths = paths[2:]
    if not paths:
        sys.exit(__doc__)
    games = []
    for path in paths:
        with open(path) as f:
            for line in f:
                try:
                    game = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if game.get("rule") != rule or game.get("size") != 15:
                    continue
                moves = tuple(game["moves"])
                if moves in seen:
                    continue
                seen.add(moves)
                winner = game["winner"]
                result = "D" if winner is None else "X" if winner == game["black"] else "O"
                games.append(f"{result} 3 {' '.join(moves)}")
    random.Random(SEED).shuffle(games)
    sys.stdout.write("".join(g + "\n" for g in games))


if __name__ == "__main__":
    main()
