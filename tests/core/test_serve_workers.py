"""`serve --workers 2`: two API processes on one port, one supervised worker, metrics summed over the
processes, and a revoked key refused by every process at once (not after its cache entry expires).

`serve` runs as a real subprocess on a database of its own; requests go over TCP, each on a new
connection so that both API processes answer some of them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import httpx
import psutil
import pytest

from bench.harness import Server, serve_args
from tests.conftest import ADMIN_KEY, fresh_database

# Fresh connections per request: the kernel hands each to whichever API process accepts first.
REQUESTS = 40


@pytest.fixture(scope="module")
async def served() -> AsyncIterator[Server]:
    async with fresh_database("am_test_workers") as url:
        server = Server(
            env={
                "AGENT_MEMORY_DATABASE_URL": url,
                "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
                "AGENT_MEMORY_LOG_LEVEL": "WARNING",
            },
            args=serve_args("--workers", "2"),
        )
        # Ready once both API processes are up; up to 3 minutes on a loaded machine (each imports the app).
        server.ready_when = lambda: len(_api_processes(server)) == 2
        server.spawn()
        try:
            await server.ready(timeout=180)
            yield server
        finally:
            server.stop()


def _children(server: Server) -> list[psutil.Process]:
    assert server.process is not None
    children: list[psutil.Process] = psutil.Process(server.process.pid).children()
    return children


def _api_processes(server: Server) -> list[psutil.Process]:
    return [p for p in _children(server) if "spawn_main" in " ".join(p.cmdline())]


def _worker_processes(server: Server) -> list[psutil.Process]:
    return [p for p in _children(server) if "worker" in p.cmdline()]


async def _fresh_get(base_url: str, path: str, token: str | None = None) -> int:
    """One request on a connection of its own."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base_url, timeout=10, headers=headers) as client:
        return (await client.get(path)).status_code


async def test_two_api_processes_one_worker_and_metrics_summed(served: Server) -> None:
    assert len(_api_processes(served)) == 2
    assert len(_worker_processes(served)) == 1  # started once, not per API process
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


async def test_a_revoked_key_is_refused_by_every_process(served: Server) -> None:
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


async def test_stopping_serve_stops_every_process(served: Server) -> None:
    assert served.process is not None
    children = psutil.Process(served.process.pid).children(recursive=True)
    served.stop(60)
    _, alive = psutil.wait_procs(children, timeout=30)
    assert alive == []
