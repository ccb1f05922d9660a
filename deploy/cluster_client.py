"""Plays many session games at once through a proxy and checks every one.

First it sends one move twice on purpose (an answer lost, the move sent
again) and checks that the second is refused with 409 and the move is
stored once: the guard every retry below relies on.

Each client thread plays whole games (tic-tac-toe and Connect Four at a
small depth, the AI replying as O), one request per move, and keeps its own
record of what it played and what the AI answered. A move is sent with the
session's `expected_version`, so a retry can never apply it twice: when an
attempt's fate is unknown (the connection died, the proxy answered 502/504)
the client retries, and a 409 then means "already applied" only if the
session shows exactly that move after the record; anything else is an error.

At the end every session is read back and compared with the client's record.
Prints the counts as JSON and exits 1 on any lost session, double-applied
move, unfinished game or unexpected answer.

Python 3.11 standard library only.
Usage: cluster_client.py HOST:PORT [--clients N] [--seconds S]
"""

import argparse
import http.client
import json
import random
import sys
import threading
import time

GAMES = [
    ("tictactoe", {"plays": "O", "depth": 2}),
    ("connect4", {"plays": "O", "depth": 2}),
]
# Answers a client retries: the replica is busy or draining (503), the
# proxy lost the replica mid-request (502) or waited too long (504).
RETRIED = {502, 503, 504}
MAX_ATTEMPTS = 60


class Counts:
    def __init__(self):
        self.lock = threading.Lock()
        self.values = {
            "games_started": 0,
            "games_finished": 0,
            "moves": 0,
            "retries": 0,
            "answers_503": 0,
            "answers_502": 0,
            "answers_504": 0,
            "connection_errors": 0,
            "moves_confirmed_after_retry": 0,
            "creates_after_unknown_outcome": 0,
            "lost_sessions": 0,
            "double_applied": 0,
            "unfinished_games": 0,
            "other_errors": 0,
        }
        self.errors = []

    def add(self, key, n=1):
        with self.lock:
            self.values[key] += n

    def error(self, key, message):
        with self.lock:
            self.values[key] += 1
            if len(self.errors) < 20:
                self.errors.append(f"{key}: {message}")


class Client:
    """One player with its own keep-alive connection to the proxy."""

    def __init__(self, address, counts, rng):
        self.host, self.port = address.rsplit(":", 1)
        self.counts = counts
        self.rng = rng
        self.conn = None

    def request(self, method, path, body=None):
        """One attempt: (status, parsed body), or (None, None) when the
        connection failed and the answer is unknown."""
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, int(self.port), timeout=30)
            data = None if body is None else json.dumps(body).encode()
            headers = {"content-type": "application/json"} if data else {}
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
            if response.getheader("connection", "").lower() == "close":
                self.close()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            return response.status, parsed
        except (OSError, http.client.HTTPException):
            self.close()
            self.counts.add("connection_errors")
            return None, None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def retry_pause(self, status, attempt):
        if status is not None:
            self.counts.add(f"answers_{status}")
        self.counts.add("retries")
        time.sleep(min(0.05 * (attempt + 1), 0.5) * (0.5 + self.rng.random()))

    def create(self, game, ai):
        uncertain = False
        for attempt in range(MAX_ATTEMPTS):
            status, body = self.request("POST", "/v1/sessions", {"game": game, "ai": ai})
            if status == 201:
                if uncertain:
                    # An earlier attempt may have made a session whose answer
                    # was lost: harmless, it expires unplayed.
                    self.counts.add("creates_after_unknown_outcome")
                return body
            if status in RETRIED or status is None:
                uncertain = uncertain or status != 503
                self.retry_pause(status, attempt)
                continue
            self.counts.error("other_errors", f"create {game}: {status} {body}")
            return None
        self.counts.error("other_errors", f"create {game}: gave up after retries")
        return None

    def read(self, sid):
        for attempt in range(MAX_ATTEMPTS):
            status, body = self.request("GET", f"/v1/sessions/{sid}")
            if status == 200:
                return body
            if status == 404:
                self.counts.error("lost_sessions", sid)
                return None
            if status in RETRIED or status is None:
                self.retry_pause(status, attempt)
                continue
            self.counts.error("other_errors", f"read {sid}: {status} {body}")
            return None
        self.counts.error("other_errors", f"read {sid}: gave up after retries")
        return None

    def play(self, sid, session, record, move):
        """Plays `move` once, whatever it takes; returns the session after
        it (and the AI's reply), or None on an error already counted."""
        version = session["version"]
        body = {"move": move, "expected_version": version}
        uncertain = False
        for attempt in range(MAX_ATTEMPTS):
            status, answer = self.request("POST", f"/v1/sessions/{sid}/moves", body)
            if status == 200:
                if not self.extends(answer, record, move, version):
                    self.counts.error("double_applied", f"{sid}: {record} + {move} -> {answer['moves']}")
                    return None
                return answer
            if status == 409 and uncertain:
                # Did the attempt whose answer we lost apply the move?
                now = self.read(sid)
                if now is None:
                    return None
                if self.extends(now, record, move, version):
                    self.counts.add("moves_confirmed_after_retry")
                    return now
                self.counts.error("double_applied", f"{sid}: 409 but {now['moves']} after {record}")
                return None
            if status == 404:
                self.counts.error("lost_sessions", sid)
                return None
            if status in RETRIED or status is None:
                # 503 is a refusal (nothing changed); a lost connection or a
                # 502/504 leaves the move's fate unknown.
                uncertain = uncertain or status != 503
                self.retry_pause(status, attempt)
                continue
            self.counts.error("other_errors", f"move {sid}: {status} {answer}")
            return None
        self.counts.error("other_errors", f"move {sid}: gave up after retries")
        return None

    @staticmethod
    def extends(session, record, move, version):
        """The session is the record plus this move, then at most the AI's
        reply, one version on: the move applied exactly once."""
        moves = session["moves"]
        tail = moves[len(record) :]
        return (
            moves[: len(record)] == record
            and tail[:1] == [move]
            and len(tail) <= 2
            and session["version"] == version + 1
        )

    def game(self, game, ai):
        session = self.create(game, ai)
        if session is None:
            return
        self.counts.add("games_started")
        sid = session["id"]
        record = list(session["moves"])
        while session["status"] == "ongoing":
            move = self.rng.choice(session["legal_moves"])
            after = self.play(sid, session, record, move)
            if after is None:
                self.counts.error("unfinished_games", sid)
                return
            self.counts.add("moves")
            record = list(after["moves"])
            session = after
        # Read back: the stored game is exactly the one played.
        stored = self.read(sid)
        if stored is None:
            self.counts.error("unfinished_games", sid)
            return
        if stored["moves"] != record or stored["status"] == "ongoing":
            self.counts.error("double_applied", f"{sid}: stored {stored['moves']} played {record}")
            return
        self.counts.add("games_finished")


def check_retry_path(address, counts):
    """Sends one move twice, as a client does whose first answer was lost:
    the second must be refused and the session show the move once."""
    client = Client(address, counts, random.Random(0))
    session = client.create("tictactoe", {"plays": "O", "depth": 1})
    if session is None:
        return False
    sid, version = session["id"], session["version"]
    body = {"move": "b2", "expected_version": version}
    first, _ = client.request("POST", f"/v1/sessions/{sid}/moves", body)
    second, _ = client.request("POST", f"/v1/sessions/{sid}/moves", body)
    now = client.read(sid)
    client.close()
    ok = (
        first == 200
        and second == 409
        and now is not None
        and now["moves"].count("b2") == 1
        and now["version"] == version + 1
    )
    if not ok:
        kind = "lost_sessions" if 404 in (first, second) else "double_applied"
        counts.error(kind, f"a move sent twice: {first}, {second}, {now}")
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("--clients", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    counts = Counts()
    if not check_retry_path(args.address, counts):
        print(json.dumps(counts.values, indent=2))
        print("\n".join(counts.errors), file=sys.stderr)
        sys.exit(1)
    deadline = time.monotonic() + args.seconds

    def run(index):
        rng = random.Random(args.seed * 1000 + index)
        client = Client(args.address, counts, rng)
        n = index
        # Games started before the deadline are always played to the end.
        while time.monotonic() < deadline:
            game, ai = GAMES[n % len(GAMES)]
            client.game(game, ai)
            n += 1
        client.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    values = counts.values
    print(json.dumps(values, indent=2))
    for line in counts.errors:
        print(line, file=sys.stderr)
    failed = (
        values["lost_sessions"]
        or values["double_applied"]
        or values["unfinished_games"]
        or values["other_errors"]
        or values["games_finished"] != values["games_started"]
        or values["games_finished"] == 0
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
