#!/usr/bin/env python3
"""Games for gomoku_train from another engine: a Piskvork-protocol engine
(Rapfi, say) plays both sides of 15x15 games from random openings, one
line per game in gomoku_train's games format:

    RESULT OPENING_LENGTH MOVE...

RESULT is X (black won), O (white won) or D (a full board); the first
OPENING_LENGTH moves are random stones (2 to 7, alternating colours,
within three rows and columns of the centre), drawn from SEED and the
game's number alone; the rest are the engine's, asked with a full BOARD
every move and limited to NODES nodes (INFO max_node), one thread.

    python3 examples/gomoku_engine_games.py ENGINE NODES SEED FIRST COUNT OUT [RULE]

plays games FIRST to FIRST+COUNT-1 in one engine process, appending to OUT,
under RULE: freestyle (the default; five or more wins), standard (exactly
five wins) or renju (black wins with exactly five, white with five or more;
black's forbidden points are the engine's to avoid, and it plays one only
when it has no other move, near a full board, where gomoku_train ends the
game);
games OUT already holds are not played again, so an interrupted run resumes
where it stopped. A node-limited engine gives the same games for the same
arguments.
"""
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

SIZE = 15
CENTRE = SIZE // 2
REACH = 3
MAX_OPENING = 7
# Rapfi prints its move a moment before it reads commands again, and drops
# a command that arrives in between: wait this long after each answer.
GAP_S = 0.03
# A move not answered within this long (a node-limited one takes
# milliseconds) is asked again, at most RETRIES times: even with the gap
# a command is lost now and then, about once in a run of the recipe, and
# the engine then waits for it for ever.
ANSWER_S = 20
RETRIES = 3
COORD = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# Piskvork's INFO rule codes.
RULES = {"freestyle": 0, "standard": 1, "renju": 4}


def cell_name(r, c):
    return f"{chr(ord('a') + c)}{r + 1}"


def cell(name):
    """The (row, col) of a cell's name, the inverse of cell_name."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def runs(board, r, c):
    """The lengths of the four lines of its colour the stone at (r, c) stands in."""
    me = board[r][c]
    out = []
    for dr, dc in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < SIZE and 0 <= cc < SIZE and board[rr][cc] == me:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        out.append(run)
    return out


def wins(rule, board, r, c):
    """Whether the stone just played at (r, c) wins under `rule`."""
    lines = runs(board, r, c)
    if rule == "freestyle" or (rule == "renju" and board[r][c] == 2):
        return max(lines) >= 5
    return 5 in lines


class Engine:
    def __init__(self, program, nodes, rule):
        self.proc = subprocess.Popen([program], cwd=os.path.dirname(os.path.abspath(program)),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        # The engine's output lines, read on a thread so a read can time out.
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()
        self.send(f"START {SIZE}")
        self.read(lambda line: line.startswith("OK"))
        for info in ("timeout_turn 100000", "timeout_match 0", "max_memory 67108864",
                     "game_type 1", f"rule {RULES[rule]}", "thread_num 1", f"max_node {nodes}"):
            self.send(f"INFO {info}")
        self.answered = 0.0

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def read(self, wanted, timeout=None):
        """The first line `wanted` accepts; None if `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                sys.exit("the engine exited")
            self.heard(line)
            if wanted(line):
                return line
            if not line.startswith(("MESSAGE", "DEBUG")):
                print(f"engine said: {line}", file=sys.stderr)

    def heard(self, line):
        """Called with every line the engine prints; a subclass may listen."""

    def move(self, moves):
        """The engine's move for the side to move after `moves`, as (row, col)."""
        wait = self.answered + GAP_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        me = len(moves) % 2
        stones = [f"{c},{r},{1 if i % 2 == me else 2}" for i, (r, c) in enumerate(moves)]
        command = "\n".join(["BOARD", *stones, "DONE"])
        for _ in range(1 + RETRIES):
            self.send(command)
            answer = self.read(COORD.match, ANSWER_S)
            if answer is not None:
                break
            print(f"no answer after {ANSWER_S} s at move {len(moves) + 1}; asking again",
                  file=sys.stderr)
        else:
            sys.exit("the engine stopped answering")
        x, y = map(int, COORD.match(answer).groups())
        self.answered = time.monotonic()
        return y, x

    def close(self):
        self.send("END")
        self.proc.wait()


def play(engine, rule, seed, game):
    rng = random.Random(seed * 1_000_003 + game)
    opening = 2 + rng.randrange(MAX_OPENING - 1)
    board = [[0] * SIZE for _ in range(SIZE)]
    moves = []
    while len(moves) < opening:
        r = CENTRE - REACH + rng.randrange(2 * REACH + 1)
        c = CENTRE - REACH + rng.randrange(2 * REACH + 1)
        if board[r][c] == 0:
            board[r][c] = 1 + len(moves) % 2
            moves.append((r, c))
    while len(moves) < SIZE * SIZE:
        r, c = engine.move(moves)
        if not (0 <= r < SIZE and 0 <= c < SIZE) or board[r][c] != 0:
            sys.exit(f"the engine played an illegal move in game {game}")
        board[r][c] = 1 + len(moves) % 2
        moves.append((r, c))
        if wins(rule, board, r, c):
            return ("X" if len(moves) % 2 == 1 else "O"), opening, moves
    return "D", opening, moves


def complete_lines(out):
    """The complete lines of the file `out` (none if it does not exist),
    which is cut to them: an interrupted run's last line may be partial."""
    if not os.path.exists(out):
        return []
    with open(out) as f:
        text = f.read()
    text = text[:text.rfind("\n") + 1]
    with open(out, "w") as f:
        f.write(text)
    return text.splitlines()


def main():
    if len(sys.argv) not in (7, 8) or sys.argv[7:] and sys.argv[7] not in RULES:
        sys.exit(__doc__)
    program, nodes, seed, first, count, out = sys.argv[1:7]
    rule = sys.argv[7] if len(sys.argv) == 8 else "freestyle"
    seed, first, count = int(seed), int(first), int(count)
    # A game cut short by an interruption is played again.
    done = len(complete_lines(out))
    if done >= count:
        return
    engine = Engine(program, int(nodes), rule)
    with open(out, "a") as f:
        for game in range(first + done, first + count):
            result, opening, moves = play(engine, rule, seed, game)
            f.write(f"{result} {opening} {' '.join(cell_name(r, c) for r, c in moves)}\n")
            f.flush()
    engine.close()


if __name__ == "__main__":
    main()
