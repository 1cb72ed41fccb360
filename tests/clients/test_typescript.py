"""The TypeScript client and its AI SDK tools (clients/typescript), built and tested with Node against a live
`agent-memory serve`: a real server with an admin key on a free loopback port, its own database and its
worker; then `npm ci` (the committed package-lock.json) and `npm test`, which generates the types from
openapi/openapi.json, takes the examples from docs/integrations/typescript-client.md and
docs/integrations/ai-sdk.md, compiles everything with tsc (a client that no longer matches the API fails
here) and runs node's test runner: the client's operations and errors, and the AI SDK's own generateText
executing the tools."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.harness import Server, create_database, drop_database
from tests.conftest import ADMIN_KEY, SERVER_URL

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
NODE_MAJOR = 20  # the oldest Node the package supports (package.json `engines`)


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


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} not found: the TypeScript client's tests need Node >= {NODE_MAJOR} and npm"
    return path


def test_typescript_client_and_ai_sdk_tools(server: Server) -> None:
    version = subprocess.run([_tool("node"), "--version"], capture_output=True, text=True, check=True).stdout
    assert int(version.strip().lstrip("v").split(".")[0]) >= NODE_MAJOR, version
    npm = _tool("npm")
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PACKAGE, check=True, timeout=600
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")},
        "AGENT_MEMORY_URL": server.base_url,
        "AGENT_MEMORY_API_KEY": ADMIN_KEY,
    }
    run = subprocess.run([npm, "test"], cwd=PACKAGE, env=env, capture_output=True, text=True, timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-8000:]
    passed = re.search(r"^# pass (\d+)$", run.stdout, flags=re.M)
    failed = re.search(r"^# fail (\d+)$", run.stdout, flags=re.M)
    assert passed and failed, output[-8000:]
    assert int(failed.group(1)) == 0 and int(passed.group(1)) >= 10, output[-8000:]
