"""Forget means forget: deleting a memory removes only the sources no other memory cites, and leaves a
tombstone, so that re-ingesting the conversation, remembering the content again or importing an older
export does not bring it back; lifting the tombstone does. Through HTTP and the worker's real loop."""

from __future__ import annotations

import json
from typing import Any

import httpx
from sqlalchemy import text

from app.worker.runner import Worker

BOB = [
    {"role": "user", "name": "Bob", "content": "I work as a nurse and I live in Lisbon."},
    {"role": "user", "name": "Bob", "content": "I adopted a beagle named Max last month."},
    {"role": "assistant", "content": "Max is a lovely name for a beagle."},
]


async def _scalar(client: httpx.AsyncClient, sql: str, **params: object) -> Any:
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.sessionmaker() as db:
        return (await db.execute(text(sql), params)).scalar_one()


async def _profile_id(client: httpx.AsyncClient, profile_url: str) -> int:
    ns, name = profile_url.split("/")[3], profile_url.split("/")[5]
    return int(
        await _scalar(
            client,
            "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
            "WHERE n.name = :ns AND p.name = :name AND p.deleted_at IS NULL",
            ns=ns,
            name=name,
        )
    )


async def _ingest(client: httpx.AsyncClient, url: str, messages: list[dict[str, str]]) -> dict[str, Any]:
    response = await client.post(f"{url}/ingest", json={"sessionId": "chat", "messages": messages})
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    return body


async def _memories(client: httpx.AsyncClient, url: str) -> dict[str, str]:
    """summary → id of the profile's active memories."""
    listed = (await client.get(f"{url}/memories", params={"limit": 100})).json()["memories"]
    return {m["summary"]: m["id"] for m in listed}


def _one(memories: dict[str, str], words: str) -> str:
    [found] = [memory_id for summary, memory_id in memories.items() if words in summary]
    return found


async def test_a_shared_source_stays_with_the_memory_that_still_cites_it(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, BOB)
    await worker.drain()
    memories = await _memories(client, profile_url)
    nurse, lisbon = _one(memories, "nurse"), _one(memories, "Lisbon")
    source = (await client.get(f"{profile_url}/memories/{lisbon}")).json()["sources"]
    assert [s["content"] for s in source] == ["I work as a nurse and I live in Lisbon."]

    assert (await client.delete(f"{profile_url}/memories/{nurse}")).status_code == 200
    after = (await client.get(f"{profile_url}/memories/{lisbon}")).json()
    assert after["sources"] == source, "the other memory keeps the message they share"
    history = (await client.get(f"{profile_url}/memories/{nurse}/history")).json()["versions"]
    assert history[-1]["change"] == "deleted"
    assert history[-1]["keptMessageIds"] == [source[0]["messageId"]]

    # The conversation sent again (as chat clients do with every turn) adds nothing and brings nothing back.
    again = await _ingest(client, profile_url, BOB)
    assert again["messagesNew"] == 0 and again["jobId"] is None
    await worker.drain()
    assert not any("nurse" in s for s in await _memories(client, profile_url))

    # Deleting the second memory now deletes the message; re-sending still brings neither back.
    assert (await client.delete(f"{profile_url}/memories/{lisbon}")).status_code == 200
    again = await _ingest(client, profile_url, BOB)
    assert again["messagesNew"] == 0 and again["jobId"] is None
    tombstones = (await client.get(f"{profile_url}/tombstones")).json()["tombstones"]
    by_id = {t["id"]: t for t in tombstones}
    assert set(by_id) == {nurse, lisbon}
    assert by_id[lisbon]["messageIds"] == [source[0]["messageId"]] and by_id[lisbon]["keptMessageIds"] == []
    assert by_id[nurse]["messageIds"] == [] and by_id[nurse]["keptMessageIds"] == [source[0]["messageId"]]
    assert "content" not in by_id[nurse] and "summary" not in by_id[nurse], "a tombstone holds no text"

    # Lifting Lisbon's tombstone lets the message and that memory come back; the nurse stays forgotten.
    assert (await client.delete(f"{profile_url}/tombstones/{lisbon}")).status_code == 204
    assert (await client.delete(f"{profile_url}/tombstones/{lisbon}")).status_code == 204  # idempotent
    again = await _ingest(client, profile_url, BOB)
    assert again["messagesNew"] == 1 and again["jobId"] is not None
    await worker.drain()
    summaries = await _memories(client, profile_url)
    assert any("Lisbon" in s for s in summaries) and not any("nurse" in s for s in summaries)


async def test_a_deleted_memory_is_not_remembered_again_unless_restored(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    created = (await client.post(f"{profile_url}/remember", json={"content": "Never use emojis."})).json()
    assert (await client.delete(f"{profile_url}/memories/{created['id']}")).status_code == 200

    refused = await client.post(f"{profile_url}/remember", json={"content": "never use  emojis"})
    assert refused.status_code == 409, refused.text
    problem = refused.json()
    assert problem["code"] == "memory_forgotten" and problem["tombstoneId"] == created["id"]
    assert "restore" in problem["detail"]
    assert (await client.get(f"{profile_url}/memories")).json()["memories"] == []

    restored = await client.post(
        f"{profile_url}/remember", json={"content": "Never use emojis.", "restore": True}
    )
    assert restored.status_code == 201, restored.text
    assert restored.json()["id"] != created["id"]
    assert (await client.get(f"{profile_url}/tombstones")).json()["tombstones"] == []
    # restore on content that is stored answers it, as remember does.
    again = await client.post(
        f"{profile_url}/remember", json={"content": "Never use emojis.", "restore": True}
    )
    assert again.status_code == 200 and again.json()["id"] == restored.json()["id"]


async def test_extraction_skips_forgotten_content_from_new_messages(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, BOB[1:2])
    await worker.drain()
    beagle = _one(await _memories(client, profile_url), "beagle")
    await client.delete(f"{profile_url}/memories/{beagle}")
    # The same words in another session are another message, but the memory they make is forgotten.
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "other", "messages": BOB[1:2]})
    assert response.json()["messagesNew"] == 1
    await worker.drain()
    assert not any("beagle" in s for s in await _memories(client, profile_url))
    # remember of the same content answers that it was forgotten.
    content = (await client.get(f"{profile_url}/memories/{beagle}/history")).json()["versions"][-1]["content"]
    assert (await client.post(f"{profile_url}/remember", json={"content": content})).status_code == 409


async def test_import_skips_what_was_forgotten(
    client: httpx.AsyncClient, profile_url: str, ns: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, BOB[1:])
    await worker.drain()
    beagle = _one(await _memories(client, profile_url), "beagle")
    async with client.stream("GET", f"/v1/namespaces/{ns}/export", params={"profile": "alice"}) as response:
        before = b"".join([chunk async for chunk in response.aiter_bytes()])
    await client.delete(f"{profile_url}/memories/{beagle}")

    result = await client.post(f"/v1/namespaces/{ns}/import", content=before)
    assert result.status_code == 200, result.text
    assert result.json()["forgotten"] == {"memory": 1, "message": 1}
    assert not any("beagle" in s for s in await _memories(client, profile_url))
    pid = await _profile_id(client, profile_url)
    like = "SELECT count(*) FROM messages WHERE profile_id = :p AND text_content LIKE '%beagle named Max%'"
    assert await _scalar(client, like, p=pid) == 0

    # An export carries the tombstones: imported elsewhere, they keep the memory out there too, and the
    # reply that followed the forgotten message is chained past it.
    async with client.stream("GET", f"/v1/namespaces/{ns}/export", params={"profile": "alice"}) as response:
        after = b"".join([chunk async for chunk in response.aiter_bytes()])
    assert b'"type": "tombstone"' in after

    def elsewhere(export: bytes) -> bytes:
        return export.replace(b'"profile": "alice"', b'"profile": "elsewhere"').replace(
            b'"name": "alice"', b'"name": "elsewhere"'
        )

    # Only the tombstones first (and the profile), so that the reply is imported after its forgotten parent.
    lines = [json.loads(line) for line in elsewhere(after).splitlines()]
    kept = [line for line in lines[1:-1] if line["type"] in ("profile", "tombstone", "tombstone_message")]
    tombstones_only = [lines[0], *kept, {"type": "end", "records": len(kept)}]
    body = "\n".join(json.dumps(line) for line in tombstones_only).encode()
    assert (await client.post(f"/v1/namespaces/{ns}/import", content=body)).status_code == 200
    result = await client.post(f"/v1/namespaces/{ns}/import", content=elsewhere(before))
    assert result.json()["forgotten"] == {"memory": 1, "message": 1}
    other = f"/v1/namespaces/{ns}/profiles/elsewhere"
    assert not any("beagle" in s for s in await _memories(client, other))
    history = (await client.get(f"{other}/sessions/chat/history")).json()["messages"]
    assert [m["role"] for m in history] == ["assistant"]
    other_id = await _profile_id(client, other)
    parent = "SELECT parent_id FROM messages WHERE profile_id = :p AND role = 'assistant'"
    assert await _scalar(client, parent, p=other_id) is None, "chained past the forgotten message"


async def test_delete_session_and_delete_profile_take_the_tombstones(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, BOB[1:2])
    await worker.drain()
    await client.delete(f"{profile_url}/memories/{_one(await _memories(client, profile_url), 'beagle')}")
    await client.post(f"{profile_url}/remember", json={"content": "Prefers tea to coffee."})
    tea = _one(await _memories(client, profile_url), "tea")
    await client.delete(f"{profile_url}/memories/{tea}")
    pid = await _profile_id(client, profile_url)
    count = "SELECT count(*) FROM {} WHERE profile_id = :p"
    assert await _scalar(client, count.format("memory_tombstones"), p=pid) == 2

    # deleteSession: the session's tombstone goes with it, and the conversation is new again.
    assert (await client.delete(f"{profile_url}/sessions/chat")).status_code == 204
    assert [t["id"] for t in (await client.get(f"{profile_url}/tombstones")).json()["tombstones"]] == [tea]
    assert (await _ingest(client, profile_url, BOB[1:2]))["messagesNew"] == 1

    # deleteProfile: the rest is purged with everything else.
    assert (await client.delete(profile_url)).status_code == 202
    await worker.drain()
    for table in ("memory_tombstones", "tombstone_messages"):
        assert await _scalar(client, count.format(table), p=pid) == 0, table
