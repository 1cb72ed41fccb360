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
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from app.core import keys
from app.core.auth import mint_key
from app.core.settings import to_async_url
from app.models import Namespace
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


def _command(process: psutil.Process) -> list[str]:
    """Its command line; none for a process that ended (a killed one not reaped yet)."""
    try:
        return list(process.cmdline())
    except psutil.Error:
        return []


def _api_processes(server: Server) -> list[psutil.Process]:
    return [p for p in _children(server) if "spawn_main" in " ".join(_command(p))]


def _worker_processes(server: Server) -> list[psutil.Process]:
    return [p for p in _children(server) if "worker" in _command(p)]


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


async def test_an_api_process_started_later_serves_open_as_its_siblings() -> None:
    """Open mode is decided once, by `serve`: an API process restarted after a namespace key appeared in the
    table still serves open, instead of answering 401 beside an open sibling. No route makes that key while
    the server runs open (409 `admin_key_required`); one made otherwise (an older version, by hand) is put
    in the table directly."""
    async with fresh_database("am_test_workers_open") as url:
        server = Server(
            env={"AGENT_MEMORY_DATABASE_URL": url, "AGENT_MEMORY_LOG_LEVEL": "WARNING"},
            args=serve_args("--workers", "2", worker=False),
            inherit_settings=False,
        )
        server.ready_when = lambda: len(_api_processes(server)) == 2
        server.spawn()
        try:
            await server.ready(timeout=180)
            async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
                assert (await client.post("/v1/namespaces", json={"name": "demo"})).status_code == 201
                refused = await client.post("/v1/namespaces/demo/keys", json={"name": "k"})
                assert refused.status_code == 409 and refused.json()["code"] == "admin_key_required"
            await _insert_namespace_key(url, "demo")
            first, second = _api_processes(server)
            first.kill()
            # uvicorn's supervisor starts a new process in its place.
            started = await _replacement(server, {first.pid, second.pid})
            await _started_up(started)
            statuses = [await _fresh_get(server.base_url, "/v1/namespaces/demo") for _ in range(REQUESTS)]
            assert statuses == [200] * REQUESTS
        finally:
            server.stop()


async def _insert_namespace_key(database_url: str, namespace: str) -> None:
    engine = create_async_engine(to_async_url(database_url))
    try:
        async with AsyncSession(engine) as db:
            namespace_id = (
                await db.execute(select(Namespace.id).where(Namespace.name == namespace))
            ).scalar_one()
            minted = mint_key()
            await keys.insert_key(db, minted.key_id, "by hand", namespace_id, minted.secret_sha256)
            await db.commit()
    finally:
        await engine.dispose()


async def _replacement(server: Server, old: set[int], timeout: float = 180) -> psutil.Process:
    """The API process `serve` started in place of a killed one."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        new = [p for p in _api_processes(server) if p.pid not in old]
        if new:
            return new[0]
        await asyncio.sleep(0.2)
    raise TimeoutError(f"no API process replaced the killed one after {timeout}s")


async def _started_up(process: psutil.Process, timeout: float = 180) -> None:
    """Wait until a new API process has started (imported the app, run its lifespan: its CPU time stops growing
    for a while), so that the requests after it reach it too."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last = -1.0
    while loop.time() < deadline:
        used = sum(process.cpu_times()[:2])
        if used == last:
            return
        last = used
        await asyncio.sleep(1.0)
    raise TimeoutError(f"API process {process.pid} still starting after {timeout}s")
