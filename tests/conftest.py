"""Test fixtures: a fresh PostgreSQL database per test run (migrated with Alembic), the app over ASGI, a worker.

The server comes from AGENT_MEMORY_TEST_DATABASE_URL (default: the local PostgreSQL on 127.0.0.1:5432,
database `test`); each run creates its own database on it and drops it at the end, so runs never collide.
Tests stay isolated by using their own namespace (the `ns` fixture), not by truncating tables. When that
server cannot be reached, the run stops at the first test that needs it, with one hint (docs/testing.md)
instead of an error per test; tests that need no database still run alone.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
from collections.abc import AsyncIterator, Generator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from app.core.settings import Settings, to_async_url
from app.main import create_app
from app.worker.runner import Worker
from bench import harness

ADMIN_KEY = "amk_testadmin_" + secrets.token_hex(16)
SERVER_URL = os.environ.get("AGENT_MEMORY_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")

NO_POSTGRES_HINT = """the tests need a PostgreSQL, and {url} cannot be reached ({error}).
  - start the local one (127.0.0.1:5432, database `test`, trust auth for 127.0.0.1), or
  - point AGENT_MEMORY_TEST_DATABASE_URL at any server the tests may create databases on, or
  - start the embedded one, as .ci/run does:
      export AGENT_MEMORY_TEST_DATABASE_URL="$(.venv/bin/python .ci/embedded_pg.py "$PWD/.ci-pgdata")"
What the suite needs, how long it takes and how to run a part of it: docs/testing.md."""


def _postgres_unreachable() -> str | None:
    """Why the test server cannot be reached (None: it can), asked on a thread of its own: the caller may be
    inside a running event loop (pytest-asyncio's, Playwright's)."""
    reason: list[str] = []

    def probe() -> None:
        async def connect() -> None:
            conn = await asyncpg.connect(SERVER_URL, timeout=5)
            await conn.close()

        try:
            asyncio.run(connect())
        except Exception as exc:  # refused, unknown host, auth, no such database: all say "not reachable"
            reason.append(f"{type(exc).__name__}: {exc}")

    thread = threading.Thread(target=probe, name="postgres-probe")
    thread.start()
    thread.join(30)
    return reason[0] if reason else None


_probed = False


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A test that failed on a connection error stops the run with one hint when the test server is down,
    instead of every following test failing the same way."""
    global _probed
    report = yield
    if call.excinfo is None or _probed or not _is_connection_error(call.excinfo.value):
        return report
    _probed = True
    reason = _postgres_unreachable()
    if reason is not None:
        url = make_url(SERVER_URL).render_as_string(hide_password=True)
        pytest.exit(NO_POSTGRES_HINT.format(url=url, error=reason), returncode=3)
    return report


def _is_connection_error(error: BaseException | None) -> bool:
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, OSError | asyncpg.PostgresConnectionError | asyncpg.InvalidCatalogNameError):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


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
