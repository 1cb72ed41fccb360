"""Fixtures for the embedding tests: the fake embeddings server, and an app and worker configured to use it.

The app gets a database of its own, so its worker (which runs every job it finds) never takes up jobs
queued by other tests.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.core.settings import Settings
from app.main import create_app
from app.worker.runner import Worker
from tests.conftest import ADMIN_KEY, fresh_database, make_settings
from tests.embeddings.fake_embeddings import (  # noqa: F401
    FakeEmbeddings,
    fake_embeddings,
    fake_embeddings_server,
)


@pytest.fixture(scope="module")
async def sem_database_url() -> AsyncIterator[str]:
    async with fresh_database("am_test_sem") as url:
        yield url


@pytest.fixture(scope="module")
async def sem_settings(sem_database_url: str, fake_embeddings_server: FakeEmbeddings) -> Settings:  # noqa: F811
    return make_settings(
        sem_database_url,
        embeddings="openai",
        embeddings_base_url=fake_embeddings_server.url,
        embeddings_api_key="sk-embed",
        embeddings_model="fake-embed",
        embeddings_batch_size=4,
        embeddings_timeout_seconds=5.0,
        embeddings_query_timeout_seconds=1.0,
        embeddings_max_retries=1,
        job_backoff_seconds=0.01,
    )


@pytest.fixture(scope="module")
async def sem_app(sem_settings: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(sem_settings, run_worker=False)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture(scope="module")
async def sem_client(sem_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sem_app),
        base_url="http://test",
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    ) as c:
        yield c


@pytest.fixture
async def sem_worker(sem_app: FastAPI, sem_settings: Settings) -> AsyncIterator[Worker]:
    """A worker of that app: its own embedder, built from the settings as a worker process would."""
    w = Worker(sem_settings, sem_app.state.sessionmaker, sem_settings.database_url or "", name="sem-test")
    yield w
    await w.stop(grace_seconds=5)


@pytest.fixture
async def sem_ns(sem_client: httpx.AsyncClient) -> str:
    name = "t-" + secrets.token_hex(6)
    response = await sem_client.post("/v1/namespaces", json={"name": name})
    assert response.status_code == 201, response.text
    return name
