"""`agent-memory export` / `import`: the real command, in a subprocess, against the app served on loopback."""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from bench.harness import free_port
from tests.conftest import ADMIN_KEY

COMMAND = [sys.executable, "-m", "app"]


@pytest.fixture
async def server_url(app: FastAPI) -> AsyncIterator[str]:
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    await task


async def run(*args: str, stdin: bytes | None = None) -> tuple[int, bytes, str]:
    process = await asyncio.create_subprocess_exec(
        *COMMAND,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={"AGENT_MEMORY_API_KEY": ADMIN_KEY, "PATH": "/usr/bin:/bin", "COLUMNS": "120"},
    )
    out, err = await process.communicate(stdin)
    assert process.returncode is not None
    return process.returncode, out, err.decode()


async def test_export_and_import_through_the_cli(
    client: httpx.AsyncClient, ns: str, server_url: str, tmp_path: Path
) -> None:
    url = f"/v1/namespaces/{ns}/profiles/dana"
    for i in range(3):
        await client.post(f"{url}/remember", json={"content": f"Dana fact {i}.", "metadata": {"i": i}})
    await client.post(f"{url}/sessions", json={"id": "s1", "name": "One"})

    file = tmp_path / "export.ndjson"
    code, _, err = await run("export", ns, "--output", str(file), "--url", server_url)
    assert code == 0, err
    assert "exported 5 records" in err and "rec/s" in err
    lines = file.read_bytes().splitlines()
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1]) == {"type": "end", "records": 5}

    code, stdout, err = await run("export", ns, "--profile", "dana", "--url", server_url)
    assert code == 0, err
    assert stdout.count(b"\n") == 7 and json.loads(stdout.splitlines()[0])["profile"] == "dana"

    target = "t-" + secrets.token_hex(6)
    assert (await client.post("/v1/namespaces", json={"name": target})).status_code == 201
    code, _, err = await run("import", target, "--input", str(file), "--url", server_url)
    assert code == 0, err
    assert "5 records: 5 new, 0 already present" in err
    source = (await client.get(f"{url}/memories")).json()
    copied = (await client.get(f"/v1/namespaces/{target}/profiles/dana/memories")).json()
    assert copied == source

    code, _, err = await run("import", target, "--url", server_url, stdin=file.read_bytes())
    assert code == 0, err
    assert "5 records: 0 new, 5 already present" in err

    broken = tmp_path / "broken.ndjson"
    broken.write_bytes(b"\n".join([*lines[:3], b"{not json", *lines[3:]]) + b"\n")
    fresh = "t-" + secrets.token_hex(6)
    assert (await client.post("/v1/namespaces", json={"name": fresh})).status_code == 201
    code, _, err = await run("import", fresh, "-i", str(broken), "--url", server_url)
    assert code == 1 and "line 4" in err and "import_line_invalid" in err
    assert (await client.get(f"/v1/namespaces/{fresh}/profiles/dana")).status_code == 404
