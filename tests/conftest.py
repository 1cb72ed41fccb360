"""Test fixtures: a fresh PostgreSQL database per test run (migrated with Alembic), the app over ASGI, a worker.

The server comes from AGENT_MEMORY_TEST_DATABASE_URL (default: the local PostgreSQL on 127.0.0.1:5432,
database `test`); each run creates its own database on it and drops it at the end, so runs never collide.
Tests stay isolated by using their own namespace (the `ns` fixture), not by truncating tables.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import httpx
import pytest
from fastapi import FastAPI

from app.core.settings import Settings, to_async_url
from app.main import create_app
from app.worker.runner import Worker
from bench import harness

ADMIN_KEY = "amk_testadmin_" + secrets.token_hex(16)
SERVER_URL = os.environ.get("AGENT_MEMORY_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


def fresh_database(prefix: str) -> AbstractAsyncContextManager[str]:
    """A new, empty database on the test server for as long as the context lasts; its URL."""
    return harness.fresh_database(SERVER_URL, prefix)


@pytest.fixture(scope="session")
async def database_url() -> AsyncIterator[str]:
    async with fresh_database("am_test") as url:
        yield url


def make_settings(database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": database_url,
        "admin_key": ADMIN_KEY,
        "log_format": "console",
        "log_level": "WARNING",
        "job_backoff_seconds": 0.05,
        "job_lease_seconds": 5.0,
        "worker_poll_seconds": 0.1,
        # Lexical only unless a test asks for more: embedding every memory of every test costs the suite
        # minutes on a small machine. The default (the local model) runs end to end in tests/embeddings,
        # and in the tests that start `serve` (the README walk-through, the embedded server).
        "embeddings": "none",
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
async def settings(database_url: str) -> Settings:
    return make_settings(database_url)


@asynccontextmanager
async def started_app(settings: Settings) -> AsyncIterator[FastAPI]:
    """The app with these settings, its lifespan running (no worker child: tests drive `Worker`s)."""
    application = create_app(settings, run_worker=False)
    async with application.router.lifespan_context(application):
        yield application


@asynccontextmanager
async def admin_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app over ASGI that sends the admin key."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://test",
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    ) as c:
        yield c


@asynccontextmanager
async def running_worker(app: FastAPI, settings: Settings, name: str) -> AsyncIterator[Worker]:
    """A worker on the app's database; `await worker.drain()` runs every runnable job through the real
    loop. Stopped (in-flight jobs finished or released) when the context ends."""
    w = Worker(settings, app.state.sessionmaker, to_async_url(settings.database_url or ""), name=name)
    yield w
    await w.stop(grace_seconds=5)


async def new_namespace(client: httpx.AsyncClient) -> str:
    """A fresh namespace: tests stay apart by using their own."""
    name = "t-" + secrets.token_hex(6)
    response = await client.post("/v1/namespaces", json={"name": name})
    assert response.status_code == 201, response.text
    return name


@pytest.fixture(scope="session")
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    async with started_app(settings) as application:
        yield application


@pytest.fixture(scope="session")
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(app) as c:
        yield c


@pytest.fixture
async def anon(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client that sends no key."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        yield c


@pytest.fixture
async def worker(app: FastAPI, settings: Settings) -> AsyncIterator[Worker]:
    """A worker on the test database; `await worker.drain()` runs every runnable job through the real loop."""
    async with running_worker(app, settings, "test") as w:
        yield w


@pytest.fixture
async def ns(client: httpx.AsyncClient) -> str:
    """A fresh namespace for this test."""
    return await new_namespace(client)


@pytest.fixture
def profile_url(ns: str) -> str:
    """Base URL of a profile in this test's namespace (created on first write)."""
    return f"/v1/namespaces/{ns}/profiles/alice"


# -- an app of its own with an outside provider ----------------------------------------------------------
# The suites that serve the app with a fake provider (embeddings, LLM) define one module-scoped fixture,
# `provider_overrides`: the settings that point the app at their fake server. The rest of the chain is
# here. The app gets a database of its own, so its worker (which runs every job it finds) never takes up
# jobs queued by other tests and sends them to the fake server.


@pytest.fixture(scope="module")
async def provider_settings(provider_overrides: dict[str, object]) -> AsyncIterator[Settings]:
    async with fresh_database("am_test_provider") as url:
        yield make_settings(url, job_backoff_seconds=0.01, **provider_overrides)


@pytest.fixture(scope="module")
async def provider_app(provider_settings: Settings) -> AsyncIterator[FastAPI]:
    async with started_app(provider_settings) as application:
        yield application


@pytest.fixture(scope="module")
async def provider_client(provider_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(provider_app) as c:
        yield c


@pytest.fixture
async def provider_worker(provider_app: FastAPI, provider_settings: Settings) -> AsyncIterator[Worker]:
    """A worker of that app, its providers built from the settings as a worker process would."""
    async with running_worker(provider_app, provider_settings, "provider-test") as w:
        yield w


@pytest.fixture
async def provider_ns(provider_client: httpx.AsyncClient) -> str:
    return await new_namespace(provider_client)


@pytest.fixture
def provider_profile_url(provider_ns: str) -> str:
    return f"/v1/namespaces/{provider_ns}/profiles/alice"
