"""Read replicas (`AGENT_MEMORY_READ_DATABASE_URLS`): which one, if any, may serve a read that can be stale.

A `ReplicaSet` keeps, per streaming replica, what a background check last saw: whether it answers, how far
it has replayed the primary's WAL (`pg_last_wal_replay_lsn()`), and how far behind the primary that is
in seconds. A read that carries a consistency token (the primary's WAL position after the client's last
write, `app.core.consistency`) goes to a replica known to have replayed at least that far; one without
goes to any replica within the lag bound; with none suitable, to the primary. Nothing here ever makes a
read fail: a replica that does not answer is skipped until it does again.

Lag in seconds is measured against the primary's own clock of positions: every check samples the
primary's WAL position, and a replica that has replayed up to position P is as fresh as the newest sample
at or below P (lag 0 when it has replayed the newest). An idle primary therefore shows no lag, which
`now() - pg_last_xact_replay_timestamp()` on the replica would not. The positions the routing relies on
are at most one check old, so a read may be staler than the bound by at most one check interval
(`check_seconds`).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import itertools
import logging
import time
from collections import deque
from dataclasses import dataclass, field

from prometheus_client import Counter, Gauge
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.db import create_engine, create_sessionmaker
from app.core.settings import Settings, to_async_url

logger = logging.getLogger("agent_memory.replicas")

REPLICA_LAG = Gauge(
    "agent_memory_replica_lag_seconds",
    "How far behind the primary each read replica has replayed, in seconds (-1: not answering)",
    ["replica"],
    multiprocess_mode="max",
)
REPLICA_REPLAYED = Gauge(
    "agent_memory_replica_replay_lsn_bytes",
    "WAL position each read replica has replayed (pg_last_wal_replay_lsn, in bytes)",
    ["replica"],
    multiprocess_mode="max",
)
READ_ROUTING = Counter(
    "agent_memory_read_routing_total",
    "Where reads that may lag were sent, and why: replica; primary because no replica is configured, "
    "answers, is within the lag bound, or has replayed the client's last write (token_ahead)",
    ["target", "reason"],
)

# A check's statements are bounded: a replica that hangs is skipped, not waited for.
CHECK_TIMEOUT_SECONDS = 1.0
_POSITION = "SELECT pg_is_in_recovery(), (pg_last_wal_replay_lsn() - '0/0')::bigint"
_PRIMARY_POSITION = "SELECT (pg_current_wal_lsn() - '0/0')::bigint"


@dataclass
class Replica:
    """One read replica and what the last check saw of it."""

    name: str  # host:port/database, for logs and metrics (never the password)
    engine: AsyncEngine
    up: bool = False
    replayed: int | None = None  # WAL position replayed, in bytes
    lag_seconds: float = float("inf")
    checked_at: float = 0.0  # monotonic time of the last successful check

    def mark_down(self, reason: str) -> None:
        if self.up:
            logger.warning("read replica %s skipped: %s", self.name, reason)
        self.up = False
        REPLICA_LAG.labels(self.name).set(-1)


@dataclass
class ReplicaSet:
    primary: AsyncEngine
    replicas: list[Replica]
    max_lag_seconds: float
    check_seconds: float
    # (monotonic time, primary WAL position) of recent checks, oldest first.
    _samples: deque[tuple[float, int]] = field(default_factory=deque)
    _turn: itertools.count[int] = field(default_factory=itertools.count)
    _task: asyncio.Task[None] | None = None
    _makers: dict[AsyncEngine, async_sessionmaker[AsyncSession]] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Settings, primary: AsyncEngine) -> ReplicaSet | None:
        """None when no replica is configured: every read goes to the primary, as before."""
        urls = settings.read_database_url_list
        if not urls:
            return None
        replicas = [Replica(_display(url), create_engine(to_async_url(url), settings)) for url in urls]
        bound = settings.read_replica_max_lag_seconds
        # Checked often enough that a read token's wait for a replica is short, and that the bound is
        # overstepped by a small part of itself at most.
        return cls(primary, replicas, bound, check_seconds=min(0.25, bound / 4))

    # -- routing ------------------------------------------------------------------------------------

    def choose(self, written_at: int | None) -> tuple[AsyncEngine, str]:
        """The engine for one read that may lag, and why (the `reason` of `READ_ROUTING`); `written_at`:
        the client's last write's WAL position (its consistency token), None when it sent none."""
        now = time.monotonic()
        fresh = [
            r
            for r in self.replicas
            if r.up and r.lag_seconds <= self.max_lag_seconds and now - r.checked_at <= self.max_lag_seconds
        ]
        if not fresh:
            return self.primary, "replica_down" if not any(r.up for r in self.replicas) else "replica_lagging"
        if written_at is not None:
            fresh = [r for r in fresh if r.replayed is not None and r.replayed >= written_at]
            if not fresh:
                return self.primary, "token_ahead"
        return fresh[next(self._turn) % len(fresh)].engine, "ok"

    def sessionmaker(self, engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
        maker = self._makers.get(engine)
        if maker is None:
            maker = self._makers[engine] = create_sessionmaker(engine)
        return maker

    def replica_failed(self, engine: AsyncEngine, exc: BaseException) -> None:
        """A read found the replica gone before the check did: skipped from now until a check finds it."""
        for replica in self.replicas:
            if replica.engine is engine:
                replica.mark_down(f"{type(exc).__name__}: {exc}")

    # -- checks -------------------------------------------------------------------------------------

    async def check(self) -> None:
        """Sample the primary's position, then each replica's replay position and lag."""
        now = time.monotonic()
        try:
            async with self.primary.connect() as conn:
                position = (await conn.execute(text(_PRIMARY_POSITION))).scalar_one()
            self._samples.append((now, int(position)))
        except Exception as exc:  # the primary away: replicas' lag cannot be told, and they age out
            logger.debug("primary position unavailable: %s", exc)
        horizon = now - 2 * self.max_lag_seconds - 1
        while len(self._samples) > 1 and self._samples[0][0] < horizon:
            self._samples.popleft()
        await asyncio.gather(*(self._check_one(r) for r in self.replicas))

    async def _check_one(self, replica: Replica) -> None:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS), replica.engine.connect() as conn:
                recovering, replayed = (await conn.execute(text(_POSITION))).one()
        except Exception as exc:
            replica.mark_down(f"{type(exc).__name__}: {exc}")
            return
        if not recovering or replayed is None:
            # A primary (a promoted replica, or the primary itself named here) may have diverged from
            # the one writes go to: never read from it as a replica.
            replica.mark_down("not a streaming replica (pg_is_in_recovery() is false)")
            return
        replica.replayed = int(replayed)
        replica.lag_seconds = self._lag(replica.replayed)
        replica.checked_at = time.monotonic()
        if not replica.up:
            logger.info("read replica %s in use (lag %.2fs)", replica.name, replica.lag_seconds)
        replica.up = True
        REPLICA_LAG.labels(replica.name).set(replica.lag_seconds)
        REPLICA_REPLAYED.labels(replica.name).set(replica.replayed)

    def _lag(self, replayed: int) -> float:
        """Seconds since the primary was at the position the replica has replayed (0: replayed all the
        primary had at the last sample)."""
        if not self._samples:
            return float("inf")
        if replayed >= self._samples[-1][1]:
            return 0.0
        positions = [p for _, p in self._samples]
        at = bisect.bisect_right(positions, replayed) - 1
        if at < 0:  # behind every sample kept: further behind than the bound can say
            return float("inf")
        # It has what the primary had at sample `at`; what came after may be missing.
        return time.monotonic() - self._samples[at][0]

    async def _run(self) -> None:
        while True:
            try:
                await self.check()
            except Exception:  # never let the loop die: a replica stays skipped rather than stale
                logger.exception("read replica check failed")
            await asyncio.sleep(self.check_seconds)

    async def start(self) -> None:
        await self.check()  # in use from the first request, not one interval later
        self._task = asyncio.create_task(self._run(), name="read-replica-checks")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for replica in self.replicas:
            await replica.engine.dispose()


def _display(url: str) -> str:
    parsed = make_url(to_async_url(url))
    return f"{parsed.host or 'localhost'}:{parsed.port or 5432}/{parsed.database or ''}"
