"""The events feed: a namespace's events in commit order after a cursor, every one exactly once across pages,
long-polls and concurrent writers; filters; a namespace key sees its namespace only."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from fastapi import FastAPI

from app.worker.runner import Worker


async def _page(client: httpx.AsyncClient, ns: str, **params: Any) -> dict[str, Any]:
    response = await client.get(f"/v1/namespaces/{ns}/events", params=params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


async def _remember(client: httpx.AsyncClient, ns: str, profile: str, content: str) -> dict[str, Any]:
    response = await client.post(
        f"/v1/namespaces/{ns}/profiles/{profile}/remember", json={"content": content}
    )
    assert response.status_code == 201, response.text
    memory: dict[str, Any] = response.json()
    return memory


async def test_pages_give_every_event_once_in_order_with_filters(client: httpx.AsyncClient, ns: str) -> None:
    made = [
        await _remember(client, ns, "alice" if i % 2 else "bob", f"I own {i} red kites.") for i in range(7)
    ]
    seen: list[dict[str, Any]] = []
    after = 0
    while True:
        page = await _page(client, ns, after=after, limit=3)
        seen += page["events"]
        after = page["cursor"]
        if not page["hasMore"]:
            break
    assert [e["id"] for e in seen] == list(range(1, 8))
    assert [e["memoryId"] for e in seen] == [m["id"] for m in made]
    first = seen[0]
    assert first["type"] == "memory.created" and first["namespace"] == ns and first["profile"] == "bob"
    assert first["data"]["memory"] == {**made[0], "sessionId": None}
    assert first["timestamp"].endswith("Z")
    # Nothing after the last: the same cursor back, no wait.
    assert await _page(client, ns, after=after) == {"events": [], "cursor": after, "hasMore": False}

    memory = made[1]["id"]
    assert (await client.delete(f"/v1/namespaces/{ns}/profiles/alice/memories/{memory}")).status_code == 200
    deleted = await _page(client, ns, types="memory.deleted")
    assert [(e["type"], e["memoryId"], e["id"]) for e in deleted["events"]] == [("memory.deleted", memory, 8)]
    both = await client.get(
        f"/v1/namespaces/{ns}/events", params=[("types", "memory.deleted"), ("types", "memory.created")]
    )
    assert len(both.json()["events"]) == 8
    alice = await _page(client, ns, profile="alice")
    assert [e["memoryId"] for e in alice["events"]] == [m["id"] for m in made[1::2]] + [memory]
    bad = await client.get(f"/v1/namespaces/{ns}/events", params={"types": "memory.eaten"})
    assert bad.status_code == 422
    # A cursor past what the database's bigint holds (schemathesis found a 500 here): refused as input.
    huge = await client.get(
        f"/v1/namespaces/{ns}/events", params={"after": 144865371935626053985727244470065299456}
    )
    assert huge.status_code == 422, huge.text


async def test_a_namespace_key_reads_its_own_namespace_only(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    other = "t-other-" + ns[2:]
    assert (await client.post("/v1/namespaces", json={"name": other})).status_code == 201
    await _remember(client, other, "eve", "I keep bees.")
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "feed"})).json()["key"]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://test",
        headers={"Authorization": f"Bearer {key}"},
    ) as scoped:
        assert (await scoped.get(f"/v1/namespaces/{ns}/events")).status_code == 200
        refused = await scoped.get(f"/v1/namespaces/{other}/events")
        assert refused.status_code == 404 and refused.headers["content-type"] == "application/problem+json"


async def test_a_long_poll_returns_an_event_committed_while_it_waits(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    await _remember(client, ns, "alice", "I like plums.")
    cursor = (await _page(client, ns))["cursor"]
    started = time.monotonic()
    polling = asyncio.create_task(_page(client, ns, after=cursor, wait=10))
    await asyncio.sleep(0.3)
    assert not polling.done()
    # A waiting request holds no connection between its looks (one holding it would show 1 throughout).
    samples = []
    for _ in range(10):
        samples.append(app.state.engine.pool.checkedout())
        await asyncio.sleep(0.02)
    assert 0 in samples, samples
    made = await _remember(client, ns, "alice", "I like figs.")
    page = await polling
    assert [e["memoryId"] for e in page["events"]] == [made["id"]] and page["cursor"] == cursor + 1
    assert time.monotonic() - started < 5
    # No event: it answers empty once the wait is over; a wait past the bound is refused.
    started = time.monotonic()
    assert (await _page(client, ns, after=page["cursor"], wait=0.5))["events"] == []
    assert time.monotonic() - started >= 0.4
    too_long = await client.get(f"/v1/namespaces/{ns}/events", params={"wait": 301})
    assert too_long.status_code == 422


async def test_every_event_once_across_long_polls_under_concurrent_writers(
    client: httpx.AsyncClient, ns: str, worker: Worker
) -> None:
    """Writers of every kind at once (remember, edits, deletes, ingest and its extraction); a reader long-polls
    from its cursor meanwhile. It reads each event exactly once, in id order, none skipped: an event that
    committed after the reader passed a smaller id would be lost for good."""
    read: list[int] = []
    done = asyncio.Event()

    async def reader() -> None:
        after = 0
        while True:
            page = await _page(client, ns, after=after, wait=0.3, limit=7)
            read.extend(e["id"] for e in page["events"])
            after = page["cursor"]
            if done.is_set() and not page["events"]:
                return

    async def rememberer(profile: str, tag: str) -> None:
        for i in range(12):
            memory = await _remember(client, ns, profile, f"My {tag} locker {i} holds {i * 3} boxes.")
            url = f"/v1/namespaces/{ns}/profiles/{profile}/memories/{memory['id']}"
            if i % 3 == 0:
                assert (await client.patch(url, json={"metadata": {"n": i}})).status_code == 200
            if i % 4 == 1:
                assert (await client.delete(url)).status_code == 200

    async def ingester() -> None:
        for i in range(4):
            messages = [{"role": "user", "content": f"I moved to city number {i} and I like tea {i}."}]
            response = await client.post(
                f"/v1/namespaces/{ns}/profiles/alice/ingest",
                json={"sessionId": f"s{i}", "messages": messages},
            )
            assert response.status_code == 202
            await worker.drain()

    reading = asyncio.create_task(reader())
    writers = [rememberer("alice", "red"), rememberer("bob", "red"), rememberer("alice", "blue"), ingester()]
    try:
        await asyncio.gather(*writers)
    except BaseException:
        reading.cancel()  # a writer failed: the reader would wait for the end forever
        raise
    done.set()
    await reading
    everything = await _page(client, ns, limit=1000)
    assert len(everything["events"]) > 60
    assert read == [e["id"] for e in everything["events"]] == list(range(1, len(everything["events"]) + 1))


async def test_an_event_committed_late_is_read_after_those_committed_before_it(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    """A transaction that wrote its event first and commits last: a writer after it does not wait for it, a
    reader gets the later writer's event at once, and the late event after it (never behind its cursor)."""
    from sqlalchemy import text

    first = await _remember(client, ns, "alice", "I like plums.")
    cursor = (await _page(client, ns))["cursor"]
    async with app.state.sessionmaker() as late:
        # The event row written now, not at commit, and not committed for a while.
        await late.execute(text("SET CONSTRAINTS ALL IMMEDIATE"))
        await late.execute(text("DELETE FROM memories WHERE id = :id"), {"id": first["id"]})
        # Committed meanwhile, by a writer that must not wait on the open transaction.
        second = await asyncio.wait_for(_remember(client, ns, "bob", "I like figs."), 10)
        page = await asyncio.wait_for(_page(client, ns, after=cursor), 10)
        assert [(e["type"], e["memoryId"]) for e in page["events"]] == [("memory.created", second["id"])]
        cursor = page["cursor"]
        await late.commit()
    page = await _page(client, ns, after=cursor)
    assert [(e["type"], e["memoryId"]) for e in page["events"]] == [("memory.deleted", first["id"])]
    every = await _page(client, ns, after=0)
    assert [e["id"] for e in every["events"]] == [1, 2, 3]
