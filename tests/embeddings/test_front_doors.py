"""Every front door's memory is embedded: the follow-up work subscribes to the event outbox, so a memory
written through MCP, import, PATCH or extracted from a Session API message is embedded by the worker and
found by the semantic channel, with no line of its own in any of them (issue 50: MCP remember queued no
embedding). The question shares no word with the memory: only the vectors link them."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.worker.runner import Worker
from tests.conftest import new_namespace
from tests.embeddings.fake_embeddings import FakeEmbeddings
from tests.embeddings.test_semantic_channel import _embedded_ids, _recall
from tests.mcp.test_mcp import admin, data, mcp_client
from tests.sessions.helpers import append, new_session, text_message

QUESTION = "Any zorblings?"


async def _found_semantically(
    app: FastAPI, client: httpx.AsyncClient, url: str, memory_id: str, fake: FakeEmbeddings
) -> None:
    assert memory_id in await _embedded_ids(app, url)
    assert any("quennet" in text for text in fake.inputs())
    result = await _recall(client, url, QUESTION)
    assert [c["id"] for c in result["candidates"]][:1] == [memory_id], result["candidates"]


async def test_a_memory_remembered_through_mcp_is_embedded(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    where = {"namespace": provider_ns, "profile": "mcp"}
    async with mcp_client(provider_app, **admin()) as mcp:
        stored = data(await mcp.call_tool("remember", {"content": "I feed my quennet at noon.", **where}))
    fake_embeddings.reset()
    await provider_worker.drain()
    url = f"/v1/namespaces/{provider_ns}/profiles/mcp"
    await _found_semantically(provider_app, provider_client, url, stored["id"], fake_embeddings)


async def test_a_memory_extracted_from_a_session_api_message_is_embedded(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/chat"
    session = await new_session(provider_client, url)
    await append(
        provider_client, f"{url}/sessions/{session}", text_message("m1", "user", "I adopted a quennet today.")
    )
    fake_embeddings.reset()
    await provider_worker.drain()  # extraction, then the embedding its memory.created event queued
    [memory] = (await provider_client.get(f"{url}/memories")).json()["memories"]
    await _found_semantically(provider_app, provider_client, url, memory["id"], fake_embeddings)


async def test_a_memory_edited_through_patch_is_embedded_again(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_ns: str,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/patched"
    memory = (await provider_client.post(f"{url}/remember", json={"content": "I collect stamps."})).json()
    await provider_worker.drain()
    assert (await _recall(provider_client, url, QUESTION))["count"] == 0
    patched = await provider_client.patch(
        f"{url}/memories/{memory['id']}", json={"content": "I collect quennets."}
    )
    assert patched.status_code == 200, patched.text
    fake_embeddings.reset()
    await provider_worker.drain()
    await _found_semantically(provider_app, provider_client, url, memory["id"], fake_embeddings)


async def test_an_imported_memory_is_embedded(
    provider_app: FastAPI,
    provider_client: httpx.AsyncClient,
    provider_worker: Worker,
    fake_embeddings: FakeEmbeddings,
) -> None:
    # Exported before any vector was made: the file holds the memory and no embedding of it.
    source = await new_namespace(provider_client)
    memory = (
        await provider_client.post(
            f"/v1/namespaces/{source}/profiles/moved/remember", json={"content": "My quennet sleeps a lot."}
        )
    ).json()
    exported = await provider_client.get(f"/v1/namespaces/{source}/export")
    assert exported.status_code == 200 and '"embedding"' not in exported.text
    target = await new_namespace(provider_client)
    imported = await provider_client.post(
        f"/v1/namespaces/{target}/import",
        content=exported.content,
        headers={"content-type": "application/x-ndjson"},
    )
    assert imported.status_code == 200, imported.text
    fake_embeddings.reset()
    await provider_worker.drain()
    url = f"/v1/namespaces/{target}/profiles/moved"
    await _found_semantically(provider_app, provider_client, url, memory["id"], fake_embeddings)
