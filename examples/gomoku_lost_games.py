#!/usr/bin/env python3
"""Where a side lost its games: another engine's evaluation (classical
Rapfi, say, over the Piskvork protocol) along every game of gomoku match
records (`gomoku_match.py --record`) that the named player lost.

    python3 examples/gomoku_lost_games.py [--name NAME] [--opening K] [--nodes N] [--deep N] [--jobs J] ENGINE RECORD...

For each lost game (NAME, default gameai, as either colour; the records'
rule and size), the engine searches every position from the end of the
opening (its first K stones, default 3 as in the canonical openings) with
N nodes (default 300,000; one thread, INFO max_node). The game's turning
point is the first position the engine proves lost for the loser (at the
opponent's turn or the loser's), and the loser's move that led to it.
With --deep, the position before that move is searched again with that
many nodes, to tell a move that threw the game away (the deeper search
finds a move that is not lost) from one in a position already lost (it
proves the loss there too). One line per game:

    OPENING COLOUR: move PLY CELL BEFORE -> AFTER [deeper: CELL EVAL]

(PLY counts from 1, the evaluations are the loser's in the engine's
words: a number, or -Mk for a loss in k plies), or "lost from the start"
when the engine already proved the loss at the opening's end, or "no
proven turn" when its evaluation fell without a proof. A summary
follows. J engine processes (default 1) share the games.
"""
import argparse
import json
import os
import queue
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gomoku_engine_evals as evals  # noqa: E402
import gomoku_engine_games as games  # noqa: E402


def lost(text):
    """Whether an evaluation text is a proven loss for the side to move."""
    return text is not None and text.startswith("-M")


def turning_point(engine, record, loser, start):
    """(kind, line) for one lost game; the evaluations along it by `engine`."""
    names = record["moves"]
    moves = [games.cell(n) for n in names]
    side = 0 if record["black"] == loser else 1
    texts = {}
    for ply in range(start, len(moves)):
        texts[ply] = engine.score(moves[:ply])
    # texts[ply] is the evaluation of the side to move after `ply` moves:
    # the loser's at its own turns, the opponent's in between.
    if not texts:
        return "none", "no proven turn"
    first = min(texts)
    first_loser = first if first % 2 == side else first + 1
    for ply in range(first_loser, len(moves)):
        text = texts.get(ply)
        if text is None:
            continue
        mine = ply % 2 == side
        if not (lost(text) if mine else text.startswith("+M")):
            continue
        if ply == first_loser:
            return "start", "lost from the start"
        move = ply - 1 if not mine else ply - 2
        after = text if mine else "-" + text[1:]
        return "turn", (move, names[move], texts.get(move), after)
    return "none", "no proven turn"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--name", default="gameai")
    parser.add_argument("--opening", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=300_000)
    parser.add_argument("--deep", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("engine")
    parser.add_argument("records", nargs="+")
    a = parser.parse_args()
    name, opening, nodes, deep, jobs = a.name, a.opening, a.nodes, a.deep, max(1, a.jobs)
    program, paths = a.engine, a.records
    records = []
    for path in paths:
        with open(path) as f:
            records += [json.loads(line) for line in f if line.strip()]
    rules = {(r["rule"], r["size"]) for r in records}
    if len(rules) != 1:
        sys.exit(f"the records mix rules or sizes: {sorted(rules)}")
    rule, games.SIZE = rules.pop()
    losses = [r for r in records
              if name in (r["black"], r["white"]) and r["winner"] not in (name, None, "", "draw")]
    todo = queue.Queue()
    for i, r in enumerate(losses):
        todo.put((i, r))
    results = [None] * len(losses)

    def work():
        engine = evals.Scorer(program, nodes, rule)
        deeper = evals.Scorer(program, deep, rule) if deep else None
        while True:
            try:
                i, r = todo.get_nowait()
            except queue.Empty:
                break
            kind, what = turning_point(engine, r, name, opening)
            if kind == "turn" and deeper is not None:
                ply, _, _, _ = what
                deeper.evaluation = None
                reply = deeper.move([games.cell(n) for n in r["moves"][:ply]])
                what = what + (games.cell_name(*reply), deeper.evaluation)
            results[i] = (kind, what)
        engine.close()
        if deeper is not None:
            deeper.close()

    threads = [threading.Thread(target=work) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counts = {"start": 0, "turn": 0, "none": 0, "saved": 0}
    for r, (kind, what) in zip(losses, results):
        colour = "black" if r["black"] == name else "white"
        counts[kind] += 1
        if kind != "turn":
            print(f"{r['opening']} {colour}: {what}")
            continue
        ply, cell, before, after = what[:4]
        line = f"{r['opening']} {colour}: move {ply + 1} {cell} {before} -> {after}"
        if len(what) > 4:
            line += f" [deeper: {what[4]} {what[5]}]"
            counts["saved"] += not lost(what[5])
        print(line)
    print(f"{len(losses)} games {name} lost: {counts['turn']} turned on a move "
          f"(engine at {nodes} nodes)"
          + (f", {counts['saved']} of them with a move the engine at {deep} nodes "
             f"does not prove lost" if deep else "")
          + f"; {counts['start']} lost from the start; {counts['none']} without a proven turn")


if __name__ == "__main__":
    main()
