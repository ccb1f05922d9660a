#!/usr/bin/env bash
# The proxied cluster, tested: Redis, three gameai replicas sharing it for
# sessions (and the analysis cache), HAProxy in front with /readyz checks
# (deploy/haproxy.cfg), and deploy/cluster_client.py playing many session
# games at once through the proxy. Midway one replica is killed with
# SIGKILL, another is stopped with SIGTERM (it drains, exits cleanly and is
# started again), then the killed one comes back.
#
# Passes when every game started finished, no session was lost, no move was
# applied twice and clients saw nothing but answers and retried 502/503/504s
# (the counts are printed). Installs haproxy and redis-server when missing
# (Debian's, with apt-get; needs root). About a minute.
#
# Usage: bash deploy/cluster-test.sh
#   GAMEAI_BIN            the binary to run (default: a fresh debug build)
#   GAMEAI_CLUSTER_PORT   first of the ports used (default 18600: Redis;
#                         +1..+3 the replicas; +10 the proxy)
#   CLUSTER_CLIENTS       players at once (default 24)
#   CLUSTER_SECONDS       how long new games are started (default 40)
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export PATH=$PATH:/usr/sbin

if [ -z "${GAMEAI_BIN:-}" ]; then
  cargo build --quiet --bin gameai
  GAMEAI_BIN=target/debug/gameai
fi
bin=$(realpath "$GAMEAI_BIN")
base=${GAMEAI_CLUSTER_PORT:-18600}
redis_port=$base
proxy_port=$((base + 10))
clients=${CLUSTER_CLIENTS:-24}
seconds=${CLUSTER_SECONDS:-40}
logs=$(mktemp -d)

declare -A replica_pid
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}" "${replica_pid[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    for log in "$logs"/*.log; do
      echo "--- $(basename "$log"), last lines" >&2
      tail -n 15 "$log" >&2
    done
  fi
  rm -rf "$logs"
}
trap cleanup EXIT

wait_for() { # URL [tries]
  for _ in $(seq "${2:-200}"); do
    curl -fs "$1" >/dev/null && return 0
    sleep 0.05
  done
  echo "no answer from $1" >&2
  return 1
}

redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no \
  >"$logs/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  [ "$(redis-cli -p "$redis_port" ping 2>/dev/null)" = PONG ] && break
  sleep 0.05
done

start_replica() { # N
  local n=$1
  GAMEAI_ADDR=127.0.0.1:$((base + n)) \
    GAMEAI_SESSION_STORE=redis://127.0.0.1:$redis_port/0 \
    GAMEAI_CACHE_STORE=redis://127.0.0.1:$redis_port/1 \
    GAMEAI_WORKERS=2 \
    GAMEAI_DRAIN_MS=1500 \
    GAMEAI_SHUTDOWN_GRACE_MS=5000 \
    GAMEAI_ACCESS_LOG=sample:100 \
    RUST_LOG=info \
    "$bin" >>"$logs/replica$n.log" 2>&1 &
  replica_pid[$n]=$!
  wait_for "http://127.0.0.1:$((base + n))/readyz"
}
for n in 1 2 3; do start_replica "$n"; done

GAMEAI_PROXY_BIND=127.0.0.1:$proxy_port \
  GAMEAI_REPLICA_1=127.0.0.1:$((base + 1)) \
  GAMEAI_REPLICA_2=127.0.0.1:$((base + 2)) \
  GAMEAI_REPLICA_3=127.0.0.1:$((base + 3)) \
  haproxy -db -f deploy/haproxy.cfg >"$logs/haproxy.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$proxy_port/readyz"

echo "cluster up: redis :$redis_port, replicas :$((base + 1))-:$((base + 3)), haproxy :$proxy_port"
echo "$clients clients start games for ${seconds}s"
python3 deploy/cluster_client.py "127.0.0.1:$proxy_port" \
  --clients "$clients" --seconds "$seconds" >"$logs/counts.json" 2>"$logs/client.log" &
client=$!
pids+=("$client")

sleep "$(awk -v s="$seconds" 'BEGIN {print s * 0.25}')"
echo "$(date -u +%T) SIGKILL replica 1"
kill -KILL "${replica_pid[1]}"
wait "${replica_pid[1]}" 2>/dev/null || true
unset 'replica_pid[1]'

sleep "$(awk -v s="$seconds" 'BEGIN {print s * 0.2}')"
echo "$(date -u +%T) SIGTERM replica 2 (drains, exits, starts again)"
kill -TERM "${replica_pid[2]}"
stopped=0
wait "${replica_pid[2]}" || stopped=$?
unset 'replica_pid[2]'
if [ "$stopped" -ne 0 ]; then
  echo "replica 2 exited with status $stopped after SIGTERM" >&2
  exit 1
fi
start_replica 2
echo "$(date -u +%T) replica 2 back"

sleep "$(awk -v s="$seconds" 'BEGIN {print s * 0.15}')"
start_replica 1
echo "$(date -u +%T) replica 1 back"

passed=0
wait "$client" || passed=$?
echo "counts:"
cat "$logs/counts.json"
if [ -s "$logs/client.log" ]; then
  echo "client errors:"
  cat "$logs/client.log"
fi
if [ "$passed" -ne 0 ]; then
  echo "FAILED: a game was lost, unfinished or played twice, or an answer was unexpected" >&2
  exit 1
fi
echo "passed"
