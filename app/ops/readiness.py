"""What `/readyz` answers: a state one background check keeps fresh, so any number of probes costs nothing.

Each API process runs one `ReadinessProbe`: at most once a second it reads the schema's revision on one
connection of its own (kept open between checks, opened again after a failure), within a bound. A probe
request reads the last result and never waits on the database: 400 concurrent probes measured 385 × 503,
81 of them `TooManyConnectionsError`, when each opened a connection, and took every other new connection's
place for the length of the burst.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import asyncpg

from app.core.settings import to_plain_url

logger = logging.getLogger("agent_memory.readiness")

# How often the check runs, and how long one may take (connect and read) before it counts as a failure.
CHECK_INTERVAL_SECONDS = 1.0
CHECK_TIMEOUT_SECONDS = 0.8
# How long stopping waits for a check in flight before it lets it go.
STOP_WAIT_SECONDS = 2.0


@dataclass(frozen=True)
class Readiness:
    """The last check's finding: the revision read (None: none yet, or it failed) and why it failed."""

    revision: str | None
    failure: str | None  # None: the database answered
    checked_at: float  # monotonic


NOT_CHECKED = Readiness(revision=None, failure="not checked yet", checked_at=0.0)


class ReadinessProbe:
    """One background task per process; `url()` is read at each check (a test may point it elsewhere)."""

    def __init__(self, url: Callable[[], str], interval: float = CHECK_INTERVAL_SECONDS) -> None:
        self.url = url
        self.interval = interval
        self.state = NOT_CHECKED
        self.checks = 0  # how many checks ran (each at most one connection)
        self._conn: Any = None  # asyncpg connection (untyped), reused between checks
        self._conn_url: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def start(self) -> None:
        """The first check now (so a process that has started answers at once), then one a second."""
        await self.check()
        self._task = asyncio.create_task(self._run(), name="readiness-probe")

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            # Bounded, and the loop also ends on the flag: a cancellation can be lost when it meets a check
            # finishing at that moment, or a connect that is slow to give way under load, and either held
            # the process's shutdown for good (seen at the end of a full test run on a loaded machine).
            await asyncio.wait({self._task}, timeout=STOP_WAIT_SECONDS)
        self._close()

    async def _run(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.interval)
            await self.check()

    async def check(self) -> None:
        self.checks += 1
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                revision = await self._read()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any database failure (a timeout included) means not ready
            self._close()
            self.state = Readiness(None, f"database unreachable: {type(exc).__name__}", time.monotonic())
            return
        self.state = Readiness(revision, None, time.monotonic())

    async def _read(self) -> str | None:
        url = to_plain_url(self.url())
        if self._conn is None or self._conn.is_closed() or self._conn_url != url:
            self._close()
            # No statement cache: through a transaction pooler a named statement would outlive the
            # server connection it was prepared on.
            self._conn = await asyncpg.connect(url, timeout=CHECK_TIMEOUT_SECONDS, statement_cache_size=0)
            self._conn_url = url
        revision: str | None = await self._conn.fetchval("SELECT version_num FROM alembic_version")
        return revision

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.terminate()  # no goodbye round trip
            self._conn = None
