"""What the dispatcher reads of the events outbox (app.events): the events past an endpoint's cursor that
its filters select, and the JSON body a delivery sends for one.

The body follows the Standard Webhooks payload shape: `type`, `timestamp` (when the event happened) and
`data`: the event's id (its number in the namespace: a receiver that sees every id in order has missed
nothing its filters select), namespace, profile, session and memory ids, and the event's own data.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.events import repository as events
from app.events.types import EventRow


async def latest_id(db: AsyncSession, namespace_id: int) -> int:
    """The namespace's last event id, the events committed so far numbered first (migration 0024), in the
    caller's transaction: a new endpoint's cursor, stored with the ids it counts (committed together, or
    neither)."""
    await events.number(db, namespace_id)
    return await events.latest_event_id(db, namespace_id)


async def number_all(db: AsyncSession) -> None:
    """Give ids to every namespace's events committed since; the caller commits before reading them."""
    await events.number_all(db)


async def after(
    db: AsyncSession, namespace_id: int, cursor: int, limit: int, types: list[str] | None, profile: str | None
) -> tuple[list[EventRow], int]:
    """Up to `limit` events past `cursor` that the filters select, and how far that read reached: the last
    event's id, or, when none is left, the namespace's latest id as it was before the read (what the
    filters skipped or the retention purged is behind the cursor then, and nothing committed later is)."""
    latest = await events.latest_event_id(db, namespace_id)
    found = await events.events_after(db, namespace_id, cursor, limit, types=types, profile=profile)
    reached = found[-1].id if found else max(cursor, latest)
    return found, reached


def newer_than_cursor() -> str:
    """SQL, true when the endpoint `w`'s namespace has numbered an event past its cursor (the claim's)."""
    return events.newer_than_sql("w.namespace_id", "w.cursor")


def body(event: EventRow, namespace: str) -> str:
    data = {
        "eventId": event.id,
        "namespace": namespace,
        "profile": event.profile,
        "sessionId": event.session_id,
        "memoryId": event.memory_id,
        **event.data,
    }
    return json.dumps(
        {"type": event.type, "timestamp": _iso(event.created_at), "data": data},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")
