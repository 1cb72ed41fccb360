"""Fixtures for the embedding tests: the fake embeddings server, and the settings that point the app of
their own (tests/conftest.py: `provider_app`, `provider_client`, `provider_worker`…) at it."""

from __future__ import annotations

import pytest

from tests.embeddings.fake_embeddings import (  # noqa: F401
    FakeEmbeddings,
    fake_embeddings,
    fake_embeddings_server,
)


@pytest.fixture(scope="module")
def provider_overrides(fake_embeddings_server: FakeEmbeddings) -> dict[str, object]:  # noqa: F811
    return {
        "embeddings": "openai",
        "embeddings_base_url": fake_embeddings_server.url,
        "embeddings_api_key": "sk-embed",
        "embeddings_model": "fake-embed",
        # The fake vectors follow the concepts a text names: the tests are written for a memory embedded
        # from its own turn (with the default `context`, the turn before it lends its concepts too).
        "embeddings_input": "source",
        "embeddings_batch_size": 4,
        "embeddings_timeout_seconds": 5.0,
        "embeddings_query_timeout_seconds": 1.0,
        "embeddings_max_retries": 1,
    }
