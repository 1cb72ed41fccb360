"""Ingest → job → worker → memories, end to end through HTTP and the worker's real loop; job status."""

from __future__ import annotations

import httpx

from app.worker.runner import Worker

CONVERSATION = [
    {"role": "user", "content": "Hi there!", "timestamp": "2024-05-10T09:00:00Z"},
    {"role": "assistant", "content": "Hello! How can I help?", "timestamp": "2024-05-10T09:00:05Z"},
    {
        "role": "user",
        "content": "I moved to Lisbon last year and I work as a nurse.",
        "timestamp": "2024-05-10T09:01:00Z",
    },
    {
        "role": "user",
        "content": "Yesterday I ran my first half marathon.",
        "timestamp": "2024-05-10T09:02:00Z",
    },
    {"role": "user", "content": "From now on, always answer in French.", "timestamp": "2024-05-10T09:03:00Z"},
    {
        "role": "user",
        "content": "Remind me to renew my passport by June 3.",
        "timestamp": "2024-05-10T09:04:00Z",
    },
]


async def _ingest(
    client: httpx.AsyncClient, url: str, messages: list[dict[str, str]], sid: str | None = "s1"
) -> httpx.Response:
    body: dict[str, object] = {"messages": messages}
    if sid is not None:
        body["sessionId"] = sid
    return await client.post(f"{url}/ingest", json=body)


async def test_ingest_extracts_every_type_with_sources(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    response = await _ingest(client, profile_url, CONVERSATION)
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["sessionId"] == "s1" and body["messagesReceived"] == 6 and body["messagesNew"] == 6
    job_id = body["jobId"]
    assert (await client.get(f"{profile_url}/jobs/{job_id}")).json()["status"] == "queued"

    await worker.drain()
    job = (await client.get(f"{profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "done" and job["attempts"] == 1 and job["memoriesCreated"] >= 4

    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    by_type = {m["type"] for m in listed}
    assert by_type == {"fact", "event", "instruction", "task"}, listed
    assert all("content" not in m for m in listed)
    assert not any("Hi there" in m["summary"] for m in listed), "greetings are chit-chat"
    event = next(m for m in listed if m["type"] == "event")
    assert event["eventTime"].startswith("2024-05-09")

    lisbon = next(m for m in listed if "Lisbon" in m["summary"])
    detail = (await client.get(f"{profile_url}/memories/{lisbon['id']}")).json()
    assert "Lisbon" in detail["content"]
    assert [s["content"] for s in detail["sources"]] == [CONVERSATION[2]["content"]]
    assert detail["sources"][0]["role"] == "user"
    assert detail["sources"][0]["timestamp"].startswith("2024-05-10T09:01:00")

    counts = (await client.get(profile_url)).json()["counts"]
    assert counts["messages"] == 6 and counts["sessions"] == 1 and counts["pendingJobs"] == 0
    assert sum(counts["memories"].values()) == len(listed)


async def test_reingest_creates_nothing(client: httpx.AsyncClient, profile_url: str, worker: Worker) -> None:
    first = (await _ingest(client, profile_url, CONVERSATION, sid=None)).json()
    await worker.drain()
    before = (await client.get(profile_url)).json()["counts"]
    again = (await _ingest(client, profile_url, CONVERSATION, sid=None)).json()
    assert again["sessionId"] == first["sessionId"], "derived session id is deterministic"
    assert again["messagesNew"] == 0 and again["jobId"] is None
    await worker.drain()
    assert (await client.get(profile_url)).json()["counts"] == before

    # extending the conversation keeps the derived id and adds only the new message
    extended = CONVERSATION + [{"role": "user", "content": "My sister Ana lives in Porto."}]
    more = (await _ingest(client, profile_url, extended, sid=None)).json()
    assert more["sessionId"] == first["sessionId"] and more["messagesNew"] == 1 and more["jobId"]


async def test_ingest_chains_messages_by_parent(client: httpx.AsyncClient, profile_url: str) -> None:
    await _ingest(client, profile_url, CONVERSATION[:3])
    await _ingest(client, profile_url, CONVERSATION[3:])
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.sessionmaker() as db:
        from sqlalchemy import text

        rows = (
            await db.execute(
                text(
                    "SELECT m.id, m.parent_id FROM messages m JOIN profiles p ON p.id = m.profile_id "
                    "WHERE p.name = 'alice' AND p.namespace_id = (SELECT id FROM namespaces WHERE name = :ns "
                    "AND deleted_at IS NULL) ORDER BY m.seq"
                ),
                {"ns": profile_url.split("/")[3]},
            )
        ).all()
    assert len(rows) == 6
    assert rows[0].parent_id is None
    assert all(rows[i].parent_id == rows[i - 1].id for i in range(1, 6))


async def test_ingest_limits(client: httpx.AsyncClient, profile_url: str) -> None:
    big = "é" * (16 * 1024)  # 32 KiB of UTF-8 exactly
    batch = [{"role": "user", "content": f"{i:04d}" + big[2:]} for i in range(500)]
    accepted = await _ingest(client, profile_url, batch, sid="big")
    assert accepted.status_code == 202, accepted.text[:300]
    assert accepted.json()["messagesNew"] == 500

    too_many = await _ingest(client, profile_url, [{"role": "user", "content": "x"}] * 501)
    assert too_many.status_code == 422 and "500" in too_many.json()["detail"]
    too_long = await _ingest(client, profile_url, [{"role": "user", "content": "x" * (33 * 1024)}])
    assert too_long.status_code == 422 and "32768" in too_long.json()["detail"]
    bad_role = await _ingest(client, profile_url, [{"role": "robot", "content": "x"}])
    assert bad_role.status_code == 422
    empty = await _ingest(client, profile_url, [])
    assert empty.status_code == 422
    long_sid = await _ingest(client, profile_url, [{"role": "user", "content": "x"}], sid="s" * 65)
    assert long_sid.status_code == 422 and "64" in long_sid.json()["detail"]
    naive = await _ingest(
        client, profile_url, [{"role": "user", "content": "x", "timestamp": "2024-01-01T00:00:00"}]
    )
    assert naive.status_code == 422


async def test_unknown_job_and_memory_404(client: httpx.AsyncClient, profile_url: str) -> None:
    await client.put(profile_url)
    missing = await client.get(f"{profile_url}/memories/01HZZZZZZZZZZZZZZZZZZZZZZZ")
    assert missing.status_code == 404 and missing.json()["code"] == "memory_not_found"
    assert (await client.delete(f"{profile_url}/memories/nope")).status_code == 404
    assert (await client.get(f"{profile_url}/jobs/nope")).json()["code"] == "job_not_found"
    # reads on a missing profile: 404 profile_not_found
    gone = await client.get(profile_url.replace("alice", "nobody") + "/memories")
    assert gone.status_code == 404 and gone.json()["code"] == "profile_not_found"


async def test_supersession_keeps_one_active_fact(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, [{"role": "user", "content": "My favourite colour is blue."}], sid="a")
    await worker.drain()
    await _ingest(
        client, profile_url, [{"role": "user", "content": "My favourite colour is green now."}], sid="b"
    )
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories")).json()["memories"]
    colours = [m for m in listed if "colo" in m["summary"].lower()]
    assert len(colours) == 1 and "green" in colours[0]["summary"]
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.sessionmaker() as db:
        from sqlalchemy import text

        rows = (
            await db.execute(
                text(
                    "SELECT content, superseded_by FROM memories WHERE content ILIKE '%blue%' AND topic_key IS NOT NULL"
                )
            )
        ).all()
    assert any(r.superseded_by == colours[0]["id"] for r in rows), "the old fact is kept with supersededBy"


async def test_timestamps_outside_the_utc_calendar_are_422(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    # Regression: 0001-01-01T00:00:00+14:00 is year 0 in UTC: the driver's conversion failed with a 500;
    # 0001-01-01T00:00:00Z was stored as -infinity and failed extraction on every attempt.
    for when in ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00Z"]:
        message = {"role": "user", "content": "Yesterday I moved.", "timestamp": when}
        response = await client.post(f"{profile_url}/ingest", json={"messages": [message]})
        assert response.status_code == 422, response.text
    # The very edges that do exist in UTC are stored, and extraction resolves "yesterday"/"tomorrow" there.
    for i, when in enumerate(["0001-01-01T00:00:01Z", "9999-12-31T23:59:59Z"]):
        messages = [
            {
                "role": "user",
                "content": f"Yesterday I moved to Lisbon and tomorrow I fly {i}.",
                "timestamp": when,
            }
        ]
        response = await client.post(
            f"{profile_url}/ingest", json={"sessionId": f"edge{i}", "messages": messages}
        )
        assert response.status_code == 202, response.text
        await worker.drain()
        job = await client.get(f"{profile_url}/jobs/{response.json()['jobId']}")
        assert job.json()["status"] == "done", job.text
