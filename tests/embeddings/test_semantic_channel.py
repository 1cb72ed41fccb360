"""The semantic channel end to end, on the local PostgreSQL (no pgvector: the portable store), through HTTP
and the worker's real loop, with the fake embeddings server giving controlled vectors."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.worker.runner import Worker
from tests.embeddings.fake_embeddings import FakeEmbeddings, Reply, error
from tests.fake_server import Request
from tests.mcp.test_mcp import admin, data, mcp_client

PARTY = [
    ("user", "Did you bake anything for Sam's birthday party on Saturday?", "2024-06-02T18:00:00Z"),
    ("assistant", "Mostly quennets, they took me all afternoon.", "2024-06-02T18:00:20Z"),
    ("user", "I booked seats for the opera in Vienna next month.", "2024-06-02T18:01:00Z"),
]
# Shares no word (nor stem, nor category) with the quennets' turn: only the vectors connect the two.
QUESTION = "Any zorblings?"


async def _ingest(client: httpx.AsyncClient, url: str, turns: list[tuple[str, str, str]], sid: str) -> None:
    messages = [{"role": r, "content": c, "timestamp": t} for r, c, t in turns]
    response = await client.post(f"{url}/ingest", json={"sessionId": sid, "messages": messages})
    assert response.status_code == 202, response.text


async def _recall(client: httpx.AsyncClient, url: str, query: str) -> dict[str, Any]:
    # minScore 0: what the channels find, however sure recall is of it (the fake vectors' similarities
    # are not the default model's, on which relevance is fitted).
    response = await client.post(f"{url}/recall", json={"query": query, "minScore": 0})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def _embedded_ids(app: FastAPI, url: str) -> set[str]:
    ns, profile = url.split("/")[3], url.split("/")[5]
    async with app.state.sessionmaker() as db:
        rows = await db.execute(
            text(
                "SELECT e.memory_id FROM memory_embeddings e JOIN profiles p ON p.id = e.profile_id "
                "JOIN namespaces n ON n.id = p.namespace_id WHERE n.name = :ns AND p.name = :profile"
            ),
            {"ns": ns, "profile": profile},
        )
        return {r.memory_id for r in rows}


async def test_extraction_queues_embedding_and_recall_finds_a_memory_sharing_no_word(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/alice"
    await _ingest(provider_client, url, PARTY, "party")
    assert not fake_embeddings.requests  # ingest answers without embedding anything
    await provider_worker.drain()  # the extraction job, then the embed job it queued

    memories = (await provider_client.get(f"{url}/memories", params={"limit": 100})).json()["memories"]
    assert memories and await _embedded_ids(provider_app, url) == {m["id"] for m in memories}
    assert all(r.body["model"] == "fake-embed" for r in fake_embeddings.requests)
    assert all(len(r.body["input"]) <= 4 for r in fake_embeddings.requests)  # the batch size
    profile = (await provider_client.get(url)).json()
    assert profile["counts"]["pendingJobs"] == 0

    # Without the semantic channel (the default path) the question finds nothing...
    semantic, provider_app.state.semantic = provider_app.state.semantic, None
    try:
        assert (await _recall(provider_client, url, QUESTION))["count"] == 0
    finally:
        provider_app.state.semantic = semantic
    # ...with it, the memory sharing no word with the question comes first.
    fake_embeddings.reset()
    result = await _recall(provider_client, url, QUESTION)
    assert fake_embeddings.inputs() == [QUESTION]  # on the request path only the query is embedded
    assert result["count"] >= 1
    assert "quennets" in result["candidates"][0]["summary"].lower(), result["candidates"]

    # Re-running the embed job stores nothing new and asks the server for nothing.
    fake_embeddings.reset()
    async with provider_app.state.sessionmaker() as db:
        from app.embeddings.job import enqueue_embedding

        profile_id = (
            await db.execute(
                text(
                    "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
                    "WHERE n.name = :ns AND p.name = 'alice'"
                ),
                {"ns": provider_ns},
            )
        ).scalar_one()
        await enqueue_embedding(db, profile_id)
        await db.commit()
    await provider_worker.drain()
    assert not fake_embeddings.requests


async def test_semantic_results_stay_in_their_profile_and_leave_with_deletes(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    alice, bob = f"/v1/namespaces/{provider_ns}/profiles/alice", f"/v1/namespaces/{provider_ns}/profiles/bob"
    await _ingest(provider_client, alice, PARTY, "party")
    await _ingest(provider_client, bob, [("user", "I love jazz concerts.", "2024-06-01T10:00:00Z")], "b")
    await provider_worker.drain()
    # Bob's profile holds nothing of the kind: the semantic channel never reaches into Alice's.
    assert (await _recall(provider_client, bob, QUESTION))["count"] == 0

    found = await _recall(provider_client, alice, QUESTION)
    tart = found["candidates"][0]
    assert "quennets" in tart["summary"].lower()
    assert (await provider_client.delete(f"{alice}/memories/{tart['id']}")).status_code == 200
    again = await _recall(provider_client, alice, QUESTION)
    assert tart["id"] not in {c["id"] for c in again["candidates"]}


async def test_remember_queues_embedding_and_the_worker_embeds_it(
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/carol"
    response = await provider_client.post(f"{url}/remember", json={"content": "My quennet is named Pixel."})
    assert response.status_code == 201
    assert not fake_embeddings.requests  # remember answers before any vector exists
    # Remembering it again changes nothing: one memory.created event, which the worker follows up.
    assert (
        await provider_client.post(f"{url}/remember", json={"content": "My quennet is named Pixel."})
    ).status_code == 200
    feed = (
        await provider_client.get(f"/v1/namespaces/{provider_ns}/events", params={"profile": "carol"})
    ).json()
    assert [e["type"] for e in feed["events"]] == ["memory.created"]
    await provider_worker.drain()
    assert fake_embeddings.inputs() == ["My quennet is named Pixel."]
    result = await _recall(provider_client, url, "Which zorbling do I have?")
    assert result["count"] == 1 and "Pixel" in result["candidates"][0]["summary"]


async def test_embedding_failures_retry_in_the_worker_and_never_fail_recall(
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/dave"
    await provider_client.post(f"{url}/remember", json={"content": "I keep quennets in a jar."})
    # First attempt fails (500, then 500 again after the client's own retry): the job is retried and succeeds.
    fake_embeddings.script(error(500), error(500))
    await provider_worker.drain()
    assert len(fake_embeddings.requests) == 3
    assert (await provider_client.get(url)).json()["counts"]["pendingJobs"] == 0

    # The query cannot be embedded (error, then too slow): recall answers lexically, never an error.
    for failure in (error(500), Reply(delay=3.0)):
        fake_embeddings.script(failure)
        lexical = await _recall(provider_client, url, "quennets")
        assert lexical["count"] == 1
        assert (await _recall(provider_client, url, "Which instrument?"))["count"] >= 0
    fake_embeddings.reset()
    semantic = await _recall(provider_client, url, "Any zorblings?")
    assert semantic["count"] == 1 and "quennets" in semantic["candidates"][0]["summary"]


async def test_readyz_names_the_provider_and_the_portable_store(provider_client: httpx.AsyncClient) -> None:
    ready = (await provider_client.get("/readyz")).json()
    # The machine's PostgreSQL has no pgvector: vectors live in a bytea of half floats, scanned exactly.
    assert ready["embeddings"] == "openai" and ready["vectorStore"] == "portable"


async def test_editing_a_memory_embeds_its_new_content(
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/erin"
    memory = (await provider_client.post(f"{url}/remember", json={"content": "I adore quennets."})).json()
    await provider_worker.drain()
    assert (await _recall(provider_client, url, "Any zorblings?"))["count"] == 1
    patched = await provider_client.patch(
        f"{url}/memories/{memory['id']}", json={"content": "I collect snizzles."}
    )
    assert patched.status_code == 200
    # The old vector is gone at once: the question about the old content no longer reaches the memory.
    assert (await _recall(provider_client, url, "Any zorblings?"))["count"] == 0
    fake_embeddings.reset()
    await provider_worker.drain()
    assert fake_embeddings.inputs() == ["I collect snizzles."]
    found = await _recall(provider_client, url, "Any blorfs?")
    assert found["count"] == 1 and found["candidates"][0]["id"] == memory["id"]


async def test_no_connection_waits_on_the_question_s_embedding(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An embedder may take its whole timeout: recall (REST and MCP) embeds the question while its lexical
    # stages read, but must not keep a pooled connection while it waits for the vector. The embedder here
    # answers only once recall has no connection checked out (or after 0.8 s, within the 1 s bound).
    url = f"/v1/namespaces/{provider_ns}/profiles/alice"
    await _ingest(provider_client, url, PARTY, "party")
    await provider_worker.drain()
    pool = provider_app.state.engine.sync_engine.pool
    checked_out: list[int] = []
    make_request = fake_embeddings.make_request

    def answered_when_released(path: str, headers: dict[str, str], body: dict[str, Any]) -> Request:
        deadline = time.monotonic() + 0.8
        while pool.checkedout() and time.monotonic() < deadline:
            time.sleep(0.002)
        checked_out.append(pool.checkedout())
        return make_request(path, headers, body)

    monkeypatch.setattr(fake_embeddings, "make_request", answered_when_released)
    assert "quennets" in (await _recall(provider_client, url, QUESTION))["candidates"][0]["summary"].lower()
    async with mcp_client(provider_app, **admin()) as mcp:
        found = data(
            await mcp.call_tool(
                "recall", {"query": QUESTION, "min_score": 0, "namespace": provider_ns, "profile": "alice"}
            )
        )
    assert "quennets" in found["candidates"][0]["summary"].lower()
    assert checked_out == [0, 0]
