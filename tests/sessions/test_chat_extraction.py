"""Messages appended through the Session API become memories in the background, like ingested ones
(issue 10 item 8): queued in the append's transaction, batched per session, idempotent, with an opt-out."""

from __future__ import annotations

import httpx

from app.worker.runner import Worker
from tests.sessions.helpers import append, new_session, text_message


async def pending_jobs(client: httpx.AsyncClient, profile_url: str) -> int:
    counts = (await client.get(profile_url)).json()["counts"]
    value: int = counts["pendingJobs"]
    return value


async def test_chat_messages_are_extracted_and_recallable(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("u1", "user", "Hi!"))
    await append(client, url, text_message("a1", "assistant", "Hello, what can I do for you?"))
    await append(client, url, text_message("u2", "user", "I moved to Lisbon last month."))
    # Three appends, one queued job: jobs of a session coalesce into one batch.
    assert await pending_jobs(client, profile_url) == 1
    await worker.drain()
    assert await pending_jobs(client, profile_url) == 0

    memories = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert len(memories) == 1 and memories[0]["sessionId"] == sid
    assert "moved to Lisbon" in memories[0]["summary"]
    detail = (await client.get(f"{profile_url}/memories/{memories[0]['id']}")).json()
    assert [s["messageId"] for s in detail["sources"]] == ["u2"]
    recalled = (
        await client.post(f"{profile_url}/recall", json={"query": "Where does the user live?"})
    ).json()
    assert recalled["count"] >= 1 and recalled["candidates"][0]["id"] == memories[0]["id"]

    # Idempotent: appending the same ids again queues nothing; the same statement again adds no memory.
    await append(client, url, text_message("u2", "user", "I moved to Lisbon last month."))
    assert await pending_jobs(client, profile_url) == 0
    batch = await client.post(
        f"{url}/messages/batch",
        json={
            "messages": [
                text_message("u3", "user", "I moved to Lisbon last month."),
                text_message("u4", "user", "Please always answer in Portuguese."),
            ]
        },
    )
    assert batch.status_code == 201
    assert await pending_jobs(client, profile_url) == 1
    await worker.drain()
    summaries = sorted(m["summary"] for m in (await client.get(f"{profile_url}/memories")).json()["memories"])
    assert len(summaries) == 2, summaries
    assert any("moved to Lisbon" in s for s in summaries) and any("Portuguese" in s for s in summaries)


async def test_a_session_can_opt_out(client: httpx.AsyncClient, profile_url: str, worker: Worker) -> None:
    private = await new_session(client, profile_url, extractMemories=False)
    info = (await client.get(f"{profile_url}/sessions/{private}")).json()
    assert info["extractMemories"] is False
    url = f"{profile_url}/sessions/{private}"
    await append(client, url, text_message("p1", "user", "I moved to Berlin last month."))
    assert await pending_jobs(client, profile_url) == 0
    await worker.drain()
    assert (await client.get(f"{profile_url}/memories")).json()["memories"] == []

    # Compaction and split respect the choice too.
    for i in range(6):
        await append(client, url, text_message(f"x{i}", "user", f"I have {i + 2} bicycles in Berlin."))
    compacted = await client.post(f"{url}/compact", json={"protectHead": 1, "tailTokenBudget": 0})
    assert compacted.status_code == 200 and compacted.json() is not None
    assert await pending_jobs(client, profile_url) == 0
    split = await client.post(f"{url}/split", json={"summary": "Bicycles in Berlin.", "name": "next"})
    assert split.status_code == 201 and split.json()["extractMemories"] is False
    assert await pending_jobs(client, profile_url) == 0

    # Switching it back on makes later appends extracted.
    await append(
        client, f"{profile_url}/sessions/{split.json()['id']}", text_message("n1", "user", "I sold my car.")
    )
    assert await pending_jobs(client, profile_url) == 0
    switched = await client.patch(url, json={"extractMemories": True})
    assert switched.status_code == 200 and switched.json()["extractMemories"] is True
    await append(client, url, text_message("p2", "user", "I adopted a dog named Rex."))
    await worker.drain()
    memories = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert len(memories) == 1 and "adopted a dog named Rex" in memories[0]["summary"]


async def test_delete_session_says_what_it_removes(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    operation = spec["paths"]["/v1/namespaces/{namespace}/profiles/{profile}/sessions/{session_id}"]["delete"]
    description = operation["description"]
    for removed in (
        "every message",
        "every memory whose `sessionId`",
        "compaction overlays",
        "frozen system prompt",
    ):
        assert removed in description, removed
    assert "Left alone" in description


async def test_named_speakers_through_the_session_api(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    """A message's `name` is stored, returned in history, renamed by PUT, and used for attribution."""
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    marta = {**text_message("m1", "user", "I start at Feedzai in March."), "name": "  Marta "}
    ben = {**text_message("b1", "assistant", "My sister Clara is getting married in Seville."), "name": "Ben"}
    unnamed = text_message("u1", "user", "I am allergic to peanuts.")
    for message in (marta, ben, unnamed):
        await append(client, url, message)

    history = (await client.get(f"{url}/history")).json()["messages"]
    assert [(m["id"], m["name"]) for m in history] == [("m1", "Marta"), ("b1", "Ben"), ("u1", None)]

    await worker.drain()
    summaries = {m["summary"] for m in (await client.get(f"{profile_url}/memories")).json()["memories"]}
    assert any(s.startswith("Marta ") and "Feedzai" in s for s in summaries), summaries
    assert any("Ben's sister Clara" in s for s in summaries), summaries
    assert any(s.startswith("User ") and "peanuts" in s for s in summaries), summaries

    # PUT replaces the message whole, its speaker included.
    renamed = await client.put(f"{url}/messages/b1", json={"message": {**ben, "name": "Benjamin"}})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Benjamin"
    cleared = await client.put(f"{url}/messages/u1", json={"message": unnamed})
    assert cleared.status_code == 200 and cleared.json()["name"] is None

    # The same limits as ingest's `name`.
    too_long = {**text_message("x1", "user", "Hello."), "name": "n" * 65}
    refused = await client.post(f"{url}/messages", json={"message": too_long})
    assert refused.status_code == 422 and "name" in refused.text


async def test_a_deleted_memory_stays_deleted_when_the_chat_says_it_again(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    """Session API: the same words appended again (same id after the delete, or a new one) are kept as
    chat history, but the memory they made is forgotten until its tombstone is lifted."""
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("m1", "user", "I keep bees on my roof in Lyon."))
    await worker.drain()
    [memory] = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert (await client.delete(f"{profile_url}/memories/{memory['id']}")).status_code == 200

    await append(client, url, text_message("m1", "user", "I keep bees on my roof in Lyon."))
    await append(client, url, text_message("m2", "user", "I keep bees on my roof in Lyon."))
    await worker.drain()
    assert (await client.get(f"{profile_url}/memories")).json()["memories"] == []

    assert (await client.delete(f"{profile_url}/tombstones/{memory['id']}")).status_code == 204
    await append(client, url, text_message("m3", "user", "I keep bees on my roof in Lyon."))
    await worker.drain()
    [back] = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert back["summary"] == memory["summary"]
