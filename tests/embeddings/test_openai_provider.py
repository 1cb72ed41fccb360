"""The OpenAI-compatible embedder against a real loopback server: batching, ordering, validation, retries,
the bounded query path."""

from __future__ import annotations

import math

import pytest

from app.embeddings.openai import OpenAIEmbedder
from app.embeddings.types import EmbeddingError
from tests.embeddings.fake_embeddings import FakeEmbeddings, Reply, error, vector_for


def _embedder(fake: FakeEmbeddings, **overrides: object) -> OpenAIEmbedder:
    options: dict[str, object] = {
        "model": "fake-embed",
        "api_key": "sk-embed",
        "batch_size": 2,
        "timeout_seconds": 5.0,
        "query_timeout_seconds": 1.0,
        "max_retries": 2,
        "backoff_seconds": 0.01,
    }
    options.update(overrides)
    return OpenAIEmbedder(fake.url, **options)  # type: ignore[arg-type]


async def test_batches_in_order_with_key_and_unit_vectors(fake_embeddings: FakeEmbeddings) -> None:
    embedder = _embedder(fake_embeddings)
    texts = ["a lemon tart", "my cat Miso", "a flight to Porto", "guitar lessons", "nothing at all"]
    fake_embeddings.reversed_order = True  # items come back reversed, each with its index
    try:
        vectors = await embedder.embed(texts)
    finally:
        await embedder.aclose()
    assert [len(r.body["input"]) for r in fake_embeddings.requests] == [2, 2, 1]
    assert fake_embeddings.inputs() == texts
    first = fake_embeddings.requests[0]
    assert first.path == "/v1/embeddings"
    assert first.headers["authorization"] == "Bearer sk-embed"
    assert first.body["model"] == "fake-embed" and "dimensions" not in first.body
    for text, vector in zip(texts, vectors, strict=True):
        assert vector == pytest.approx(vector_for(text))
        assert math.isclose(sum(x * x for x in vector), 1.0, rel_tol=1e-9)
    assert embedder.name == "openai:fake-embed"


async def test_dimensions_are_asked_for_and_checked(fake_embeddings: FakeEmbeddings) -> None:
    embedder = _embedder(fake_embeddings, dimensions=8)
    try:
        [vector] = await embedder.embed(["a lemon tart"])
        assert len(vector) == 8 and fake_embeddings.requests[0].body["dimensions"] == 8
        assert embedder.name == "openai:fake-embed:8"
        # A server that ignores `dimensions` is caught, not stored.
        fake_embeddings.script(Reply(body='{"data": [{"index": 0, "embedding": [1.0, 0.0, 0.0]}]}'))
        with pytest.raises(EmbeddingError, match="asked for 8 dimensions"):
            await embedder.embed(["x"])
    finally:
        await embedder.aclose()


async def test_retries_transient_failures_then_succeeds(fake_embeddings: FakeEmbeddings) -> None:
    embedder = _embedder(fake_embeddings)
    fake_embeddings.script(error(503), error(429, retry_after="0"))
    try:
        [vector] = await embedder.embed(["my cat"])
    finally:
        await embedder.aclose()
    assert len(fake_embeddings.requests) == 3
    assert vector == pytest.approx(vector_for("my cat"))


async def test_gives_up_after_bounded_retries(fake_embeddings: FakeEmbeddings) -> None:
    embedder = _embedder(fake_embeddings, max_retries=1)
    fake_embeddings.script(error(500), Reply(drop=True), error(500))
    try:
        with pytest.raises(EmbeddingError, match="after 2 attempt"):
            await embedder.embed(["my cat"])
    finally:
        await embedder.aclose()
    assert len(fake_embeddings.requests) == 2


async def test_client_errors_and_bad_answers_are_not_retried(fake_embeddings: FakeEmbeddings) -> None:
    embedder = _embedder(fake_embeddings)
    try:
        fake_embeddings.script(error(400))
        with pytest.raises(EmbeddingError, match="HTTP 400"):
            await embedder.embed(["a"])
        assert len(fake_embeddings.requests) == 1
        bad_answers = [
            ('{"data": [{"index": 0, "embedding": [0.5, 0.5]}]}', "asked for 2 embedding"),  # one for two
            ('{"data": [{"index": 0, "embedding": [1, 0]}, {"index": 1, "embedding": [1]}]}', "unequal"),
            ('{"data": [{"index": 0, "embedding": [0, 0]}, {"index": 1, "embedding": [1, 0]}]}', "zero"),
            ('{"data": [{"index": 0, "embedding": ["x", 1]}, {"index": 1, "embedding": [1, 0]}]}', "not an"),
            ("<html>gateway</html>", "not an embeddings answer"),
        ]
        for body, message in bad_answers:
            fake_embeddings.script(Reply(body=body))
            with pytest.raises(EmbeddingError, match=message):
                await embedder.embed(["a", "b"])
    finally:
        await embedder.aclose()


async def test_query_makes_one_attempt_within_its_timeout(fake_embeddings: FakeEmbeddings) -> None:
    embedder = _embedder(fake_embeddings, query_timeout_seconds=0.3)
    try:
        fake_embeddings.script(error(503))
        with pytest.raises(EmbeddingError, match="after 1 attempt"):
            await embedder.embed_query("what dessert?")
        fake_embeddings.script(Reply(delay=2.0))
        with pytest.raises(EmbeddingError, match="longer than 0.3s"):
            await embedder.embed_query("what dessert?")
        assert await embedder.embed_query("what dessert?") == pytest.approx(vector_for("what dessert?"))
    finally:
        await embedder.aclose()
