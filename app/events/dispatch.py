"""Follow-up work subscribes to the outbox: each subscriber reads every namespace's events in id order from
its own cursor, in the worker, and reacts in the transaction that moves its cursor.

A subscriber (`@subscriber("name", types)`) is `async def handle(ctx, db, events) -> None`, given the events
without their `data` (what changed where is enough to queue work; the memory's text would cost a read and a
JSON decode of each event). It queues jobs (an embedding for a profile whose memory was created or edited, a
purge for a deleted profile) in `db`, the transaction that also moves its cursor, so that a batch of events
is followed up exactly once: a worker killed before the commit leaves the cursor where it was, and the next
round reads the batch again. Workers share the work through the cursor rows (`FOR UPDATE SKIP LOCKED`): one
namespace's events are read by one worker at a time, in order, once for all the subscribers whose cursors
it holds (a handler that fails leaves them all where they were). No front door queues follow-up work
itself: whatever wrote the memory (REST, MCP, the Session API, import, extraction), its event is enough.

The worker runs `follow_events` on each round of its loop (`Registry.every_round`), woken by the outbox's
NOTIFY at commit (at most every quarter second per writing connection, migration 0024; the poll catches
the rest); each round first gives ids to the events committed since (`repository.number_all`), and
deletes events past their retention, at most once a minute.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.core import tracing
from app.core.metrics import EVENTS_PURGED, EVENTS_WRITTEN
from app.events import repository
from app.events.types import EventRow, EventType
from app.worker.context import JobContext
from app.worker.registry import registry

logger = logging.getLogger("agent_memory.events")

Handle = Callable[[JobContext, AsyncSession, list[EventRow]], Awaitable[None]]
# Events one subscriber reads from one namespace per transaction.
BATCH = 500
PURGE_EVERY_SECONDS = 60.0
PURGE_BATCH = 5000


@dataclass(frozen=True)
class Subscriber:
    name: str
    types: frozenset[str]
    handle: Handle


_subscribers: dict[str, Subscriber] = {}


def subscriber(name: str, types: Collection[EventType]) -> Callable[[Handle], Handle]:
    """Decorator: call the handler with each batch of events of these types, once per event."""

    def register(handle: Handle) -> Handle:
        known = _subscribers.get(name)
        if known is not None and known.handle is not handle:
            raise ValueError(f"event subscriber {name!r} already registered")
        _subscribers[name] = Subscriber(name, frozenset(t.value for t in types), handle)
        return handle

    return register


def subscribers() -> list[Subscriber]:
    return sorted(_subscribers.values(), key=lambda s: s.name)


@subscriber("metrics", list(EventType))
async def count_events(_ctx: JobContext, _db: AsyncSession, events: list[EventRow]) -> None:
    """Events written, by type, in the worker's /metrics (each event counted once across workers)."""
    for type, count in Counter(e.type for e in events).items():
        EVENTS_WRITTEN.labels(type).inc(count)


async def follow(ctx: JobContext, subs: list[Subscriber]) -> bool:
    """Feed the subscribers every namespace's events past their cursors; whether there were any (read here,
    or by another worker that holds their cursors now: its follow-up work is not queued yet). One read
    serves them all: a namespace's batch is read once, from the cursor furthest behind, and each subscriber
    is given the events past its own cursor, in the transaction that moves the cursors."""
    names = [s.name for s in subs]
    async with ctx.transaction() as db:  # ids for what committed since, committed before anything is read
        await repository.number_all(db)
    async with ctx.transaction() as db:
        behind = await repository.namespaces_ahead_of(db, names)
    found = False
    for namespace_id in behind:
        while True:
            async with ctx.transaction() as db:
                cursors = await repository.lock_cursors(db, names, namespace_id)
                if not cursors:
                    found = True  # other workers are reading them
                    break
                start = min(cursors.values())
                events = await repository.events_after(db, namespace_id, start, BATCH, with_data=False)
                if not events:  # purged past their retention before they were read: go on after them
                    last = await repository.latest_event_id(db, namespace_id)
                    await repository.move_cursors(db, list(cursors), namespace_id, max(last, start))
                    break
                for sub in subs:
                    cursor = cursors.get(sub.name)
                    if cursor is None:
                        continue
                    wanted = [e for e in events if e.id > cursor and e.type in sub.types]
                    if wanted:
                        with tracing.events_span(sub.name, namespace_id, wanted[0].id, wanted[-1].id):
                            await sub.handle(ctx, db, wanted)
                await repository.move_cursors(db, list(cursors), namespace_id, events[-1].id)
            found = True
            if len(events) < BATCH:
                break
    return found


_last_purge = 0.0


async def follow_events(ctx: JobContext) -> bool:
    """One round: every subscriber catches up; old events are purged now and then."""
    found = await follow(ctx, subscribers())
    await _purge_expired(ctx)
    return found


async def _purge_expired(ctx: JobContext) -> None:
    global _last_purge
    now = time.monotonic()
    if now - _last_purge < PURGE_EVERY_SECONDS:
        return
    _last_purge = now
    cutoff = datetime.now(UTC) - timedelta(days=ctx.settings.events_retention_days)
    while True:
        async with ctx.transaction() as db:
            deleted = await repository.purge_before(db, cutoff, PURGE_BATCH)
        EVENTS_PURGED.inc(deleted)
        if deleted:
            logger.info("purged %d events older than %s", deleted, cutoff.isoformat())
        if deleted < PURGE_BATCH:
            return


registry.every_round(follow_events, wake_on=repository.NOTIFY_CHANNEL)
