"""SQL of events: the write for changes made outside the `memories` table (memory changes are written by
the table's trigger, migration 0017), their numbering after commit (migration 0024), the reads in id order,
subscribers' cursors, the retention purge.

Events are written unnumbered and given their ids by a reader, after they committed: a reader calls
`number` (or `number_all`) in a transaction of its own, commits it, and then reads by id. Ids are given in
the order the numberings commit, so a reader that goes on from the last id it read never misses an event
committed late."""

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
) -> None:
    """Write one event of the profile's namespace in the caller's transaction (nothing when the profile row
    is gone). Call it after the changes it sums up: the memory triggers write their events as each
    statement ends (migration 0024), so a session's memories deleted come before `session.deleted`, an
    extraction's memories before `ingest.completed`. It waits on nothing: the event is numbered after the
    commit (`number`)."""
    await db.execute(
        text("SELECT record_event(:p, :type, :mid, :sid, CAST(:data AS jsonb))"),
        {
            "p": profile_id,
            "type": type.value,
            "mid": memory_id,
            "sid": session_id,
            "data": json.dumps(data or {}),
        },
    )


async def number(db: AsyncSession, namespace_id: int) -> None:
    """Give ids to the namespace's committed events that have none yet (migration 0024). The caller commits
    right after, before it reads: ids read in the transaction that gave them could be given again,
    differently, if it rolled back. Cheap when there are none (one probe of a partial index); otherwise the
    namespace's counter row is locked until the commit (numberings wait on one another, writers never)."""
    await db.execute(text("SELECT number_events(:ns)"), {"ns": namespace_id})


async def number_all(db: AsyncSession) -> None:
    """`number` for every namespace with events waiting (the worker's subscribers, the webhook dispatcher)."""
    await db.execute(text("SELECT number_all_events()"))


async def events_after(
    db: AsyncSession,
    namespace_id: int,
    after_id: int,
    limit: int,
    *,
    types: list[str] | None = None,
    profile: str | None = None,
    with_data: bool = True,
) -> list[EventRow]:
    """The namespace's events with an id above `after_id`, in id order, at most `limit`, optionally of some
    types and of one profile (by name); only numbered ones (`number` first). Ids are given after commit, in
    the order the numberings commit (migration 0024), so a reader that goes on from the last id it read
    never misses one committed later. `with_data=False`: each event's
    `data` left empty, for a reader that needs only what changed where (the worker's subscribers), not the
    memory's text (most of an event's size)."""
    clauses = ["namespace_id = :ns", "id > :after"]
    params: dict[str, Any] = {"ns": namespace_id, "after": after_id, "limit": limit}
    if types:
        clauses.append("type = ANY(CAST(:types AS text[]))")
        params["types"] = types
    if profile is not None:
        clauses.append("profile = :profile")
        params["profile"] = profile
    columns = _COLUMNS if with_data else _COLUMNS.replace(", data", ", '{}'::jsonb AS data")
    sql = f"SELECT {columns} FROM events WHERE {' AND '.join(clauses)} ORDER BY id LIMIT :limit"
    # Positional, in _COLUMNS' order (EventRow's fields'): a batch is hundreds of rows.
    return [EventRow(*r) for r in await db.execute(text(sql), params)]


async def latest_event_id(db: AsyncSession, namespace_id: int) -> int:
    """The namespace's last event id given (0 when none yet): a reader starting now goes on from it."""
    found = await db.execute(
        text("SELECT last_id FROM event_counters WHERE namespace_id = :ns"), {"ns": namespace_id}
    )
    return found.scalar_one_or_none() or 0


def newer_than_sql(namespace_column: str, cursor_column: str) -> str:
    """SQL, true when the namespace (`namespace_column`) has given an event id past `cursor_column`: a
    subscriber's claim asks it of many rows at once (the webhook dispatcher's endpoints)."""
    return (
        f"{cursor_column} < coalesce((SELECT c.last_id FROM event_counters c "
        f"WHERE c.namespace_id = {namespace_column}), 0)"
    )


async def namespaces_ahead_of(db: AsyncSession, subscribers: list[str]) -> list[int]:
    """The namespaces with events past the cursor of any of the subscribers (none yet: from the first)."""
    rows = await db.execute(
        text(
            """
            SELECT c.namespace_id FROM event_counters c
            CROSS JOIN unnest(CAST(:s AS text[])) AS s(name)
            LEFT JOIN event_cursors k ON k.subscriber = s.name AND k.namespace_id = c.namespace_id
            GROUP BY c.namespace_id
            HAVING max(c.last_id) > min(coalesce(k.last_id, 0))
            ORDER BY c.namespace_id
            """
        ),
        {"s": subscribers},
    )
    return list(rows.scalars())


async def lock_cursors(db: AsyncSession, subscribers: list[str], namespace_id: int) -> dict[str, int]:
    """The subscribers' positions in the namespace, their rows locked for the caller's transaction; those
    another worker holds (it is reading the same events) are left out."""
    await db.execute(
        text(
            "INSERT INTO event_cursors (subscriber, namespace_id) "
            "SELECT unnest(CAST(:s AS text[])), :ns ON CONFLICT DO NOTHING"
        ),
        {"s": subscribers, "ns": namespace_id},
    )
    found = await db.execute(
        text(
            "SELECT subscriber, last_id FROM event_cursors "
            "WHERE subscriber = ANY(CAST(:s AS text[])) AND namespace_id = :ns "
            "ORDER BY subscriber FOR UPDATE SKIP LOCKED"
        ),
        {"s": subscribers, "ns": namespace_id},
    )
    return {name: last_id for name, last_id in found}


async def move_cursors(db: AsyncSession, subscribers: list[str], namespace_id: int, last_id: int) -> None:
    """Move the subscribers' cursors in the namespace forward to `last_id` (never back)."""
    await db.execute(
        text(
            "UPDATE event_cursors SET last_id = :last, updated_at = now() "
            "WHERE subscriber = ANY(CAST(:s AS text[])) AND namespace_id = :ns AND last_id < :last"
        ),
        {"s": subscribers, "ns": namespace_id, "last": last_id},
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
