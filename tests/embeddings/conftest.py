"""Fixtures for the embedding tests: the fake embeddings server, and an app and worker configured to use it.

The app gets a database of its own, so its worker (which runs every job it finds) never takes up jobs
queued by other tests.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.core.settings import Settings
from app.worker.runner import Worker
from tests.conftest import (
    admin_client,
    fresh_database,
    make_settings,
    new_namespace,
    running_worker,
    started_app,
)
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
        # The fake vectors follow the concepts a text names: the tests are written for a memory embedded
        # from its own turn (with the default `context`, the turn before it lends its concepts too).
        embeddings_input="source",
        embeddings_batch_size=4,
        embeddings_timeout_seconds=5.0,
        embeddings_query_timeout_seconds=1.0,
        embeddings_max_retries=1,
        job_backoff_seconds=0.01,
    )


@pytest.fixture(scope="module")
async def sem_app(sem_settings: Settings) -> AsyncIterator[FastAPI]:
    async with started_app(sem_settings) as application:
        yield application


@pytest.fixture(scope="module")
async def sem_client(sem_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(sem_app) as c:
        yield c


@pytest.fixture
async def sem_worker(sem_app: FastAPI, sem_settings: Settings) -> AsyncIterator[Worker]:
    """A worker of that app: its own embedder, built from the settings as a worker process would."""
    async with running_worker(sem_app, sem_settings, "sem-test") as w:
        yield w


@pytest.fixture
async def sem_ns(sem_client: httpx.AsyncClient) -> str:
    name = await new_namespace(sem_client)
    return name
