"""Fixtures for the LLM tests: the fake OpenAI-compatible server, and the settings that point the app of
their own (tests/conftest.py: `provider_app`, `provider_client`, `provider_worker`…) at it."""

from __future__ import annotations

import pytest

from tests.llm.fake_openai import FakeOpenAI, fake_openai, fake_openai_server  # noqa: F401

# AGENT_MEMORY_JOB_MAX_ATTEMPTS at its default: jobs are enqueued without a limit of their own.
JOB_MAX_ATTEMPTS = 5


@pytest.fixture(scope="module")
def provider_overrides(fake_openai_server: FakeOpenAI) -> dict[str, object]:  # noqa: F811
    return {
        "llm_base_url": fake_openai_server.url,
        "llm_api_key": "sk-test-key",
        "llm_model": "fake-model",
        "llm_timeout_seconds": 5.0,
        "llm_max_retries": 1,
    }
