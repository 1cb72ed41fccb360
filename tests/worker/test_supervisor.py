"""`serve`'s worker is a child process: started with the app, restarted when it dies, stopped with the app.

The app runs its real lifespan (run_worker on) on a database of its own, so the child takes no other
test's jobs; jobs are ingested over HTTP and done by the child.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import psutil
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.worker.supervisor import WorkerSupervisor
from tests.conftest import ADMIN_KEY, fresh_database, make_settings


@contextlib.asynccontextmanager
async def _serving(database: str) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app with its real lifespan (its worker process started) on a fresh database, and a client."""
    async with fresh_database(database) as url:
        application = create_app(make_settings(url), run_worker=True)
        async with (
            application.router.lifespan_context(application),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=application),
                base_url="http://test",
                headers={"Authorization": f"Bearer {ADMIN_KEY}"},
            ) as client,
        ):
            yield application, client


@pytest.fixture(scope="module")
async def served() -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    async with _serving("am_test_serve") as served:
        yield served


async def _done(client: httpx.AsyncClient, profile_url: str, job_id: str) -> bool:
    for _ in range(300):  # bounded: up to a minute on a loaded machine
        if (await client.get(f"{profile_url}/jobs/{job_id}")).json()["status"] == "done":
            return True
        await asyncio.sleep(0.2)
    return False


async def _ingest(client: httpx.AsyncClient, profile_url: str, content: str) -> str:
    response = await client.post(
        f"{profile_url}/ingest", json={"messages": [{"role": "user", "content": content}]}
    )
    assert response.status_code == 202, response.text
    job_id: str = response.json()["jobId"]
    return job_id


async def test_serve_starts_restarts_and_stops_its_worker_process(
    served: tuple[FastAPI, httpx.AsyncClient],
) -> None:
    app, client = served
    supervisor: WorkerSupervisor = app.state.worker_supervisor
    first = supervisor.pid
    assert first is not None and first != os.getpid()
    assert psutil.Process(first).ppid() == os.getpid()
    assert (await client.post("/v1/namespaces", json={"name": "served"})).status_code == 201
    profile_url = "/v1/namespaces/served/profiles/alice"
    assert await _done(client, profile_url, await _ingest(client, profile_url, "I keep bees in Bristol."))

    os.kill(first, signal.SIGKILL)
    for _ in range(300):
        if supervisor.pid not in (None, first):
            break
        await asyncio.sleep(0.1)
    second = supervisor.pid
    assert second is not None and second != first and supervisor.restarts == 1
    assert await _done(
        client, profile_url, await _ingest(client, profile_url, "I play the cello on Sundays.")
    )
    memories = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert len(memories) == 2

    await supervisor.stop()  # SIGTERM: the child stops cleanly and is reaped
    assert supervisor.pid is None
    assert supervisor.process is not None and supervisor.process.returncode == 0


async def test_worker_starts_from_a_directory_holding_a_package_named_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A user's own project often has an `app` package: serve run from there must still start its worker.
    project = tmp_path
    (project / "app").mkdir()
    (project / "app" / "__init__.py").write_text("raise SystemExit('the project\\'s own app package')\n")
    monkeypatch.chdir(project)
    async with _serving("am_test_serve_cwd") as (application, client):
        assert (await client.post("/v1/namespaces", json={"name": "cwd"})).status_code == 201
        profile_url = "/v1/namespaces/cwd/profiles/alice"
        job_id = await _ingest(client, profile_url, "My favourite colour is teal.")
        assert await _done(client, profile_url, job_id)
        supervisor: WorkerSupervisor = application.state.worker_supervisor
        assert supervisor.restarts == 0
