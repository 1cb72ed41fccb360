"""SQL of quotas: a namespace's usage (its counters' row plus the changes not yet folded into it, migration
0022), the lock that makes a check exact, the request window, the namespace's own limits."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.quotas import Overrides, StorageQuota
from app.models import Namespace

# The advisory lock of a namespace's quota checks: the two-int4 key space, class 'quot', so it meets
# neither the topic locks (migration 0012) nor the migration runner's single-bigint lock.
LOCK_CLASS = 0x71756F74


@dataclass(frozen=True)
class Usage:
    memories: int
    messages: int
    bytes: int

    def of(self, quota: StorageQuota) -> int:
        return int(getattr(self, quota))


# The counters' row plus the changes this transaction can see: its own, and the few another commit left
# because the row was busy then (`namespace_usage_fold`).
_USAGE = text(
    """
    SELECT u.memories + coalesce(c.memories, 0), u.messages + coalesce(c.messages, 0),
           u.bytes + coalesce(c.bytes, 0)
    FROM namespace_usage u
    LEFT JOIN LATERAL (
        SELECT sum(memories)::bigint AS memories, sum(messages)::bigint AS messages, sum(bytes)::bigint AS bytes
        FROM namespace_usage_changes WHERE namespace_id = u.namespace_id
    ) c ON true
    WHERE u.namespace_id = :ns
    """
)


async def usage(db: AsyncSession, namespace_id: int) -> Usage:
    row = (await db.execute(_USAGE, {"ns": namespace_id})).one_or_none()
    return Usage(0, 0, 0) if row is None else Usage(int(row[0]), int(row[1]), int(row[2]))


async def lock(db: AsyncSession, namespace_id: int) -> Usage:
    """Take the namespace's quota lock until the transaction ends (every check of a limited quota takes it,
    so two writers at the limit are judged one after the other), then read its usage: what every earlier
    holder committed is counted."""
    await db.execute(
        text("SELECT pg_advisory_xact_lock(:cls, CAST(:ns % 2147483647 AS int))"),
        {"cls": LOCK_CLASS, "ns": namespace_id},
    )
    return await usage(db, namespace_id)


async def requests_this_minute(db: AsyncSession, namespace_id: int) -> int:
    found = await db.execute(
        text(
            "SELECT requests FROM namespace_request_windows WHERE namespace_id = :ns "
            'AND "window" = floor(extract(epoch FROM clock_timestamp()) / 60)::bigint'
        ),
        {"ns": namespace_id},
    )
    return int(found.scalar_one_or_none() or 0)


async def set_overrides(db: AsyncSession, namespace_id: int, overrides: Overrides) -> None:
    await db.execute(
        update(Namespace)
        .where(Namespace.id == namespace_id)
        .values(
            quota_memories=overrides.memories,
            quota_messages=overrides.messages,
            quota_bytes=overrides.bytes,
            quota_requests_per_minute=overrides.requests_per_minute,
        )
    )
