"""Fixtures for the LLM tests: the fake OpenAI-compatible server, and an app and worker configured to use it.

The LLM app gets a database of its own, so its worker (which runs every job it finds) never takes up jobs
queued by other tests and sends them to the fake server.
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
from tests.llm.fake_openai import FakeOpenAI, fake_openai, fake_openai_server  # noqa: F401

# AGENT_MEMORY_JOB_MAX_ATTEMPTS at its default: jobs are enqueued without a limit of their own.
JOB_MAX_ATTEMPTS = 5


@pytest.fixture(scope="module")
async def llm_database_url() -> AsyncIterator[str]:
    async with fresh_database("am_test_llm") as url:
        yield url


@pytest.fixture(scope="module")
async def llm_settings(llm_database_url: str, fake_openai_server: FakeOpenAI) -> Settings:  # noqa: F811
    return make_settings(
        llm_database_url,
        llm_base_url=fake_openai_server.url,
        llm_api_key="sk-test-key",
        llm_model="fake-model",
        llm_timeout_seconds=5.0,
        llm_max_retries=1,
        job_backoff_seconds=0.01,
    )


@pytest.fixture(scope="module")
async def llm_app(llm_settings: Settings) -> AsyncIterator[FastAPI]:
    async with started_app(llm_settings) as application:
        yield application


@pytest.fixture(scope="module")
async def llm_client(llm_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(llm_app) as c:
        yield c


@pytest.fixture
async def llm_worker(llm_app: FastAPI, llm_settings: Settings) -> AsyncIterator[Worker]:
    """A worker whose extractor is the LLM one (the settings point at the fake server)."""
    async with running_worker(llm_app, llm_settings, "llm-test") as w:
        yield w


@pytest.fixture
async def llm_profile_url(llm_client: httpx.AsyncClient) -> str:
    name = await new_namespace(llm_client)
    return f"/v1/namespaces/{name}/profiles/alice"
