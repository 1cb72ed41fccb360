"""agent-memory-client (clients/python) against the real API: `AsyncMemoryClient` over the app in process
(ASGI, the test database, the worker's real loop) for every group of operations and the errors; the sync
`MemoryClient` against a live `serve`; retries, timeouts, the consistency header and the environment
variables against a scripted HTTP server on loopback."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, cast

import httpx
import pytest
from agent_memory_client import (
    CONSISTENCY_HEADER,
    AsyncMemoryClient,
    AuthenticationError,
    ConflictError,
    ConnectionFailed,
    MemoryClient,
    NotFoundError,
    RateLimitedError,
    UnavailableError,
    ValidationError,
)
from agent_memory_client.models import EventOut, MessageIn, TextPart, ToolPart, UnknownPart
from fastapi import FastAPI

from app.core import consistency
from app.worker.runner import Worker
from bench.harness import free_port
from tests.clients.conftest import Scripted, ScriptedServer, problem
from tests.conftest import ADMIN_KEY


@pytest.fixture
async def memory(app: FastAPI, ns: str) -> AsyncIterator[AsyncMemoryClient]:
    """The async client on the app in process, with the admin key, in the test's namespace."""
    client = AsyncMemoryClient(
        "http://test", api_key=ADMIN_KEY, namespace=ns, transport=httpx.ASGITransport(app=app)
    )
    async with client:
        yield client


async def test_memory_round_trip(memory: AsyncMemoryClient, worker: Worker) -> None:
    ingested = await memory.ingest(
        "alice",
        [
            {"role": "user", "content": "I moved to Lisbon last year and I work as a nurse."},
            {"role": "user", "content": "From now on, always answer in French."},
        ],
        session_id="chat-1",
    )
    assert ingested.messages_new == 2 and ingested.job_id
    await worker.drain()
    job = await memory.wait_for_job("alice", ingested.job_id, timeout=30)
    assert job is not None and job.status == "done", job
    again = await memory.ingest(
        "alice",
        [{"role": "user", "content": "I moved to Lisbon last year and I work as a nurse."}],
        session_id="chat-1",
    )
    assert again.job_id is None and await memory.wait_for_job("alice", again.job_id) is None

    found = await memory.recall("alice", "Where do I live?", min_score=0)
    assert found.count > 0 and "Lisbon" in found.answer, found
    assert all(0 <= c.score <= 1 for c in found.candidates)

    remembered = await memory.remember("alice", "Never use emojis.", metadata={"source": "test"})
    assert remembered.content == "Never use emojis." and remembered.metadata == {"source": "test"}
    assert (await memory.remember("alice", "Never use emojis.")).id == remembered.id  # known: the same one

    listed = [m async for m in memory.list("alice", metadata={"source": "test"})]
    assert [m.id for m in listed] == [remembered.id]
    detail = await memory.get("alice", remembered.id)
    assert detail.content == "Never use emojis."
    edited = await memory.edit("alice", remembered.id, content="Never use emojis or exclamation marks.")
    assert edited.version == 2
    assert [v.version for v in (await memory.history("alice", remembered.id)).versions][-1] == 2
    summary = await memory.get_summary("alice")
    assert "Lisbon" in summary.summary

    deleted = await memory.delete("alice", remembered.id)
    assert deleted.id == remembered.id
    with pytest.raises(NotFoundError) as missing:
        await memory.get("alice", remembered.id)
    assert missing.value.status == 404 and missing.value.code == "memory_not_found" and missing.value.detail
    # Remembering the deleted content again is refused while its tombstone stands; lifting it lets it back.
    with pytest.raises(ConflictError) as forgotten:
        await memory.remember("alice", "Never use emojis or exclamation marks.")
    assert forgotten.value.code == "memory_forgotten" and forgotten.value.tombstone_id
    tombstones = [t async for t in memory.list_tombstones("alice")]
    assert forgotten.value.tombstone_id in [t.id for t in tombstones]
    await memory.lift_tombstone("alice", forgotten.value.tombstone_id)
    assert (await memory.remember("alice", "Never use emojis or exclamation marks.")).content

    await memory.delete_session("alice", "chat-1")
    assert not [m async for m in memory.list("alice", session_id="chat-1")]


async def test_pages_are_iterated_to_the_end(memory: AsyncMemoryClient) -> None:
    ids = [(await memory.remember("bob", f"Note number {i} about the garden.")).id for i in range(5)]
    seen = [m.id async for m in memory.list("bob", page_size=2)]  # three pages
    assert sorted(seen) == sorted(ids) and len(seen) == 5
    profiles = [p.name async for p in memory.list_profiles(page_size=1)]
    assert profiles == ["bob"]


async def test_sessions_context_and_tools(memory: AsyncMemoryClient) -> None:
    info = await memory.create_session(
        "alice", id="s1", name="Support chat", metadata={"channel": "web"}, extract_memories=False
    )
    assert info.id == "s1" and info.extract_memories is False and info.metadata == {"channel": "web"}
    first = await memory.append_message(
        "alice",
        "s1",
        MessageIn(id="m1", role="user", parts=[TextPart(text="Deploying the billing service tonight.")]),
    )
    tool = {
        "type": "tool-weather",
        "toolCallId": "c1",
        "state": "output-available",
        "input": {"city": "Lisbon"},
    }
    second = await memory.append_message(
        "alice",
        "s1",
        {"id": "m2", "role": "assistant", "parts": [tool, {"type": "custom-x", "note": "kept"}]},
    )
    assert isinstance(second.parts[0], ToolPart) and isinstance(second.parts[1], UnknownPart)
    assert second.parts[1].model_extra == {"note": "kept"}
    root = await memory.append_message(
        "alice",
        "s1",
        {"id": "m3", "role": "user", "parts": [{"type": "text", "text": "Other branch"}]},
        parent_id=None,
    )
    history = await memory.get_history("alice", "s1", leaf_id="m2")
    assert [m.id for m in history.messages] == [first.id, second.id]
    assert (await memory.get_latest_leaf("alice", "s1")) is not None and root.id == "m3"
    hits = await memory.search_session_messages("alice", "s1", "billing")
    assert [h.id for h in hits.results] == ["m1"]
    assert [s.id async for s in memory.list_sessions("alice")] == ["s1"]

    await memory.put_context_block("alice", "soul", kind="readonly", content="You are concise.")
    await memory.put_context_block(
        "alice", "memory", kind="writable", description="Learned facts", max_tokens=1100
    )
    tools = await memory.list_session_tools("alice", "s1")
    assert "set_context" in [t.function.name for t in tools]
    result = await memory.call_session_tool(
        "alice", "s1", "set_context", {"label": "memory", "content": "Prefers short answers"}
    )
    assert result.result.startswith("Written to memory")
    prompt = await memory.get_system_prompt("alice", "s1")
    assert "You are concise." in prompt and "Prefers short answers" in prompt
    assert {b.label for b in await memory.list_context_blocks("alice")} == {"soul", "memory"}

    await memory.delete_session_message("alice", "s1", "m3")
    await memory.clear_session_messages("alice", "s1")
    assert (await memory.get_history("alice", "s1")).messages == []


async def test_namespaces_keys_export_import(memory: AsyncMemoryClient, ns: str) -> None:
    with pytest.raises(ConflictError) as exists:
        await memory.create_namespace(ns)
    assert exists.value.status == 409
    assert (await memory.create_namespace(ns, exist_ok=True)).name == ns
    assert (await memory.get_current_key()).admin is True
    key = await memory.create_key("agent")
    assert key.key.startswith("amk_") and key.namespace == ns
    assert [k.id for k in await memory.list_keys()] == [key.id]

    await memory.remember("carol", "Carol keeps bees.")
    exported = await memory.export_namespace(profile="carol")
    copy = (await memory.create_namespace(ns + "-copy")).name
    imported = await memory.import_namespace(exported, namespace=copy)
    assert imported.inserted["profile"] == 1 and imported.records > 1
    assert [m.summary async for m in memory.list("carol", namespace=copy)] == ["Carol keeps bees."]
    await memory.revoke_key(key.id)
    await memory.delete_namespace(copy)


async def test_events_feed(memory: AsyncMemoryClient) -> None:
    created = [await memory.remember("erin", f"Erin's note {i}: buy seeds.") for i in range(3)]
    await memory.delete("erin", created[0].id)
    events = [e async for e in memory.iter_events(page_size=2)]  # two pages and a half
    assert [(e.type, e.memory_id) for e in events] == [
        *[("memory.created", m.id) for m in created],
        ("memory.deleted", created[0].id),
    ]
    deleted = await memory.list_events(types=["memory.deleted"])
    assert [e.memory_id for e in deleted.events] == [created[0].id] and not deleted.has_more
    # Following the feed: a long poll after the last event answers the next one when it is written.
    # An async generator: closed when done (the annotation says AsyncIterator, what callers need).
    follower = cast(
        AsyncGenerator[EventOut, None], memory.iter_events(after=deleted.cursor, follow=True, wait=5)
    )
    waiting = asyncio.ensure_future(anext(follower))
    await asyncio.sleep(0.3)
    later = await memory.remember("erin", "Erin's note 3: water the seedlings.")
    event = await asyncio.wait_for(waiting, 10)
    assert (event.type, event.memory_id) == ("memory.created", later.id)
    await follower.aclose()


async def test_webhooks_are_managed(memory: AsyncMemoryClient) -> None:
    """The endpoint list round trip, with no delivery made (no worker runs here; the address is refused)."""
    with pytest.raises(ValidationError) as refused:
        await memory.create_webhook("http://127.0.0.1:9/hook")
    assert refused.value.code == "webhook_url_refused"
    assert await memory.list_webhooks() == []


async def test_errors_carry_status_code_and_detail(memory: AsyncMemoryClient, app: FastAPI) -> None:
    with pytest.raises(ValidationError) as invalid:
        await memory.recall("alice", "Where?", limit=1000)
    assert invalid.value.status == 422 and invalid.value.code == "validation_failed"
    assert any("limit" in [str(part) for part in error["loc"]] for error in invalid.value.errors)
    with pytest.raises(NotFoundError) as no_namespace:
        await memory.remember("alice", "x", namespace="no-such-namespace")
    assert no_namespace.value.code == "namespace_not_found"
    stranger = AsyncMemoryClient(
        "http://test", api_key="amk_wrong_key", namespace="x", transport=httpx.ASGITransport(app=app)
    )
    async with stranger:
        with pytest.raises(AuthenticationError) as refused:
            await stranger.get_current_key()
    assert refused.value.status == 401
    with pytest.raises(ValueError, match="namespace"):
        await AsyncMemoryClient("http://test").get_profile("alice")


# -- the sync client against a live server ---------------------------------------------------------------


def test_sync_client_against_a_live_server(live_server: str) -> None:
    with MemoryClient(live_server, namespace="sync") as memory:
        memory.create_namespace("sync", exist_ok=True)
        result = memory.ingest(
            "dana", [{"role": "user", "content": "My sister Ana lives in Porto."}], session_id="c1"
        )
        job = memory.wait_for_job("dana", result.job_id, timeout=60)
        assert job is not None and job.status == "done"
        assert "Porto" in memory.recall("dana", "Where does my sister live?").answer
        for i in range(3):
            memory.remember("dana", f"Dana's reminder {i}: water the plants.")
        assert len(list(memory.list("dana", page_size=2))) >= 4
        with pytest.raises(NotFoundError):
            memory.get("dana", "01JNOSUCHMEMORY0000000000")
        assert memory.readyz().status == "ready"


# -- retries, timeouts, the consistency header, the environment --------------------------------------------

UNAVAILABLE = Scripted(
    503, problem(503, "unavailable", "The database is unavailable; retry shortly."), {"Retry-After": "0"}
)
RECALLED = {"count": 0, "answer": "", "candidates": []}


def test_idempotent_calls_are_retried_on_503(scripted: ScriptedServer) -> None:
    scripted.script(UNAVAILABLE, UNAVAILABLE, Scripted(200, RECALLED))
    with MemoryClient(scripted.url, namespace="n", backoff=0) as memory:
        assert memory.recall("alice", "Where?").count == 0
    assert [s.method for s in scripted.seen] == ["POST"] * 3


def test_retries_end_with_the_503(scripted: ScriptedServer) -> None:
    scripted.default = UNAVAILABLE
    with (
        MemoryClient(scripted.url, namespace="n", retries=2, backoff=0) as memory,
        pytest.raises(UnavailableError) as failed,
    ):
        memory.get_profile("alice")
    assert failed.value.status == 503 and failed.value.code == "unavailable"
    assert len(scripted.seen) == 3


def test_other_posts_are_sent_once(scripted: ScriptedServer) -> None:
    scripted.default = UNAVAILABLE
    with MemoryClient(scripted.url, namespace="n", backoff=0) as memory, pytest.raises(UnavailableError):
        memory.create_session("alice", id="s1")
    assert len(scripted.seen) == 1


def test_dropped_connections_and_timeouts(scripted: ScriptedServer) -> None:
    scripted.script(Scripted(drop=True), Scripted(drop=True), Scripted(200, {"summary": "ok"}))
    with MemoryClient(scripted.url, namespace="n", backoff=0) as memory:
        assert memory.get_summary("alice").summary == "ok"
    assert len(scripted.seen) == 3

    scripted.seen.clear()
    scripted.default = Scripted(200, {}, delay=0.5)
    with MemoryClient(scripted.url, namespace="n", timeout=0.1, retries=1, backoff=0) as memory:
        with pytest.raises(ConnectionFailed) as slow:
            memory.get_profile("alice")
        assert isinstance(slow.value.cause, httpx.TimeoutException)
        assert len(scripted.seen) == 2  # tried again once
        scripted.seen.clear()
        with pytest.raises(ConnectionFailed):
            memory.append_message("alice", "s1", {"id": "m1", "role": "user", "parts": []})
        assert len(scripted.seen) == 1  # not idempotent: sent once


def test_nothing_listening_is_a_connection_failure() -> None:
    started = time.monotonic()
    nowhere = MemoryClient(f"http://127.0.0.1:{free_port()}", namespace="n", retries=2, backoff=0.05)
    with nowhere as memory, pytest.raises(ConnectionFailed) as refused:
        memory.get_profile("alice")
    assert isinstance(refused.value.cause, httpx.ConnectError)
    assert time.monotonic() - started >= 0.07  # it waited between its tries (at least 0.025 + 0.05 s)


def test_consistency_header_is_the_servers() -> None:
    """The header the client keeps and sends back is the one the server answers (app.core.consistency)."""
    assert CONSISTENCY_HEADER == consistency.HEADER


def test_consistency_token_is_sent_back(scripted: ScriptedServer) -> None:
    memory_out = {
        "id": "01J", "type": "fact", "summary": "s", "sessionId": None, "content": "c",
        "createdAt": "2024-05-10T09:00:00Z", "updatedAt": "2024-05-10T09:00:00Z",
    }  # fmt: skip
    scripted.script(
        Scripted(200, RECALLED),
        Scripted(201, memory_out, {"Agent-Memory-Consistency": "0/16B3748"}),
        Scripted(200, RECALLED),
    )
    with MemoryClient(scripted.url, namespace="n") as memory:
        memory.recall("alice", "Before any write?")
        memory.remember("alice", "A write.")
        memory.recall("alice", "After it?")
        assert memory.consistency.value == "0/16B3748"
    sent = [s.headers.get("Agent-Memory-Consistency") for s in scripted.seen]
    assert sent == [None, None, "0/16B3748"]


async def test_environment_gives_url_key_and_namespace(
    scripted: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_MEMORY_URL", scripted.url + "/v1")
    monkeypatch.setenv("AGENT_MEMORY_API_KEY", "amk_env_secret")
    monkeypatch.setenv("AGENT_MEMORY_NAMESPACE", "team a")
    scripted.default = Scripted(200, {"summary": "ok"})
    with MemoryClient() as memory:
        memory.get_summary("Zoë")
    async with AsyncMemoryClient(api_key="amk_argument", namespace="other") as memory_async:
        await memory_async.get_summary("zoe")
    first, second = scripted.seen
    assert first.path == "/v1/namespaces/team%20a/profiles/Zo%C3%AB/summary"
    assert first.headers["Authorization"] == "Bearer amk_env_secret"
    assert second.path == "/v1/namespaces/other/profiles/zoe/summary"
    assert second.headers["Authorization"] == "Bearer amk_argument"
    assert json.loads(first.body) == {}


def test_a_non_json_error_still_raises_the_tree(scripted: ScriptedServer) -> None:
    scripted.default = Scripted(502, "Bad gateway")
    with MemoryClient(scripted.url, namespace="n") as memory, pytest.raises(Exception) as failed:
        memory.get_profile("alice")
    error: Any = failed.value
    assert error.status == 502 and error.code == "http_502"


async def test_quotas_read_set_and_refused(memory: AsyncMemoryClient) -> None:
    """get_quotas / set_quotas, and a write past a quota raised as RateLimitedError with its Retry-After."""
    shown = await memory.set_quotas(memories=1)
    assert shown.memories.limit == 1 and shown.memories.source == "namespace"
    assert shown.requests_per_minute.limit is None
    await memory.remember("alice", "I like tea.")
    with pytest.raises(RateLimitedError) as refused:
        await memory.remember("alice", "I like chess.")
    assert refused.value.status == 429 and refused.value.code == "quota_exceeded"
    assert refused.value.quota == "memories" and refused.value.retry_after == 3600
    assert (await memory.get_quotas()).memories.usage == 1
