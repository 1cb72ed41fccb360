"""No input a client can send gives a 500: schemathesis over every operation of the committed OpenAPI
document (bench/fuzz_api.py: a free pass over everything, then a pass with seeded ids), against a real
`serve` process, a few examples per operation so that it ends within a couple of minutes. The full run
(hundreds of examples per operation, more checks) is bench/fuzz_api.py's own."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from tests.conftest import ADMIN_KEY, fresh_database

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = 3
SECONDS_PER_PASS = 45


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_schemathesis_finds_no_server_error() -> None:
    async with fresh_database("am_fuzz") as url:
        port = _free_port()
        env = {
            **os.environ,
            "AGENT_MEMORY_DATABASE_URL": url,
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_LEVEL": "ERROR",
        }
        server = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(base_url=base, timeout=5) as client:
                for _ in range(900):  # bounded: up to 3 minutes on a loaded machine
                    assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                    try:
                        if (await client.get("/readyz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.2)
            fuzz = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench", "fuzz-api", "--url", base, "--key", ADMIN_KEY,
                "--examples", str(EXAMPLES), "--max-time", str(SECONDS_PER_PASS),
                "--passes", "free,seeded", "--checks", "not_a_server_error", "--workers", "1",
                cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            output, _ = await asyncio.wait_for(fuzz.communicate(), timeout=SECONDS_PER_PASS * 2 + 240)
            report = output.decode(errors="replace")
            assert fuzz.returncode == 0, report[-6000:]
        finally:
            server.terminate()
            server.wait(30)
