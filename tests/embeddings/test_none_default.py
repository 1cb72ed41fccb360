"""With AGENT_MEMORY_EMBEDDINGS=none (the shared test settings) nothing of the semantic channel runs: no embed
job is ever queued, no vector stored, recall stays lexical, and /readyz says so."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from app.worker.runner import Worker


async def test_default_queues_no_embedding_and_recall_stays_lexical(
    app: FastAPI, client: httpx.AsyncClient, ns: str, profile_url: str, worker: Worker
) -> None:
    assert app.state.semantic is None
    messages = [{"role": "user", "content": "Mostly quennets, they took me all afternoon."}]
    assert (
        await client.post(f"{profile_url}/ingest", json={"sessionId": "s", "messages": messages})
    ).status_code == 202
    assert (
        await client.post(f"{profile_url}/remember", json={"content": "My kitten is Pixel."})
    ).status_code == 201
    await worker.drain()
    # This test's profile only: other tests share the database, and some run the semantic channel.
    profile = "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id WHERE n.name = :ns"
    async with app.state.sessionmaker() as db:
        kinds = {
            k
            for (k,) in await db.execute(
                text(f"SELECT DISTINCT kind FROM jobs WHERE profile_id IN ({profile})"), {"ns": ns}
            )
        }
        vectors = (
            await db.execute(
                text(f"SELECT count(*) FROM memory_embeddings WHERE profile_id IN ({profile})"), {"ns": ns}
            )
        ).scalar_one()
    assert "embed" not in kinds and vectors == 0
    # Lexical only: a question sharing no word with the memory finds nothing.
    response = await client.post(f"{profile_url}/recall", json={"query": "Any zorblings?"})
    assert response.json()["count"] == 0
    assert (await client.post(f"{profile_url}/recall", json={"query": "quennets"})).json()["count"] == 1


async def test_readyz_says_no_embeddings(anon: httpx.AsyncClient) -> None:
    ready = (await anon.get("/readyz")).json()
    assert ready["embeddings"] == "none" and ready["vectorStore"] is None and ready["embeddingModel"] is None
