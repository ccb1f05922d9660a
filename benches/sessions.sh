#!/usr/bin/env bash
# Session overhead against a plain /v1/search of the same position (memory
# and Redis stores), create+move+get cycles per second with the AI at depth 1,
# and the memory one idle session holds (10,000 sessions).
# Needs wrk, python3, and redis-server for the Redis rows.
# Usage: bash benches/sessions.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
. benches/wrk_post.sh
secs=${1:-10}
port=${GAMEAI_BENCH_PORT:-18482}
redis_port=${GAMEAI_BENCH_REDIS_PORT:-18483}
cargo build --release --quiet
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT

wrk_post "$tmp/search.lua" '{"game":"tictactoe","moves":[],"depth":1}'
wrk_post "$tmp/create.lua" '{"game":"tictactoe","ai":{"plays":"X","depth":1}}'
# One connection per thread: the thread's Lua state follows one session.
cat >"$tmp/cycle.lua" <<'LUA'
local step, id = 0, nil
local json = {["Content-Type"] = "application/json"}
request = function()
  if step == 1 and id then
    return wrk.format("POST", "/v1/sessions/" .. id .. "/moves", json, '{"move":"b2"}')
  elseif step == 2 and id then
    return wrk.format("GET", "/v1/sessions/" .. id)
  end
  return wrk.format("POST", "/v1/sessions", json, '{"game":"tictactoe","ai":{"plays":"O","depth":1}}')
end
response = function(status, headers, body)
  if step == 0 then id = string.match(body, '"id":"([^"]+)"') end
  step = (step + 1) % 3
end
LUA

start_server() {
  GAMEAI_ADDR=127.0.0.1:$port RUST_LOG=warn "$@" ./target/release/gameai &
  server=$!
  pids+=("$server")
  for _ in $(seq 100); do curl -fs "localhost:$port/healthz" >/dev/null && break; sleep 0.05; done
}

rps() {
  wrk -t2 -c"$1" -d"${secs}s" -s "$2" "http://127.0.0.1:$port$3" | awk '/Requests\/sec/ {print $2}'
}

rows() {
  local store=$1
  printf '| %s | POST /v1/search (start, depth 1) | %s |\n' "$store" "$(rps 16 "$tmp/search.lua" /v1/search)"
  printf '| %s | POST /v1/sessions (AI moves, depth 1) | %s |\n' "$store" "$(rps 16 "$tmp/create.lua" /v1/sessions)"
  local cycle
  cycle=$(rps 2 "$tmp/cycle.lua" /v1/sessions)
  printf '| %s | create+move+get, 2 clients (requests/s; cycles/s = /3) | %s |\n' "$store" "$cycle"
}

echo "| store | request (wrk -t2, ${secs}s) | requests/s |"
echo "|---|---|---|"
start_server env GAMEAI_MAX_SESSIONS=10000000
rows memory
kill "$server"; wait "$server" 2>/dev/null || true

if command -v redis-server >/dev/null; then
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
  pids+=("$!")
  sleep 0.5
  start_server env GAMEAI_SESSION_STORE="redis://127.0.0.1:$redis_port/0"
  rows redis
  kill "$server"; wait "$server" 2>/dev/null || true
  redis-cli -p "$redis_port" flushall >/dev/null
fi

# Memory per idle session: RSS (memory store) or Redis used_memory, before
# and after 10,000 sessions.
create_many() {
  python3 - "$port" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
body = '{"game":"tictactoe","ai":{"plays":"none"}}'
for _ in range(10000):
    c.request("POST", "/v1/sessions", body, {"Content-Type": "application/json"})
    r = c.getresponse(); r.read()
    assert r.status == 201, r.status
PY
}
rss() { awk '/VmRSS/ {print $2 * 1024}' "/proc/$server/status"; }

start_server env GAMEAI_WORKERS=1
python3 -c "
import http.client; c = http.client.HTTPConnection('127.0.0.1', $port)
for _ in range(100):
    c.request('POST', '/v1/sessions', '{\"game\":\"tictactoe\"}', {'Content-Type': 'application/json'}); c.getresponse().read()"
before=$(rss); create_many; after=$(rss)
echo "memory store: $(( (after - before) / 10000 )) bytes RSS per idle session (10,000 sessions)"
kill "$server"; wait "$server" 2>/dev/null || true

if command -v redis-server >/dev/null; then
  start_server env GAMEAI_SESSION_STORE="redis://127.0.0.1:$redis_port/0"
  used() { redis-cli -p "$redis_port" info memory | awk -F: '/^used_memory:/ {print $2+0}'; }
  before=$(used); create_many; after=$(used)
  echo "redis store: $(( (after - before) / 10000 )) bytes of Redis used_memory per idle session (10,000 sessions)"
fi
