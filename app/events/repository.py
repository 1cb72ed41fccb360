"""SQL of events: the write for changes made outside the `memories` table (memory changes are written by
the table's trigger, migration 0017), the reads in id order, subscribers' cursors, the retention purge."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.events.types import EventRow, EventType

# Sent (payload: the namespace id) by every transaction that wrote events, when it commits.
NOTIFY_CHANNEL = "agent_memory_events"

_COLUMNS = "namespace_id, id, type, profile_id, profile, memory_id, session_id, created_at, data"


async def record(
    db: AsyncSession,
    profile_id: int,
    type: EventType,
    *,
    session_id: str | None = None,
    memory_id: str | None = None,
    data: dict[str, Any] | None = None,
) -> int | None:
    """Write one event of the profile's namespace in the caller's transaction; its id (None when the profile
    row is gone). Call it last in the transaction: the memory trigger numbers its events at commit
    (migration 0017), and this numbers them now, first, so that they come before this one (a session's
    memories deleted before `session.deleted`, an extraction's memories before `ingest.completed`); the
    namespace's counter stays locked from here to the commit."""
    await db.execute(text("SET CONSTRAINTS memory_events IMMEDIATE"))
    found = await db.execute(
        text("SELECT record_event(:p, :type, :mid, :sid, CAST(:data AS jsonb))"),
        {
            "p": profile_id,
            "type": type.value,
            "mid": memory_id,
            "sid": session_id,
            "data": json.dumps(data or {}),
        },
    )
    return found.scalar_one_or_none()


async def events_after(
    db: AsyncSession,
    namespace_id: int,
    after_id: int,
    limit: int,
    *,
    types: list[str] | None = None,
    profile: str | None = None,
) -> list[EventRow]:
    """The namespace's events with an id above `after_id`, in id order, at most `limit`, optionally of some
    types and of one profile (by name). Ids are given in commit order (migration 0017), so a reader that
    goes on from the last id it read never misses one committed later."""
    clauses = ["namespace_id = :ns", "id > :after"]
    params: dict[str, Any] = {"ns": namespace_id, "after": after_id, "limit": limit}
    if types:
        clauses.append("type = ANY(CAST(:types AS text[]))")
        params["types"] = types
    if profile is not None:
        clauses.append("profile = :profile")
        params["profile"] = profile
    sql = f"SELECT {_COLUMNS} FROM events WHERE {' AND '.join(clauses)} ORDER BY id LIMIT :limit"
    return [EventRow(**r) for r in (await db.execute(text(sql), params)).mappings()]


async def latest_event_id(db: AsyncSession, namespace_id: int) -> int:
    """The namespace's last event id (0 when it has none yet): a reader starting now goes on from it."""
    found = await db.execute(
        text("SELECT last_id FROM event_counters WHERE namespace_id = :ns"), {"ns": namespace_id}
    )
    return found.scalar_one_or_none() or 0


def newer_than_sql(namespace_column: str, cursor_column: str) -> str:
    """SQL, true when the namespace (`namespace_column`) has numbered an event past `cursor_column`: a
    subscriber's claim asks it of many rows at once (the webhook dispatcher's endpoints)."""
    return (
        f"{cursor_column} < coalesce((SELECT c.last_id FROM event_counters c "
        f"WHERE c.namespace_id = {namespace_column}), 0)"
    )


async def namespaces_ahead_of(db: AsyncSession, subscriber: str) -> list[int]:
    """The namespaces with events past the subscriber's cursor (none yet: from the first)."""
    rows = await db.execute(
        text(
            """
            SELECT c.namespace_id FROM event_counters c
            LEFT JOIN event_cursors k ON k.subscriber = :s AND k.namespace_id = c.namespace_id
            WHERE c.last_id > coalesce(k.last_id, 0)
            ORDER BY c.namespace_id
            """
        ),
        {"s": subscriber},
    )
    return list(rows.scalars())


async def lock_cursor(db: AsyncSession, subscriber: str, namespace_id: int) -> int | None:
    """The subscriber's position in the namespace, its row locked for the caller's transaction; None when
    another worker holds it (that one is reading the same events)."""
    await db.execute(
        text("INSERT INTO event_cursors (subscriber, namespace_id) VALUES (:s, :ns) ON CONFLICT DO NOTHING"),
        {"s": subscriber, "ns": namespace_id},
    )
    found = await db.execute(
        text(
            "SELECT last_id FROM event_cursors WHERE subscriber = :s AND namespace_id = :ns "
            "FOR UPDATE SKIP LOCKED"
        ),
        {"s": subscriber, "ns": namespace_id},
    )
    return found.scalar_one_or_none()


async def move_cursor(db: AsyncSession, subscriber: str, namespace_id: int, last_id: int) -> None:
    await db.execute(
        text(
            "UPDATE event_cursors SET last_id = :last, updated_at = now() "
            "WHERE subscriber = :s AND namespace_id = :ns"
        ),
        {"s": subscriber, "ns": namespace_id, "last": last_id},
    )


async def purge_before(db: AsyncSession, cutoff: datetime, batch: int) -> int:
    """Delete up to `batch` events written before `cutoff`; how many."""
    result = await db.execute(
        text(
            "DELETE FROM events WHERE ctid IN (SELECT ctid FROM events WHERE created_at < :cutoff LIMIT :n)"
        ),
        {"cutoff": cutoff, "n": batch},
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
