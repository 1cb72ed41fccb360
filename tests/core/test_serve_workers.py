"""`serve --workers 2`: two API processes on one port, one supervised worker, metrics summed over the
processes, and a revoked key refused by every process at once (not after its cache entry expires).

`serve` runs as a real subprocess on a database of its own; requests go over TCP, each on a new
connection so that both API processes answer some of them.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil
import pytest

from tests.conftest import ADMIN_KEY, fresh_database

ROOT = Path(__file__).resolve().parents[2]
# Fresh connections per request: the kernel hands each to whichever API process accepts first.
REQUESTS = 40


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    base_url: str


@pytest.fixture(scope="module")
async def served() -> AsyncIterator[Served]:
    async with fresh_database("am_test_workers") as url:
        port = _free_port()
        env = {
            **os.environ,
            "AGENT_MEMORY_DATABASE_URL": url,
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_LEVEL": "WARNING",
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--port", str(port), "--workers", "2"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        base_url = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(base_url=base_url, timeout=5) as client:
                for _ in range(
                    900
                ):  # bounded: up to 3 minutes on a loaded machine (each process imports the app)
                    if process.poll() is not None:
                        raise AssertionError(process.stderr.read().decode() if process.stderr else "")
                    try:
                        if (await client.get("/readyz")).status_code == 200 and len(
                            _api_processes(process)
                        ) == 2:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.2)
                else:
                    raise AssertionError("serve --workers 2 not ready")
            yield Served(process, base_url)
        finally:
            process.terminate()
            process.wait(30)


def _api_processes(process: subprocess.Popen[bytes]) -> list[psutil.Process]:
    return [p for p in psutil.Process(process.pid).children() if "spawn_main" in " ".join(p.cmdline())]


def _worker_processes(process: subprocess.Popen[bytes]) -> list[psutil.Process]:
    return [p for p in psutil.Process(process.pid).children() if "worker" in p.cmdline()]


async def _fresh_get(base_url: str, path: str, token: str | None = None) -> int:
    """One request on a connection of its own."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base_url, timeout=10, headers=headers) as client:
        return (await client.get(path)).status_code


async def test_two_api_processes_one_worker_and_metrics_summed(served: Served) -> None:
    assert len(_api_processes(served.process)) == 2
    assert len(_worker_processes(served.process)) == 1  # started once, not per API process
    statuses = [await _fresh_get(served.base_url, "/healthz") for _ in range(REQUESTS)]
    assert statuses == [200] * REQUESTS
    # Any process's /metrics counts every process's requests.
    for _ in range(3):
        async with httpx.AsyncClient(base_url=served.base_url, timeout=10) as client:
            text = (await client.get("/metrics")).text
        found = re.search(
            r'agent_memory_http_requests_total\{method="GET",route="/healthz",status="200"\} (\S+)', text
        )
        assert found is not None and float(found.group(1)) >= REQUESTS


async def test_a_revoked_key_is_refused_by_every_process(served: Served) -> None:
    async with httpx.AsyncClient(
        base_url=served.base_url, timeout=10, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
    ) as admin:
        assert (await admin.post("/v1/namespaces", json={"name": "multi"})).status_code == 201
        created = await admin.post("/v1/namespaces/multi/keys", json={"name": "k"})
        assert created.status_code == 201
        token, key_id = created.json()["key"], created.json()["id"]
        # Both processes verify the key and cache it (for several seconds)...
        statuses = [await _fresh_get(served.base_url, "/v1/namespaces/multi", token) for _ in range(REQUESTS)]
        assert statuses == [200] * REQUESTS
        assert (await admin.delete(f"/v1/namespaces/multi/keys/{key_id}")).status_code == 204
    # ...and both refuse it once the revocation's NOTIFY has arrived, well before the cache would expire.
    await asyncio.sleep(0.5)
    statuses = [await _fresh_get(served.base_url, "/v1/namespaces/multi", token) for _ in range(REQUESTS)]
    assert statuses == [401] * REQUESTS


async def test_stopping_serve_stops_every_process(served: Served) -> None:
    children = psutil.Process(served.process.pid).children(recursive=True)
    served.process.terminate()
    served.process.wait(60)
    _, alive = psutil.wait_procs(children, timeout=30)
    assert alive == []
