"""Rules of per-namespace quotas: writes held to the storage quotas, extraction's room, reading and setting
a namespace's limits.

Storage quotas (active memories, session messages, stored bytes) are judged on the counters the database
keeps (migration 0022), never by counting rows. A write that may add to a limited quota runs inside
`held_to_quotas`: the namespace's quota lock is taken before it writes (writers at the limit then go one
at a time), its usage read, the write done, its usage read again; if the write took a quota past its limit
it is refused (429 `quota_exceeded`) and its transaction rolled back, so nothing of it stays. Judged on what
the write really added, a re-sent message or a memory already held passes at the limit. A namespace with
no limit on the quotas a write touches costs no query (`core.quotas.QuotaBook`).

Extraction is not refused: the messages it reads were acknowledged when they were stored. It stores the
memories that fit (`memory_room`) and records how many it left (the job's `memoriesOverQuota`, the
`ingest.completed` event's); the messages stay, and a later extraction of the session (a new message) does
not bring those memories back.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.auth import Principal
from app.core.quotas import (
    QUOTA_REFUSALS,
    Limits,
    Overrides,
    QuotaBook,
    QuotaExceeded,
    StorageQuota,
    book_of,
)
from app.namespaces import service as namespaces
from app.quotas import repository
from app.quotas.schemas import NamespaceQuotas, Quota, QuotaSettings


@asynccontextmanager
async def held_to_quotas(db: AsyncSession, namespace_id: int, *quotas: StorageQuota) -> AsyncIterator[None]:
    """Run the write in the body, refused (QuotaExceeded, raised after it, for the caller to roll back) if it
    took one of `quotas` past the namespace's limit."""
    book = book_of(db)
    limits = await book.limits(db, namespace_id) if book is not None else Limits()
    limited = {quota: limits.of(quota) for quota in quotas if limits.of(quota) > 0}
    if not limited:
        yield
        return
    before = await repository.lock(db, namespace_id)
    yield
    after = await repository.usage(db, namespace_id)
    for quota, limit in limited.items():
        if after.of(quota) > limit and after.of(quota) > before.of(quota):
            QUOTA_REFUSALS.labels(quota, "request").inc()
            raise QuotaExceeded(quota, limit, before.of(quota))


async def limited_by_name(
    maker: async_sessionmaker[AsyncSession], namespace: str, *quotas: StorageQuota
) -> bool:
    """Whether the namespace named so has a limit on one of `quotas` (remember's one-statement path, which
    cannot check, is then not taken)."""
    book = book_of(maker)
    if book is None:
        return False
    limits = await book.limits_by_name(maker, namespace)
    return any(limits.of(quota) > 0 for quota in quotas)


@dataclass(frozen=True)
class MemoryRoom:
    """What extraction may still store: memories and bytes (None: no limit)."""

    memories: int | None
    bytes: int | None

    def fitting(self, sizes: list[int]) -> int:
        """How many of memories of these sizes (in order) fit."""
        count, total = 0, 0
        for size in sizes:
            if self.memories is not None and count + 1 > self.memories:
                break
            if self.bytes is not None and total + size > self.bytes:
                break
            count, total = count + 1, total + size
        return count


async def memory_room(db: AsyncSession, namespace_id: int) -> MemoryRoom:
    """The room left under the namespace's memories and bytes quotas, its quota lock held (as any checked
    writer's) until the caller's transaction ends."""
    book = book_of(db)
    limits = await book.limits(db, namespace_id) if book is not None else Limits()
    if not limits.memories and not limits.bytes:
        return MemoryRoom(None, None)
    usage = await repository.lock(db, namespace_id)
    return MemoryRoom(
        max(limits.memories - usage.memories, 0) if limits.memories else None,
        max(limits.bytes - usage.bytes, 0) if limits.bytes else None,
    )


def count_left_out(quota: StorageQuota, left: int) -> None:
    if left:
        QUOTA_REFUSALS.labels(quota, "extraction").inc(left)


def _quota(limit: int, usage: int, own: int | None) -> Quota:
    source: Literal["namespace", "server"] = "server" if own is None else "namespace"
    return Quota(limit=limit or None, usage=usage, source=source)


async def get_quotas(db: AsyncSession, principal: Principal, name: str) -> NamespaceQuotas:
    namespace = await namespaces.resolve(db, principal, name)
    book = book_of(db)
    assert book is not None, "the API's sessions carry the quota book"
    own = await book.overrides(db, namespace.id)
    limits = book.effective(own)
    usage = await repository.usage(db, namespace.id)
    return NamespaceQuotas(
        namespace=namespace.name,
        memories=_quota(limits.memories, usage.memories, own.memories),
        messages=_quota(limits.messages, usage.messages, own.messages),
        bytes=_quota(limits.bytes, usage.bytes, own.bytes),
        requests_per_minute=_quota(
            limits.requests_per_minute,
            await repository.requests_this_minute(db, namespace.id),
            own.requests_per_minute,
        ),
    )


async def set_quotas(
    db: AsyncSession, principal: Principal, name: str, body: QuotaSettings
) -> NamespaceQuotas:
    """Replace the namespace's own limits (an admin of the server only: a tenant's keys, its admin key among
    them, cannot lift the limits set on it)."""
    namespace = await namespaces.resolve(db, principal, name)  # another namespace's key: 404, as everywhere
    principal.require_admin()
    await repository.set_overrides(
        db, namespace.id, Overrides(body.memories, body.messages, body.bytes, body.requests_per_minute)
    )
    book = book_of(db)
    if isinstance(book, QuotaBook):
        book.forget(namespace.id)  # this process applies it at once; the others within the cache's time
    return await get_quotas(db, principal, name)
