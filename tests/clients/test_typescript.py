"""The TypeScript client and its AI SDK tools (clients/typescript), built and tested with Node against a live
`agent-memory serve`: a real server with an admin key on a free loopback port, its own database and its
worker; then `npm ci` (the committed package-lock.json) and `npm test`, which generates the types from
openapi/openapi.json, takes the examples from docs/integrations/typescript-client.md and
docs/integrations/ai-sdk.md, compiles everything with tsc (a client that no longer matches the API fails
here) and runs node's test runner: the client's operations and errors, and the AI SDK's own generateText
executing the tools.

Then read-your-writes with a real streaming replica (the primary and hot standby of
tests/core/test_read_replicas.py): a `serve` reading from the replica, its replay paused; the client's
recall right after its remember finds the memory (the token it kept sent the read to the primary), a
client that wrote nothing is served by the lagging replica and does not."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.harness import Server, create_database, drop_database
from tests.conftest import ADMIN_KEY, SERVER_URL
from tests.core.test_read_replicas import Pair, pair, replay, until_replica_has

__all__ = ["pair"]  # the replica pair, a module fixture here

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
NODE_MAJOR = 20  # the oldest Node the package supports (package.json `engines`)


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} not found: the TypeScript client's tests need Node >= {NODE_MAJOR} and npm"
    return path


def _env(base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    return {**env, "AGENT_MEMORY_URL": base_url, "AGENT_MEMORY_API_KEY": ADMIN_KEY}


@pytest.fixture(scope="module")
def npm() -> str:
    """npm, after `npm ci` in the package (Node checked)."""
    version = subprocess.run([_tool("node"), "--version"], capture_output=True, text=True, check=True).stdout
    assert int(version.strip().lstrip("v").split(".")[0]) >= NODE_MAJOR, version
    npm = _tool("npm")
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PACKAGE, check=True, timeout=600
    )
    return npm


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    name, url = asyncio.run(create_database(SERVER_URL, "am_client_ts"))
    served = Server(
        env={
            "AGENT_MEMORY_DATABASE_URL": url,
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_LEVEL": "WARNING",
            "AGENT_MEMORY_WORKER_POLL_SECONDS": "0.1",
        },
        inherit_settings=False,
    )
    try:
        with served:
            yield served
    finally:
        asyncio.run(drop_database(SERVER_URL, name))


def test_typescript_client_and_ai_sdk_tools(npm: str, server: Server) -> None:
    run = subprocess.run(
        [npm, "test"], cwd=PACKAGE, env=_env(server.base_url), capture_output=True, text=True, timeout=600
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-8000:]
    passed = re.search(r"^# pass (\d+)$", run.stdout, flags=re.M)
    failed = re.search(r"^# fail (\d+)$", run.stdout, flags=re.M)
    assert passed and failed, output[-8000:]
    assert int(failed.group(1)) == 0 and int(passed.group(1)) >= 10, output[-8000:]


# Run by node from the package's directory, on the built client: one client writes then reads, another
# only reads.
READ_YOUR_WRITES = """
import { MemoryClient } from "./dist/src/index.js";
const memory = new MemoryClient();
const stranger = new MemoryClient();
const written = await memory.profile("ryw-ts", "p").remember("My sister Anna moved to Lisbon.");
const found = await memory.profile("ryw-ts", "p").recall({ query: "Where did Anna move?", minScore: 0 });
const stale = await stranger.profile("ryw-ts", "p").recall({ query: "Where did Anna move?", minScore: 0 });
console.log(JSON.stringify({
  token: memory.consistencyToken,
  strangerToken: stranger.consistencyToken ?? null,
  found: found.candidates.some((c) => c.id === written.id),
  stale: stale.candidates.some((c) => c.id === written.id),
  content: (await memory.profile("ryw-ts", "p").getMemory(written.id)).content,
}));
"""


def test_reads_its_own_writes_from_a_lagging_replica(npm: str, pair: Pair) -> None:
    subprocess.run([npm, "run", "build"], cwd=PACKAGE, check=True, capture_output=True, timeout=600)
    served = Server(
        env={
            "AGENT_MEMORY_DATABASE_URL": pair.primary_url,
            "AGENT_MEMORY_READ_DATABASE_URLS": pair.replica_url,
            # Generous: the replica stays paused for the whole node run.
            "AGENT_MEMORY_READ_REPLICA_MAX_LAG_SECONDS": "60",
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_LEVEL": "WARNING",
        },
        inherit_settings=False,
    )
    served.spawn()
    try:
        # A fresh primary to migrate and the replica to reach on a loaded machine: more than the usual minute.
        served.wait_ready(timeout=240)

        async def set_up() -> None:
            headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
            async with httpx.AsyncClient(base_url=served.base_url, headers=headers, timeout=30) as http:
                assert (await http.post("/v1/namespaces", json={"name": "ryw-ts"})).status_code == 201
                r = await http.post(
                    "/v1/namespaces/ryw-ts/profiles/p/remember", json={"content": "I keep bees."}
                )
                assert r.status_code == 201, r.text
                await until_replica_has(http, r.headers["Agent-Memory-Consistency"])

        asyncio.run(set_up())
        asyncio.run(replay(pair, "pause"))
        try:
            ran = subprocess.run(
                [_tool("node"), "--input-type=module", "-e", READ_YOUR_WRITES],
                cwd=PACKAGE,
                env=_env(served.base_url),
                capture_output=True,
                text=True,
                timeout=120,
            )
        finally:
            asyncio.run(replay(pair, "resume"))
    finally:
        served.stop()
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout.strip().splitlines()[-1])
    assert seen["token"].startswith("v1."), seen
    assert seen["found"] and seen["content"] == "My sister Anna moved to Lisbon.", seen
    assert seen["strangerToken"] is None and not seen["stale"], seen
