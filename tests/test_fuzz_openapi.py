"""No input a client can send gives a 500: schemathesis over every operation of the committed OpenAPI
document (`python -m bench fuzz-api`: a free pass over everything, then a pass with seeded ids), against a
real `serve` process, a few examples per operation so that it ends within a couple of minutes. The full run
(hundreds of examples per operation, more checks) is the benchmark's own."""

from __future__ import annotations

import asyncio
import sys

from bench.harness import ROOT, service
from tests.conftest import fresh_database

EXAMPLES = 3
SECONDS_PER_PASS = 45


async def test_schemathesis_finds_no_server_error() -> None:
    async with fresh_database("am_fuzz") as url:
        # The events feed's long-poll bounded to a second: an example waits at most that (a longer `wait`
        # is a 422), so the passes end in their time.
        env = {"AGENT_MEMORY_LOG_LEVEL": "ERROR", "AGENT_MEMORY_EVENTS_MAX_WAIT_SECONDS": "1"}
        server = service(url, env=env)
        server.spawn()
        try:
            await server.ready(timeout=180)  # bounded: a loaded machine starts slowly
            fuzz = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench", "fuzz-api", "--url", server.base_url, "--key", server.env["AGENT_MEMORY_ADMIN_KEY"],
                "--examples", str(EXAMPLES), "--max-time", str(SECONDS_PER_PASS),
                "--passes", "free,seeded", "--checks", "not_a_server_error", "--workers", "1",
                cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            output, _ = await asyncio.wait_for(fuzz.communicate(), timeout=SECONDS_PER_PASS * 2 + 240)
            report = output.decode(errors="replace")
            assert fuzz.returncode == 0, report[-6000:]
        finally:
            server.stop()
