"""The worker loop: claim jobs with SKIP LOCKED, hold a renewed lease while working, retry with backoff.

Wakes on LISTEN (a dedicated asyncpg connection) or a short poll, whichever comes first. Jobs of one
session run in order; a crashed worker's jobs are taken up again when their lease expires. On stop it
claims nothing more, lets in-flight jobs finish for a grace period, then releases what is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.metrics import JOB_SECONDS, JOBS, JOBS_FINISHED
from app.core.settings import Settings, to_plain_url
from app.llm.client import LlmClient
from app.worker.handlers import HANDLERS, JobContext, PermanentJobError, load_handlers
from app.worker.queue import NOTIFY_CHANNEL

logger = logging.getLogger("agent_memory.worker")

_CLAIM = text(
    """
    UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = :me,
                    locked_until = now() + make_interval(secs => :lease), updated_at = now()
    WHERE id IN (
        SELECT j.id FROM jobs j
        WHERE ((j.status = 'queued' AND j.run_after <= now())
               OR (j.status = 'running' AND j.locked_until < now()))
          -- jobs of one session run in order: never while an older one of it is pending
          AND NOT EXISTS (
              SELECT 1 FROM jobs e
              WHERE j.session_id IS NOT NULL AND e.profile_id = j.profile_id
                AND e.session_id = j.session_id AND e.id < j.id AND e.status IN ('queued', 'running'))
        ORDER BY j.run_after, j.id
        FOR UPDATE SKIP LOCKED
        LIMIT :n)
    RETURNING id, kind, profile_id, session_id, payload, attempts, max_attempts
    """
)
_RENEW = text(
    "UPDATE jobs SET locked_until = now() + make_interval(secs => :lease) "
    "WHERE id = :id AND locked_by = :me AND status = 'running'"
)
_DONE = text(
    "UPDATE jobs SET status = 'done', finished_at = now(), updated_at = now(), locked_by = NULL, "
    "locked_until = NULL, memories_created = memories_created + :created, last_error = NULL "
    "WHERE id = :id AND locked_by = :me"
)
_RETRY = text(
    "UPDATE jobs SET status = 'queued', run_after = now() + make_interval(secs => :delay), updated_at = now(), "
    "locked_by = NULL, locked_until = NULL, last_error = :error WHERE id = :id AND locked_by = :me"
)
_FAIL = text(
    "UPDATE jobs SET status = 'failed', finished_at = now(), updated_at = now(), locked_by = NULL, "
    "locked_until = NULL, last_error = :error WHERE id = :id AND locked_by = :me"
)
_RELEASE = text(
    "UPDATE jobs SET status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = NULL, "
    "locked_until = NULL, updated_at = now() WHERE id = :id AND locked_by = :me AND status = 'running'"
)
_GAUGE = text(
    "SELECT status, count(*) FROM jobs WHERE status IN ('queued', 'running', 'failed') GROUP BY status"
)
_PENDING = text("SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')")
_PRUNE = text("DELETE FROM jobs WHERE status = 'done' AND finished_at < now() - interval '7 days'")


@dataclass
class ClaimedJob:
    id: str
    kind: str
    profile_id: int | None
    session_id: str | None
    payload: dict[str, Any]
    attempts: int
    max_attempts: int | None


class Worker:
    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[AsyncSession],
        database_url: str,
        *,
        name: str = "worker",
        llm: LlmClient | None = None,
    ) -> None:
        self.settings = settings
        self.sessionmaker = sessionmaker
        self.database_url = database_url
        self.id = f"{name}:{socket.gethostname()}:{os.getpid()}:{random.randrange(1 << 30):x}"
        self.context = JobContext(settings=settings, sessionmaker=sessionmaker)
        if llm is not None:  # the API process shares its client; the context does not own it
            self.context.cache["llm"] = llm
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._inflight: dict[str, asyncio.Task[None]] = {}
        self._loop_task: asyncio.Task[None] | None = None
        self._listener: asyncpg.Connection | None = None
        self._last_housekeeping = 0.0

    async def start(self) -> None:
        self._loop_task = asyncio.create_task(self._run(), name=f"worker-loop {self.id}")

    async def stop(self, grace_seconds: float = 10.0) -> None:
        """Stop claiming; give in-flight jobs `grace_seconds` to finish, then release them to the queue."""
        self._stopping.set()
        self._wake.set()
        if self._loop_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        if self._inflight:
            await asyncio.wait(list(self._inflight.values()), timeout=grace_seconds)
        for job_id, task in list(self._inflight.items()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            await self._execute(_RELEASE, id=job_id, me=self.id)
        await self._close_listener()
        await self.context.close()

    async def run_until_stopped(self) -> None:
        await self.start()
        await self._stopping.wait()

    async def drain(self, timeout: float = 60.0) -> None:
        """Process jobs until the queue holds none queued or running (used by tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            claimed = await self._claim_and_start()
            if self._inflight:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)
            elif not claimed:
                async with self.sessionmaker() as db:
                    pending = (await db.execute(_PENDING)).scalar_one()
                if not pending:
                    return
                await asyncio.sleep(0.05)  # a retry waiting for its backoff, or another worker's lease
        raise TimeoutError("worker did not drain the queue in time")

    # -- loop -------------------------------------------------------------------------------------

    async def _run(self) -> None:
        await self._listen()
        while not self._stopping.is_set():
            try:
                await self._claim_and_start()
                await self._housekeeping()
            except Exception:
                logger.exception("worker loop error; retrying")
                await asyncio.sleep(1.0)
            self._wake.clear()
            if len(self._inflight) >= self.settings.worker_concurrency:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.settings.worker_poll_seconds)
            if self._listener is None or self._listener.is_closed():
                await self._listen()

    async def _claim_and_start(self) -> int:
        free = self.settings.worker_concurrency - len(self._inflight)
        if free <= 0 or self._stopping.is_set():
            return 0
        async with self.sessionmaker() as db:
            rows = (
                (
                    await db.execute(
                        _CLAIM, {"me": self.id, "lease": self.settings.job_lease_seconds, "n": free}
                    )
                )
                .mappings()
                .all()
            )
            await db.commit()
        for row in rows:
            job = ClaimedJob(**dict(row))
            task = asyncio.create_task(self._process(job), name=f"job {job.id}")
            self._inflight[job.id] = task
            task.add_done_callback(self._forget)
        return len(rows)

    def _max_attempts(self, job: ClaimedJob) -> int:
        return job.max_attempts or self.settings.job_max_attempts

    def _forget(self, task: asyncio.Task[None]) -> None:
        job_id = task.get_name().removeprefix("job ")
        self._inflight.pop(job_id, None)

    async def _process(self, job: ClaimedJob) -> None:
        started = time.perf_counter()
        renewer = asyncio.create_task(self._renew_lease(job.id))
        try:
            handler = (HANDLERS or load_handlers()).get(job.kind)
            if handler is None:
                raise PermanentJobError(f"unknown job kind {job.kind!r}")
            if job.attempts > self._max_attempts(job):
                raise PermanentJobError("lease expired on every attempt (worker crashed or stalled)")
            created = await handler(self.context, job.profile_id, job.session_id, job.payload)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"[:4000]
            permanent = isinstance(exc, PermanentJobError) or job.attempts >= self._max_attempts(job)
            if permanent:
                logger.error("job %s (%s) failed for good: %s", job.id, job.kind, error)
                await self._execute(_FAIL, id=job.id, me=self.id, error=error)
                JOBS_FINISHED.labels(job.kind, "failed").inc()
            else:
                base = self.settings.job_backoff_seconds * 2 ** (job.attempts - 1)
                delay = min(base * random.uniform(0.5, 1.5), 3600.0)  # jitter spreads retries apart
                logger.warning(
                    "job %s (%s) attempt %d failed, retry in %.1fs: %s",
                    job.id,
                    job.kind,
                    job.attempts,
                    delay,
                    error,
                )
                await self._execute(_RETRY, id=job.id, me=self.id, error=error, delay=delay)
                JOBS_FINISHED.labels(job.kind, "retried").inc()
        else:
            await self._execute(_DONE, id=job.id, me=self.id, created=created)
            JOBS_FINISHED.labels(job.kind, "done").inc()
        finally:
            renewer.cancel()
            JOB_SECONDS.labels(job.kind).observe(time.perf_counter() - started)

    async def _renew_lease(self, job_id: str) -> None:
        interval = max(self.settings.job_lease_seconds / 3, 0.2)
        while True:
            await asyncio.sleep(interval)
            try:
                await self._execute(_RENEW, id=job_id, me=self.id, lease=self.settings.job_lease_seconds)
            except Exception:
                logger.warning("could not renew the lease of job %s", job_id, exc_info=True)

    async def _execute(self, statement: Any, **params: Any) -> None:
        async with self.sessionmaker() as db:
            await db.execute(statement, params)
            await db.commit()

    async def _housekeeping(self) -> None:
        now = time.monotonic()
        if now - self._last_housekeeping < 5.0:
            return
        self._last_housekeeping = now
        async with self.sessionmaker() as db:
            counts: dict[str, int] = {row[0]: row[1] for row in await db.execute(_GAUGE)}
            await db.execute(_PRUNE)
            await db.commit()
        for status in ("queued", "running", "failed"):
            JOBS.labels(status).set(counts.get(status, 0))

    # -- LISTEN -----------------------------------------------------------------------------------

    async def _listen(self) -> None:
        try:
            self._listener = await asyncpg.connect(to_plain_url(self.database_url))
            await self._listener.add_listener(NOTIFY_CHANNEL, lambda *_: self._wake.set())
        except Exception as exc:
            # Polling still finds every job; LISTEN only makes it prompt.
            logger.warning("LISTEN unavailable, polling only: %s", exc)
            self._listener = None

    async def _close_listener(self) -> None:
        if self._listener is not None and not self._listener.is_closed():
            with contextlib.suppress(Exception):
                await self._listener.close()
        self._listener = None
