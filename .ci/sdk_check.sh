#!/usr/bin/env bash
# Generated SDKs, proven: the Python client (openapi-python-client, pinned in .ci/sdk/requirements.txt) and
# the TypeScript types (openapi-typescript, default options, pinned by .ci/sdk/package-lock.json) are
# generated from the committed openapi/openapi.json; the Python example is type-checked (mypy --strict) and
# run against a live server in open mode; the TypeScript example is type-checked with tsc.
# The generator and the client live in a venv of their own (.venv-client, made here): installed into the
# service's venv, openapi-python-client downgraded its httpx and typer. The service's venv (.ci/run makes
# it) only serves; the live server needs AGENT_MEMORY_TEST_DATABASE_URL's server (a fresh database is made
# and dropped) or, without it, the embedded PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK="$(mktemp -d)"
SERVER_PID=""
DATABASE=""

cleanup() {
    if [ -n "$SERVER_PID" ]; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [ -n "$DATABASE" ]; then
        "$ROOT/.venv/bin/python" "$ROOT/.ci/sdk/database.py" drop "$DATABASE" || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

CLIENT="$ROOT/.venv-client"
echo "sdk: the client's own venv ($CLIENT)" >&2
[ -x "$CLIENT/bin/python" ] || python3 -m venv "$CLIENT"
"$CLIENT/bin/python" -m pip install --quiet --upgrade pip
"$CLIENT/bin/python" -m pip install --quiet -r .ci/sdk/requirements.txt

echo "sdk: generating the Python client" >&2
# Without ruff on PATH the generator skips its formatting hooks: `ruff check --fix` there would rewrite the
# client's `Any` annotations into ones mypy --strict rejects.
PATH="/usr/bin:/bin" "$CLIENT/bin/openapi-python-client" generate \
    --path openapi/openapi.json --output-path "$WORK/agent_memory_client" --meta none >/dev/null
# Every operation of the document has its function (a body the generator cannot read drops the endpoint).
"$CLIENT/bin/python" .ci/sdk/operations.py openapi/openapi.json "$WORK/agent_memory_client"
MYPYPATH="$WORK" "$CLIENT/bin/mypy" --config-file .ci/sdk/mypy.ini --cache-dir "$WORK/.mypy" .ci/sdk/example.py

echo "sdk: starting a live server (open mode on loopback)" >&2
PORT="$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
declare -a SERVER_ENV=(env -u AGENT_MEMORY_ADMIN_KEY AGENT_MEMORY_LOG_LEVEL=WARNING AGENT_MEMORY_DATA_DIR="$WORK/data")
if [ -n "${AGENT_MEMORY_TEST_DATABASE_URL:-}" ]; then
    DATABASE="$(.venv/bin/python .ci/sdk/database.py create)"
    SERVER_ENV+=(AGENT_MEMORY_DATABASE_URL="$DATABASE")
fi
"${SERVER_ENV[@]}" .venv/bin/agent-memory serve --host 127.0.0.1 --port "$PORT" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 1 120); do
    if curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$WORK/server.log" >&2; exit 1; fi
    sleep 0.5
done
PYTHONPATH="$WORK" AGENT_MEMORY_URL="http://127.0.0.1:$PORT" "$CLIENT/bin/python" .ci/sdk/example.py

echo "sdk: generating TypeScript types and type-checking the example" >&2
cd .ci/sdk
npm ci --no-audit --no-fund --loglevel=error
npx --no-install openapi-typescript ../../openapi/openapi.json -o generated/agent-memory.d.ts
npx --no-install tsc --noEmit -p .
echo "sdk: TypeScript example type-checks against the generated types" >&2
