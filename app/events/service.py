"""Rules of the events feed: a namespace's events after a cursor, filtered, optionally waited for.

A long-poll (`wait`) holds no database connection while it waits: each look is a short transaction
(`release` returns its connection to the pool), and the looks are spaced out with a growing pause (from
`FIRST_PAUSE` to `LAST_PAUSE` seconds), so a waiting client costs one indexed read per pause, and an event
reaches it within `LAST_PAUSE` of its commit at worst. Each look first gives ids to the namespace's events
committed since (`repository.number`, in a transaction committed before the read: migration 0024).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.auth import Principal
from app.core.metrics import EVENT_FEED_WAITS
from app.events import repository
from app.events.schemas import EventOut, EventPage
from app.events.types import EventRow, EventType
from app.namespaces import service as namespaces

FIRST_PAUSE = 0.05
LAST_PAUSE = 0.5


def _out(event: EventRow, namespace: str) -> EventOut:
    return EventOut(
        id=event.id,
        type=EventType(event.type),
        timestamp=event.created_at,
        namespace=namespace,
        profile=event.profile,
        memory_id=event.memory_id,
        session_id=event.session_id,
        data=event.data,
    )


async def feed(
    db: AsyncSession,
    release: Callable[[], Awaitable[None]],
    principal: Principal,
    namespace: str,
    *,
    after: int,
    types: list[EventType] | None,
    profile: str | None,
    limit: int,
    wait: float,
) -> EventPage:
    """The namespace's events with ids above `after`, in order; with none yet, looks again until `wait`
    seconds have passed."""
    found = await namespaces.resolve(db, principal, namespace)
    wanted = [t.value for t in types] if types else None
    deadline = time.monotonic() + wait
    pause = FIRST_PAUSE
    waited = False
    while True:
        await repository.number(db, found.id)
        await release()  # the ids given are committed before any is read
        rows = await repository.events_after(db, found.id, after, limit + 1, types=wanted, profile=profile)
        remaining = deadline - time.monotonic()
        if rows or remaining <= 0:
            break
        await release()  # no connection held while waiting
        waited = True
        await asyncio.sleep(min(pause, remaining))
        pause = min(pause * 2, LAST_PAUSE)
    if waited:
        EVENT_FEED_WAITS.labels("events" if rows else "timeout").inc()
    page = rows[:limit]
    return EventPage(
        events=[_out(e, found.name) for e in page],
        cursor=page[-1].id if page else after,
        has_more=len(rows) > limit,
    )
