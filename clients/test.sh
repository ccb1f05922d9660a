#!/usr/bin/env bash
# Tests both clients against the real binary: installs what they need,
# checks their generated parts match openapi.yaml, starts gameai (the newer
# of the release and debug builds, `GAMEAI_BIN` to choose, or a fresh
# debug build when neither exists) on a free port and runs
# the TypeScript and Python tests against it. Then installs each client
# the way its README says, from a fresh copy of the clients (what git
# tracks, and new files; no node_modules, dist/ or virtualenv), into a new
# virtualenv and a new npm project, and runs the README's example there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
venv="${GAMEAI_CLIENTS_VENV:-$here/python/.venv}"
export GAMEAI_CLIENTS_VENV="$venv"

bin="${GAMEAI_BIN:-}"
if [ -z "$bin" ]; then
  # The newer of the release and debug builds: an old release binary must
  # not stand in for the code under test.
  for candidate in "$root/target/release/gameai" "$root/target/debug/gameai"; do
    if [ -x "$candidate" ] && { [ -z "$bin" ] || [ "$candidate" -nt "$bin" ]; }; then
      bin="$candidate"
    fi
  done
fi
if [ -z "$bin" ]; then
  (cd "$root" && cargo build --quiet)
  bin="$root/target/debug/gameai"
fi

echo "clients: checking the generated code against openapi.yaml"
scratch="$(mktemp -d)"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
"$here/generate.sh" "$scratch"
diff -q "$scratch/typescript/src/schema.ts" "$here/typescript/src/schema.ts" >/dev/null || {
  echo "clients/typescript/src/schema.ts is stale: run clients/generate.sh" >&2
  exit 1
}
diff -rq -x __pycache__ "$scratch/python/gameai_client" "$here/python/gameai_client" || {
  echo "clients/python/gameai_client is stale: run clients/generate.sh" >&2
  exit 1
}
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/python/requirements-test.txt"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export GAMEAI_URL="http://127.0.0.1:$port"
echo "clients: starting $bin on $GAMEAI_URL"
GAMEAI_ADDR="127.0.0.1:$port" GAMEAI_WORKERS=2 RUST_LOG=warn "$bin" &
server=$!
for _ in $(seq 1 100); do
  curl -sf "$GAMEAI_URL/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "gameai exited at start" >&2; exit 1; }
  sleep 0.1
done
curl -sf "$GAMEAI_URL/healthz" >/dev/null

echo "clients: TypeScript"
(cd "$here/typescript" && npm test --silent)
echo "clients: Python"
(cd "$here/python" && PYTHONPATH=. "$venv/bin/python" -m pytest -q tests)

# The first ```LANG block of README $1, its address made GAMEAI_URL.
readme_example() { # README LANG
  python3 - "$1" "$2" <<'PY'
import os, re, sys
readme, lang = sys.argv[1:]
block = re.search(r"^```" + lang + r"\n(.*?)^```", open(readme).read(), re.S | re.M)
if block is None or "http://localhost:8080" not in block.group(1):
    sys.exit(f"{readme}: no {lang} example calling http://localhost:8080")
print(block.group(1).replace("http://localhost:8080", os.environ["GAMEAI_URL"]), end="")
PY
}
# An example's output: what it searched, streamed and was refused (422).
check_example() { # NAME OUTPUT
  grep -q '^plays ' "$2" && grep -q '^422 ' "$2" || {
    echo "clients: the $1 README example printed:" >&2
    cat "$2" >&2
    exit 1
  }
}

fresh="$scratch/fresh"
mkdir -p "$fresh"
(cd "$root" && git ls-files -z --cached --others --exclude-standard -- clients |
  tar --null --ignore-failed-read -T - -cf -) | tar -C "$fresh" -xf -

echo "clients: Python, as its README says (pip install ./clients/python)"
python3 -m venv "$scratch/py"
(cd "$fresh" && "$scratch/py/bin/pip" install --quiet --disable-pip-version-check ./clients/python)
mkdir "$scratch/py-app"
readme_example "$fresh/clients/python/README.md" python >"$scratch/py-app/example.py"
(cd "$scratch/py-app" && "$scratch/py/bin/python" example.py) >"$scratch/py-app/out"
check_example Python "$scratch/py-app/out"

echo "clients: TypeScript, as its README says (npm install --prefix, then into a project)"
npm_quiet=(--no-audit --no-fund --silent)
npm install "${npm_quiet[@]}" --prefix "$fresh/clients/typescript"
app="$scratch/ts-app"
mkdir "$app"
# A TypeScript project of its own, with the client's compiler and Node types.
tools=$(cd "$fresh/clients/typescript" &&
  node -p 'const d = require("./package.json").devDependencies; `typescript@${d.typescript} @types/node@${d["@types/node"]}`')
echo '{"private": true, "type": "module"}' >"$app/package.json"
cat >"$app/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "types": ["node"]
  }
}
JSON
# shellcheck disable=SC2086 # two package specs
(cd "$app" && npm install "${npm_quiet[@]}" $tools && npm install "${npm_quiet[@]}" "$fresh/clients/typescript")
readme_example "$fresh/clients/typescript/README.md" ts >"$app/example.ts"
(cd "$app" && npx tsc -p . && node example.js) >"$app/out"
check_example TypeScript "$app/out"

echo "clients: all passed"
