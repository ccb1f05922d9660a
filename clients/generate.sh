#!/usr/bin/env bash
# Regenerates both clients' generated parts from openapi.yaml:
# clients/typescript/src/schema.ts (openapi-typescript) and
# clients/python/gameai_client (openapi-python-client). Run it after
# changing the API; clients/test.sh fails while either is stale.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}" # test.sh generates into a scratch copy to compare

(cd "$here/typescript" && npm ci --no-audit --no-fund --silent &&
  npx openapi-typescript "$here/../openapi.yaml" -o "$out/typescript/src/schema.ts" >/dev/null)

venv="${GAMEAI_CLIENTS_VENV:-$here/python/.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "openapi-python-client==0.29.1"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The generator formats its output with ruff, which it installs beside itself.
PATH="$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate \
  --path "$here/../openapi.yaml" --config "$here/python/generator.yaml" \
  --output-path "$scratch/project" >/dev/null
rm -rf "$out/python/gameai_client"
mkdir -p "$out/python"
cp -r "$scratch/project/gameai_client" "$out/python/gameai_client"
