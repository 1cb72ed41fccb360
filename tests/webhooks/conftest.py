"""Fixtures of the webhook tests: a database of their own (another test's worker, with the default settings,
would otherwise lease these endpoints and refuse their loopback targets), the app with loopback targets
allowed (`AGENT_MEMORY_WEBHOOK_ALLOW_PRIVATE`, on in tests only) and quick retries, and workers whose
dispatcher runs (`dispatching`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from fastapi import FastAPI

from app.core.settings import Settings, to_async_url
from app.worker.runner import Worker
from tests.conftest import admin_client, fresh_database, make_settings, new_namespace, started_app

FAST = {
    "webhook_allow_private": "true",
    "webhook_retry_base_seconds": 0.05,
    "webhook_timeout_seconds": 5.0,
}


@pytest.fixture(scope="module")
async def hooks_database() -> AsyncIterator[str]:
    async with fresh_database("am_hooks") as url:
        yield url


@pytest.fixture(scope="module")
async def hooks_settings(hooks_database: str) -> Settings:
    return make_settings(hooks_database, **FAST)


@pytest.fixture(scope="module")
async def hooks_app(hooks_settings: Settings) -> AsyncIterator[FastAPI]:
    async with started_app(hooks_settings) as application:
        yield application


@pytest.fixture(scope="module")
async def hooks_client(hooks_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(hooks_app) as c:
        yield c


@pytest.fixture
async def hooks_ns(hooks_client: httpx.AsyncClient) -> str:
    return await new_namespace(hooks_client)


@asynccontextmanager
async def dispatching(app: FastAPI, settings: Settings, name: str = "hooks") -> AsyncIterator[Worker]:
    """A worker running its loops (jobs and the webhook dispatcher) until the block ends."""
    worker = Worker(settings, app.state.sessionmaker, to_async_url(settings.database_url or ""), name=name)
    await worker.start()
    try:
        yield worker
    finally:
        await worker.stop(grace_seconds=5)


async def register(client: httpx.AsyncClient, ns: str, url: str, **fields: object) -> tuple[str, str]:
    """A new endpoint of the namespace: its id and secret."""
    response = await client.post(f"/v1/namespaces/{ns}/webhooks", json={"url": url, **fields})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["secret"]
