#!/usr/bin/env bash
# Two threads against one at the same time a move: this tree's release build
# on two servers, one with a single worker, the other with two and every
# search asking for `threads: 2` (a small forwarder adds the field to each
# request), refereed by the shared harness of the game, each opening played
# with both colours. Neither server has a cache, so neither ponders.
#
# Usage: bash benches/threads_match.sh othello|gomoku [GAMES] [TIME_MS] [harness options...]
#   bash benches/threads_match.sh othello 64 200
#   bash benches/threads_match.sh gomoku 52 200
# GAMEAI_BENCH_PORT names the first of the three ports used.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?othello or gomoku}
games=${2:-32}
time_ms=${3:-200}
shift $(($# < 3 ? $# : 3))
port=${GAMEAI_BENCH_PORT:-18571}
pids=()
trap 'kill "${pids[@]}" 2>/dev/null' EXIT

cargo build --release --quiet
serve() { # workers port
  GAMEAI_ADDR=127.0.0.1:$2 RUST_LOG=warn GAMEAI_WORKERS=$1 GAMEAI_CACHE_MB=0 \
    target/release/gameai >/dev/null 2>&1 &
  pids+=("$!")
  until curl -s -o /dev/null "http://127.0.0.1:$2/healthz"; do sleep 0.05; done
}
serve 1 "$port"
serve 2 $((port + 1))

# Forwards each POST to the two-worker server, with "threads": 2 added to
# each search.
python3 - "$((port + 2))" "http://127.0.0.1:$((port + 1))" <<'EOF' &
import http.server, json, sys, urllib.error, urllib.request

listen, target = int(sys.argv[1]), sys.argv[2]

class Forward(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if self.path.endswith("/search"):
            body["threads"] = 2
        req = urllib.request.Request(target + self.path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req) as r:
                status, answer = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, answer = e.code, e.read()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", listen), Forward).serve_forever()
EOF
pids+=("$!")
until curl -s -o /dev/null "http://127.0.0.1:$((port + 2))/"; do sleep 0.05; done

one="http://127.0.0.1:$port/v1/search"
two="http://127.0.0.1:$((port + 2))/v1/search"
case $game in
  othello)
    python3 ../shared/tools/othello_match.py --p1 "$two" --p2 "$one" \
      --openings $((games / 2)) --time-ms "$time_ms" "$@"
    ;;
  gomoku)
    python3 ../shared/tools/gomoku_match.py --p1 "$two" --name1 "2 threads" \
      --p2 "$one" --name2 "1 thread" --games "$games" --time-ms "$time_ms" "$@"
    ;;
  *)
    echo "unknown game: $game" >&2
    exit 2
    ;;
esac
