"""The limits of per-namespace quotas as every process reads them, the request-rate window, and the refusals.

A namespace's limit of each quota is its own (`namespaces.quota_*`, set by an admin of the server through
`PUT /v1/namespaces/{ns}/quotas`) or, when it has none, the server's default (`AGENT_MEMORY_QUOTA_*`); 0 is no
limit, the default of every one. Each process keeps the limits it read for `LIMITS_CACHE_SECONDS` (a change
made through another process applies within that time; through this one at once), so a write to a namespace
without quotas costs no query. The `QuotaBook` rides on the process's sessionmaker (`Session.info`), so
whatever holds a database session (a service, the worker's job) finds it without being handed it.

Storage quotas (memories, messages, bytes) are enforced where data is written (`app.quotas.service`); the
request rate here, when a key is authenticated (`count_request`): a fixed one-minute window per namespace
on the database's clock, one upsert in a transaction of its own (held for that statement only), so every
API process counts into the same window, also through a transaction-mode pooler.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from prometheus_client import Counter
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import RateLimited
from app.core.settings import Settings

StorageQuota = Literal["memories", "messages", "bytes"]
QuotaName = Literal["memories", "messages", "bytes", "requestsPerMinute"]
STORAGE_QUOTAS: tuple[StorageQuota, ...] = ("memories", "messages", "bytes")

LIMITS_CACHE_SECONDS = 5.0
# A storage quota does not free by itself: only deleting data, or a higher limit, makes room. Clients that
# honour Retry-After should not come back within the hour to be refused again.
STORAGE_RETRY_AFTER_SECONDS = 3600
WINDOW_SECONDS = 60

QUOTA_REFUSALS = Counter(
    "agent_memory_quota_refusals_total",
    "Writes refused (429) or memories left unstored by extraction because a namespace's quota was reached, "
    "by quota (memories, messages, bytes, requestsPerMinute) and where (request, extraction)",
    ["quota", "where"],
)


@dataclass(frozen=True)
class Limits:
    """A namespace's limits in force; 0 is no limit."""

    memories: int = 0
    messages: int = 0
    bytes: int = 0
    requests_per_minute: int = 0

    def of(self, quota: StorageQuota) -> int:
        return int(getattr(self, quota))


@dataclass(frozen=True)
class Overrides:
    """A namespace's own limits; None takes the server's default."""

    memories: int | None = None
    messages: int | None = None
    bytes: int | None = None
    requests_per_minute: int | None = None


class QuotaExceeded(RateLimited):
    """A storage quota reached: 429 `quota_exceeded`; waiting does not help, deleting data or a higher limit
    does (the detail says so; `Retry-After` is an hour)."""

    code, title = "quota_exceeded", "Quota exceeded"

    def __init__(self, quota: StorageQuota, limit: int, usage: int) -> None:
        super().__init__(
            f"the namespace's {quota} quota is reached ({usage} of {limit}): this write would pass it. Storage "
            "quotas do not free with time; delete data, or ask the server's admin for a higher limit",
            STORAGE_RETRY_AFTER_SECONDS,
        )
        self.quota, self.limit, self.usage = quota, limit, usage

    def extra(self) -> dict[str, Any]:
        return {"quota": self.quota, "limit": self.limit, "usage": self.usage}


class RequestRateExceeded(RateLimited):
    """The namespace's requests per minute spent: 429 `rate_limited`, `Retry-After` the seconds until its
    window ends."""

    def __init__(self, limit: int, retry_after: int) -> None:
        super().__init__(
            f"the namespace's quota of {limit} requests per minute is spent; retry in {retry_after} s",
            retry_after,
        )
        self.limit = limit

    def extra(self) -> dict[str, Any]:
        return {"quota": "requestsPerMinute", "limit": self.limit}


_OVERRIDES_BY_ID = text(
    "SELECT id, quota_memories, quota_messages, quota_bytes, quota_requests_per_minute FROM namespaces "
    "WHERE id = :ns"
)
_OVERRIDES_BY_NAME = text(
    "SELECT id, quota_memories, quota_messages, quota_bytes, quota_requests_per_minute FROM namespaces "
    "WHERE name = :name AND deleted_at IS NULL"
)
# One statement: the window's count, reset when the minute turned; and the seconds left in it.
_COUNT_REQUEST = text(
    """
    INSERT INTO namespace_request_windows AS w (namespace_id, "window", requests)
    VALUES (:ns, floor(extract(epoch FROM clock_timestamp()) / 60)::bigint, 1)
    ON CONFLICT (namespace_id) DO UPDATE
    SET requests = CASE WHEN w."window" = EXCLUDED."window" THEN w.requests + 1 ELSE 1 END,
        "window" = EXCLUDED."window"
    RETURNING requests, 60 - floor(extract(epoch FROM clock_timestamp()))::bigint % 60 AS seconds_left
    """
)


@dataclass
class QuotaBook:
    """The server's defaults and the per-namespace limits this process read lately."""

    defaults: Limits
    ttl: float = LIMITS_CACHE_SECONDS
    _by_id: dict[int, tuple[Overrides, float]] = field(default_factory=dict)
    _ids: dict[str, tuple[int, float]] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Settings) -> QuotaBook:
        return cls(
            Limits(
                settings.quota_memories,
                settings.quota_messages,
                settings.quota_bytes,
                settings.quota_requests_per_minute,
            )
        )

    def effective(self, overrides: Overrides) -> Limits:
        def pick(own: int | None, default: int) -> int:
            return default if own is None else own

        d = self.defaults
        return Limits(
            pick(overrides.memories, d.memories),
            pick(overrides.messages, d.messages),
            pick(overrides.bytes, d.bytes),
            pick(overrides.requests_per_minute, d.requests_per_minute),
        )

    def _remember(self, row: Any) -> Overrides:
        overrides = Overrides(row[1], row[2], row[3], row[4])
        if len(self._by_id) > 10_000:  # bounded: forget everything rather than grow without limit
            self._by_id.clear()
            self._ids.clear()
        self._by_id[row[0]] = (overrides, time.monotonic() + self.ttl)
        return overrides

    async def overrides(self, db: AsyncSession, namespace_id: int) -> Overrides:
        cached = self._by_id.get(namespace_id)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        row = (await db.execute(_OVERRIDES_BY_ID, {"ns": namespace_id})).one_or_none()
        return Overrides() if row is None else self._remember(row)

    async def limits(self, db: AsyncSession, namespace_id: int) -> Limits:
        return self.effective(await self.overrides(db, namespace_id))

    async def limits_by_name(self, maker: async_sessionmaker[AsyncSession], name: str) -> Limits:
        """The limits of a live namespace named so (the defaults when there is none)."""
        known = self._ids.get(name)
        if known is not None and known[1] > time.monotonic():
            cached = self._by_id.get(known[0])
            if cached is not None and cached[1] > time.monotonic():
                return self.effective(cached[0])
        async with maker() as db:
            row = (await db.execute(_OVERRIDES_BY_NAME, {"name": name})).one_or_none()
        if row is None:
            return self.defaults
        self._ids[name] = (row[0], time.monotonic() + self.ttl)
        return self.effective(self._remember(row))

    def forget(self, namespace_id: int) -> None:
        self._by_id.pop(namespace_id, None)

    async def count_request(self, maker: async_sessionmaker[AsyncSession], namespace_id: int | None) -> None:
        """Count a request of a namespace's key in its window; 429 past its requests per minute. Requests
        of the server's admin key (no namespace) are not counted."""
        if namespace_id is None:
            return
        cached = self._by_id.get(namespace_id)
        if cached is not None and cached[1] > time.monotonic():
            limit = self.effective(cached[0]).requests_per_minute
            if not limit:
                return
        async with maker.begin() as db:
            limit = (await self.limits(db, namespace_id)).requests_per_minute
            if not limit:
                return
            requests, seconds_left = (await db.execute(_COUNT_REQUEST, {"ns": namespace_id})).one()
        if requests > limit:
            QUOTA_REFUSALS.labels("requestsPerMinute", "request").inc()
            raise RequestRateExceeded(limit, int(seconds_left))


def book_of(holder: AsyncSession | async_sessionmaker[AsyncSession]) -> QuotaBook | None:
    """The process's quota book, from a session or the sessionmaker it rides on (None: quotas not kept, as
    in the operator's CLI)."""
    info = holder.info if isinstance(holder, AsyncSession) else holder.kw.get("info", {})
    book = info.get("quotas")
    return book if isinstance(book, QuotaBook) else None
