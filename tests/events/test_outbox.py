"""The outbox: every change to a memory is an event of its namespace, written with the change, numbered in
commit order; session and profile deletes and an extraction's counts too."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from app.events import repository as events
from app.events.dispatch import subscribers
from app.events.types import EventRow
from app.worker.runner import Worker


async def _namespace_id(app: FastAPI, ns: str) -> int:
    async with app.state.sessionmaker() as db:
        found = await db.execute(
            text("SELECT id FROM namespaces WHERE name = :n AND deleted_at IS NULL"), {"n": ns}
        )
        return int(found.scalar_one())


async def _events(app: FastAPI, ns: str) -> list[EventRow]:
    """The namespace's events, as a reader reads them: numbered (and committed), then read."""
    async with app.state.sessionmaker() as db:
        namespace_id = await _namespace_id(app, ns)
        await events.number(db, namespace_id)
        await db.commit()
        return await events.events_after(db, namespace_id, 0, 1000)


async def test_each_change_to_a_memory_is_one_event_in_order(
    app: FastAPI, client: httpx.AsyncClient, ns: str, profile_url: str, worker: Worker
) -> None:
    first = (await client.post(f"{profile_url}/remember", json={"content": "I live in Lisbon."})).json()
    second = (await client.post(f"{profile_url}/remember", json={"content": "I live in Porto."})).json()
    patched = await client.patch(
        f"{profile_url}/memories/{second['id']}", json={"metadata": {"source": "test"}}
    )
    assert patched.status_code == 200, patched.text
    assert (await client.delete(f"{profile_url}/memories/{second['id']}")).status_code in (200, 204)
    got = await _events(app, ns)
    assert [(e.type, e.memory_id) for e in got] == [
        ("memory.created", first["id"]),
        ("memory.superseded", first["id"]),
        ("memory.created", second["id"]),
        ("memory.updated", second["id"]),
        ("memory.deleted", second["id"]),
    ]
    assert [e.id for e in got] == [1, 2, 3, 4, 5]
    assert {e.profile for e in got} == {"alice"}
    created = got[2].data["memory"]
    assert created == {**second, "sessionId": None} or created["content"] == second["content"]
    assert got[3].data["memory"]["metadata"] == {"source": "test"}
    assert got[3].data["change"] == "edited"
    assert got[1].data["memory"]["supersededBy"] == second["id"]


async def test_extraction_session_and_profile_deletes(
    app: FastAPI, client: httpx.AsyncClient, ns: str, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I moved to Lisbon."},
        {"role": "user", "content": "I like fado."},
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    got = await _events(app, ns)
    assert [e.type for e in got] == ["memory.created", "memory.created", "ingest.completed"]
    assert got[-1].data["memoriesCreated"] == 2 and got[-1].data["memoriesSuperseded"] == 0
    assert got[-1].session_id == "s1"
    assert (await client.delete(f"{profile_url}/sessions/s1")).status_code in (200, 204)
    assert (await client.delete(f"{profile_url}/sessions/s1")).status_code in (200, 204)  # says nothing
    assert (await client.post(f"{profile_url}/remember", json={"content": "I like tea."})).status_code == 201
    assert (await client.delete(profile_url)).status_code == 202
    await worker.drain()  # the purge removes the memory: no event for it, the profile's says it
    got = await _events(app, ns)
    assert [e.type for e in got[3:]] == [
        "memory.deleted",
        "memory.deleted",
        "session.deleted",
        "memory.created",
        "profile.deleted",
    ]
    assert [e.id for e in got] == list(range(1, 9))


async def test_retention_purges_old_events_and_ids_never_restart(
    app: FastAPI, client: httpx.AsyncClient, ns: str, profile_url: str
) -> None:
    from app.events import dispatch
    from app.worker.context import JobContext

    for n in range(3):
        response = await client.post(f"{profile_url}/remember", json={"content": f"I have {n + 2} owls."})
        assert response.status_code == 201
    namespace_id = await _namespace_id(app, ns)
    ctx = JobContext(settings=app.state.settings, sessionmaker=app.state.sessionmaker)

    async def age(ids: list[int]) -> None:
        await _events(app, ns)  # numbered, as any reader has them
        async with app.state.sessionmaker() as db:
            await db.execute(
                text(
                    "UPDATE events SET created_at = now() - interval '8 days' WHERE namespace_id = :ns AND id = ANY(:ids)"
                ),
                {"ns": namespace_id, "ids": ids},
            )
            await db.commit()
        dispatch._last_purge = 0.0  # the purge runs at most once a minute: now
        await dispatch.follow_events(ctx)

    await age([1, 2])
    assert [e.id for e in await _events(app, ns)] == [3]
    await age([3])  # every event gone: the next is numbered after them, not from 1
    assert await _events(app, ns) == []
    async with app.state.sessionmaker() as db:
        assert await events.latest_event_id(db, namespace_id) == 3
    response = await client.post(f"{profile_url}/remember", json={"content": "I have nine owls."})
    assert response.status_code == 201
    assert [e.id for e in await _events(app, ns)] == [4]


async def test_drain_waits_for_events_another_worker_is_following_up(
    app: FastAPI, client: httpx.AsyncClient, ns: str, profile_url: str, worker: Worker
) -> None:
    """Another worker holding the namespace's cursors (following its events up, its jobs not queued yet):
    drain waits for it instead of finding the queue empty and returning."""
    remembered = await client.post(f"{profile_url}/remember", json={"content": "I live in Lisbon."})
    assert remembered.status_code == 201
    namespace_id = await _namespace_id(app, ns)
    worker.registry.load()  # every subscriber registered, as the worker has them
    names = [s.name for s in subscribers()]
    async with app.state.sessionmaker() as holder:
        await events.number(holder, namespace_id)
        await events.lock_cursors(holder, names, namespace_id)  # the cursor rows, at 0
        await holder.commit()
        assert set(await events.lock_cursors(holder, names, namespace_id)) == set(names)
        draining = asyncio.create_task(worker.drain())
        await asyncio.sleep(0.5)
        assert not draining.done(), "drain returned while the namespace's events were being followed up"
        await holder.rollback()  # the other worker gives its round up: this one follows the events up
    await draining
    async with app.state.sessionmaker() as db:
        positions = await events.lock_cursors(db, names, namespace_id)
        latest = await events.latest_event_id(db, namespace_id)
    assert latest > 0 and all(position == latest for position in positions.values()), (positions, latest)
