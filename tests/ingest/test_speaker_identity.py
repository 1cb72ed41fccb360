"""A message's identity includes who said it: two people saying the same words are two messages, both
recalled under their own name; re-sending the conversation adds nothing; ids stored before (without a
speaker, or with a name under the old identity, recomputed by migration 0016) stay idempotent."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.migrations import alembic_config
from app.core.settings import to_async_url
from app.ingest.service import message_identity
from app.worker.runner import Worker
from tests.conftest import admin_client, fresh_database, make_settings, started_app

CHAT = [
    {"role": "user", "name": "Alice", "content": "I am allergic to peanuts."},
    {"role": "user", "name": "Bob", "content": "I am allergic to peanuts."},
    {"role": "user", "name": "Bob", "content": "I live in Denver."},
    {"role": "user", "name": "Alice", "content": "yes"},
    {"role": "user", "name": "Bob", "content": "yes"},
]


def _old_identity(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


async def _ingest(client: httpx.AsyncClient, url: str, messages: list[dict[str, str]]) -> dict[str, Any]:
    response = await client.post(f"{url}/ingest", json={"sessionId": "s", "messages": messages})
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    return body


def test_identity_formula() -> None:
    assert message_identity("s", "user", "Bob", "hi") == _old_identity("s", "user", "Bob", "hi")
    assert message_identity("s", "user", "Bob", "hi") != message_identity("s", "user", "Alice", "hi")
    # No speaker: the identity every message had before speakers were part of it.
    assert message_identity("s", "user", None, "hi") == _old_identity("s", "user", "hi")


async def test_two_speakers_saying_the_same_words_are_two_messages(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    first = await _ingest(client, profile_url, CHAT)
    assert first["messagesReceived"] == 5 and first["messagesNew"] == 5
    again = await _ingest(client, profile_url, CHAT)
    assert again["messagesNew"] == 0 and again["jobId"] is None
    await worker.drain()

    history = (await client.get(f"{profile_url}/sessions/s/history")).json()["messages"]
    assert [m["parts"][0]["text"] for m in history] == [m["content"] for m in CHAT]

    for who in ("Alice", "Bob"):
        found = await client.post(f"{profile_url}/recall", json={"query": f"Is {who} allergic to anything?"})
        top = found.json()["candidates"][0]
        assert top["summary"] == f"{who} is allergic to peanuts.", found.json()
        detail = (await client.get(f"{profile_url}/memories/{top['id']}")).json()
        assert len(detail["sources"]) == 1
        source = detail["sources"][0]["messageId"]
        assert source == message_identity("s", "user", who, "I am allergic to peanuts.")


async def test_ids_stored_before_the_speaker_was_part_of_them_stay_idempotent() -> None:
    """A database at 0015 holding an ingested conversation (a named message under the old identity, an
    unnamed one, a Session API message with its own id), a memory citing the named one, a compaction and a
    queued extraction job: after 0016 the same conversation re-sent adds nothing."""
    async with fresh_database("am_test_0016") as url:
        engine = create_async_engine(to_async_url(url))
        named = _old_identity("s", "user", "I live in Denver.")
        unnamed = _old_identity("s", "assistant", "Denver is lovely.")
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: _upgrade(c, "0015"))
            for sql in (
                "INSERT INTO namespaces (id, name) VALUES (1, 'ns')",
                "INSERT INTO profiles (id, namespace_id, name) VALUES (1, 1, 'p')",
                "INSERT INTO sessions (profile_id, id, name) VALUES (1, 's', 's')",
                f"""INSERT INTO messages (profile_id, id, session_id, parent_id, role, name, parts, text_content)
                    VALUES (1, '{named}', 's', NULL, 'user', 'Bob', '[]', 'I live in Denver.'),
                           (1, '{unnamed}', 's', '{named}', 'assistant', NULL, '[]', 'Denver is lovely.'),
                           (1, 'm1', 's', '{unnamed}', 'user', 'Bob', '[]', 'Appended by the Session API.')""",
                """INSERT INTO memories (profile_id, id, type, summary, content, session_id, content_hash)
                   VALUES (1, '01HZZZZZZZZZZZZZZZZZZZZZZZ', 'fact', 'Bob lives in Denver.',
                           'Bob: I live in Denver.', 's', 'h')""",
                f"""INSERT INTO memory_sources (profile_id, memory_id, session_id, message_id)
                    VALUES (1, '01HZZZZZZZZZZZZZZZZZZZZZZZ', 's', '{named}')""",
                f"""INSERT INTO compactions (profile_id, id, session_id, summary, from_message_id, to_message_id)
                    VALUES (1, 'c1', 's', 'summary', '{named}', '{unnamed}')""",
                f"""INSERT INTO jobs (id, kind, profile_id, session_id, payload)
                    VALUES ('j1', 'extract', 1, 's', '{{"message_ids": ["{named}", "{unnamed}"]}}')""",
            ):
                await conn.execute(text(sql))
            await conn.run_sync(lambda c: _upgrade(c, "head"))
            renamed = message_identity("s", "user", "Bob", "I live in Denver.")
            rows: dict[str, str] = dict(
                (await conn.execute(text("SELECT text_content, id FROM messages"))).all()
            )
            assert rows == {
                "I live in Denver.": renamed,
                "Denver is lovely.": unnamed,
                "Appended by the Session API.": "m1",
            }
            parent = "SELECT parent_id FROM messages WHERE id = :id"
            assert (await conn.execute(text(parent), {"id": unnamed})).scalar_one() == renamed
            source = "SELECT message_id FROM memory_sources"
            assert (await conn.execute(text(source))).scalar_one() == renamed
            compaction = "SELECT from_message_id FROM compactions"
            assert (await conn.execute(text(compaction))).scalar_one() == renamed
            job = "SELECT payload -> 'message_ids' FROM jobs WHERE id = 'j1'"
            assert (await conn.execute(text(job))).scalar_one() == [renamed, unnamed]
            await conn.execute(text("DELETE FROM jobs"))
        await engine.dispose()

        async with started_app(make_settings(url)) as app, admin_client(app) as client:
            again = await client.post(
                "/v1/namespaces/ns/profiles/p/ingest",
                json={
                    "sessionId": "s",
                    "messages": [
                        {"role": "user", "name": "Bob", "content": "I live in Denver."},
                        {"role": "assistant", "content": "Denver is lovely."},
                    ],
                },
            )
            assert again.json()["messagesNew"] == 0 and again.json()["jobId"] is None, again.text


def _upgrade(connection: Any, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)
