"""The worker's run loop: claim jobs, run each under a renewed lease, record how it ended.

Wakes on LISTEN (a dedicated asyncpg connection) or a short poll, whichever comes first. Jobs of one
session run in order; a crashed worker's jobs are taken up again when their lease expires. A job whose
database connection drops is released for a prompt retry (never left `running`), and the loop reconnects
with backoff while the database is away. On stop it claims nothing more, lets in-flight jobs finish for a
grace period, then releases what is left. The SQL is in `repository`, the retry rules in `retry`, the
handlers in the `registry`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import random
import socket
import time
from collections.abc import Awaitable, Callable

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core import tracing
from app.core.db import database_unavailable
from app.core.metrics import JOB_SECONDS, JOBS, JOBS_FINISHED
from app.core.settings import Settings, to_plain_url
from app.llm.client import LlmClient
from app.worker import repository
from app.worker.context import JobContext, JobInfo, PermanentJobError
from app.worker.registry import Registry, registry
from app.worker.repository import ClaimedJob
from app.worker.retry import CONNECTION_LOST_DELAY_SECONDS, RetryPolicy

logger = logging.getLogger("agent_memory.worker")

HOUSEKEEPING_SECONDS = 5.0
# The tables recall and the summary read, whose rows the worker's jobs (and ingest before them) write.
# Their planner statistics are kept fresh here, as autovacuum would if it runs, but at once: a profile
# recalled right after its conversation was extracted would otherwise be planned on a table's statistics
# from before (or on none: plans that start from every row of the profile cost ~40 times as much).
ANALYSED_TABLES = ["memories", "memory_sources", "messages", "sessions"]
# Reconnect backoff while the database is away: first retry soon (a fast restart takes ~1 s), then
# spaced out so a long outage is not hammered.
RECONNECT_MIN_SECONDS = 0.2
RECONNECT_MAX_SECONDS = 5.0


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:4000]


class Worker:
    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[AsyncSession],
        database_url: str,
        *,
        name: str = "worker",
        llm: LlmClient | None = None,
        jobs: Registry = registry,
    ) -> None:
        self.settings = settings
        self.sessionmaker = sessionmaker
        self.database_url = database_url
        self.registry = jobs
        self.retry_policy = RetryPolicy(settings.job_backoff_seconds, settings.job_max_attempts)
        self.id = f"{name}:{socket.gethostname()}:{os.getpid()}:{random.randrange(1 << 30):x}"
        self.context = JobContext(settings=settings, sessionmaker=sessionmaker)
        if llm is not None:  # the API process shares its client; the context does not own it
            self.context.cache["llm"] = llm
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._inflight: dict[str, asyncio.Task[None]] = {}
        # Whom this worker served last, so namespaces take turns (app.worker.repository.Turns).
        self._turns = repository.Turns()
        self._loop_task: asyncio.Task[None] | None = None
        self._companions: list[asyncio.Task[None]] = []  # the registry's loops (app.worker.registry)
        self._listener: asyncpg.Connection | None = None
        self._last_housekeeping = 0.0
        self._finished_since_statistics = False

    async def start(self) -> None:
        self._loop_task = asyncio.create_task(self._run(), name=f"worker-loop {self.id}")
        self._companions = [
            asyncio.create_task(
                run(self.context, self.id, self._stopping), name=f"{run.__qualname__} {self.id}"
            )
            for run in self.registry.loops()
        ]

    @property
    def running(self) -> bool:
        """The loop runs and no stop was asked (what the worker's /healthz reports)."""
        return self._loop_task is not None and not self._loop_task.done() and not self._stopping.is_set()

    async def stop(self, grace_seconds: float = 10.0) -> None:
        """Stop claiming; give in-flight jobs `grace_seconds` to finish, then release them to the queue."""
        self._stopping.set()
        self._wake.set()
        if self._loop_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        if self._inflight or self._companions:
            await asyncio.wait([*self._inflight.values(), *self._companions], timeout=grace_seconds)
        for companion in self._companions:
            companion.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await companion
        self._companions = []
        for job_id, task in list(self._inflight.items()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            try:
                await self._write(functools.partial(repository.release, job_id=job_id, me=self.id))
                logger.info("job %s released on stop", job_id, extra={"job_id": job_id})
            except Exception as exc:  # its lease expires and another worker takes it up
                logger.warning("could not release job %s on stop: %s", job_id, _describe(exc))
        await self._close_listener()
        await self.context.close()

    async def run_until_stopped(self) -> None:
        await self.start()
        await self._stopping.wait()

    async def drain(self, timeout: float = 60.0) -> None:
        """Process jobs until the queue holds none queued or running (used by tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            followed = await self._rounds()
            claimed = await self._claim_and_start()
            if self._inflight:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)
            elif not claimed and not followed:
                async with self.sessionmaker() as db:
                    pending = await repository.pending_count(db)
                if not pending:
                    return
                await asyncio.sleep(0.05)  # a retry waiting for its backoff, or another worker's lease
            elif not claimed:
                await asyncio.sleep(0.01)  # events another worker is following up: its jobs come next
        raise TimeoutError("worker did not drain the queue in time")

    # -- loop -------------------------------------------------------------------------------------

    async def _run(self) -> None:
        await self._listen()
        backoff = RECONNECT_MIN_SECONDS
        while not self._stopping.is_set():
            try:
                await self._rounds()
                await self._claim_and_start()
                if not self._inflight and self._finished_since_statistics:
                    await self._refresh_statistics()  # idle after some work: what it wrote is planned on
                await self._housekeeping()
                backoff = RECONNECT_MIN_SECONDS
            except Exception as exc:
                if database_unavailable(exc):
                    logger.warning("database unavailable, retrying in %.1fs: %s", backoff, _describe(exc))
                else:
                    logger.exception("worker loop error; retrying in %.1fs", backoff)
                await self._sleep(backoff)
                backoff = min(backoff * 2, RECONNECT_MAX_SECONDS)
                continue
            self._wake.clear()
            if len(self._inflight) >= self.settings.worker_concurrency:
                await asyncio.wait(list(self._inflight.values()), return_when=asyncio.FIRST_COMPLETED)
                continue
            await self._sleep(self.settings.worker_poll_seconds)
            if self._listener is None or self._listener.is_closed():
                await self._listen()

    async def _sleep(self, seconds: float) -> None:
        """Wait `seconds`, or less if a NOTIFY (or stop) comes first."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=seconds)

    async def _claim_and_start(self) -> int:
        free = self.settings.worker_concurrency - len(self._inflight)
        if free <= 0 or self._stopping.is_set():
            return 0
        async with self.sessionmaker() as db:
            jobs = await repository.claim(
                db,
                self.id,
                self.settings.job_lease_seconds,
                free,
                self.registry.claim_delays(),
                self._turns,
            )
            await db.commit()
        for job in jobs:
            task = asyncio.create_task(self._process(job), name=f"job {job.id}")
            self._inflight[job.id] = task
            task.add_done_callback(self._forget)
        return len(jobs)

    async def _rounds(self) -> bool:
        """The registry's round tasks (events to follow up); whether any found work."""
        found = False
        for task in self.registry.round_tasks():
            found = await task(self.context) or found
        return found

    def _forget(self, task: asyncio.Task[None]) -> None:
        job_id = task.get_name().removeprefix("job ")
        self._inflight.pop(job_id, None)

    # -- one job ----------------------------------------------------------------------------------

    async def _process(self, job: ClaimedJob) -> None:
        """Run one claimed job and record its outcome. Never raises: nothing is left for the loop to
        retrieve, and whatever happens the job ends done, queued for a retry, or failed."""
        started = time.perf_counter()
        info = JobInfo(job.id, job.kind, job.profile_id, job.session_id, job.attempts)
        extra: dict[str, object] = {
            "job_id": job.id,
            "kind": job.kind,
            "profile_id": job.profile_id,
            "attempt": job.attempts,
        }
        logger.info(
            "job %s (%s) started, profile %s, attempt %d",
            job.id,
            job.kind,
            job.profile_id,
            job.attempts,
            extra=extra,
        )
        renewer = asyncio.create_task(self._renew_lease(job.id), name=f"lease {job.id}")
        try:
            registered = self.registry.get(job.kind)
            if registered is None:
                raise PermanentJobError(f"unknown job kind {job.kind!r}")
            if job.attempts > self.retry_policy.attempts_allowed(job.max_attempts):
                raise PermanentJobError("lease expired on every attempt (worker crashed or stalled)")
            with tracing.job_span(job.kind, job.id, job.profile_id, job.attempts):
                result = await registered.handler(self.context, info, registered.parse(job.payload))
        except asyncio.CancelledError:
            raise  # stop(): the job is released there
        except Exception as exc:
            renewer.cancel()
            await self._record_failure(job, exc, time.perf_counter() - started, extra)
        else:
            renewer.cancel()
            seconds = time.perf_counter() - started
            outcome = result.to_json()
            await self._record(
                job, lambda db: repository.finish(db, job.id, self.id, outcome), "its completion"
            )
            logger.info(
                "job %s (%s) done in %.3fs, profile %s: %s",
                job.id,
                job.kind,
                seconds,
                job.profile_id,
                outcome,
                extra={**extra, "duration_seconds": round(seconds, 4), "result": outcome},
            )
            JOBS_FINISHED.labels(job.kind, "done").inc()
        finally:
            renewer.cancel()
            self._finished_since_statistics = True
            JOB_SECONDS.labels(job.kind).observe(time.perf_counter() - started)

    async def _record_failure(
        self, job: ClaimedJob, exc: Exception, seconds: float, extra: dict[str, object]
    ) -> None:
        error = _describe(exc)
        lost = database_unavailable(exc)
        extra = {**extra, "duration_seconds": round(seconds, 4), "error": error}
        exhausted = self.retry_policy.exhausted(job.attempts, job.max_attempts)
        if isinstance(exc, PermanentJobError) or exhausted:
            logger.error(
                "job %s (%s) failed for good after %.3fs, profile %s: %s",
                job.id,
                job.kind,
                seconds,
                job.profile_id,
                error,
                extra=extra,
            )
            await self._record(job, lambda db: repository.fail(db, job.id, self.id, error), "its failure")
            JOBS_FINISHED.labels(job.kind, "failed").inc()
            return
        # A lost connection is not the job's fault: retry it as soon as the database is back.
        delay = CONNECTION_LOST_DELAY_SECONDS if lost else self.retry_policy.delay(job.attempts)
        logger.info(
            "job %s (%s) attempt %d %s after %.3fs, profile %s, retry in %.1fs: %s",
            job.id,
            job.kind,
            job.attempts,
            "lost its database connection" if lost else "failed",
            seconds,
            job.profile_id,
            delay,
            error,
            extra={**extra, "retry_in_seconds": round(delay, 3), "connection_lost": lost},
        )
        await self._record(
            job, lambda db: repository.retry(db, job.id, self.id, error, delay), "its release for retry"
        )
        JOBS_FINISHED.labels(job.kind, "retried").inc()

    async def _record(
        self, job: ClaimedJob, write: Callable[[AsyncSession], Awaitable[None]], what: str
    ) -> None:
        """Write a job's outcome, retrying while the database is away, for as long as the lease lasts:
        past it another worker may own the job (the `locked_by` guard makes a late write a no-op)."""
        deadline = time.monotonic() + self.settings.job_lease_seconds
        pause = RECONNECT_MIN_SECONDS
        while True:
            try:
                await self._write(write)
                return
            except Exception as exc:
                if not database_unavailable(exc) or time.monotonic() + pause > deadline:
                    logger.warning(
                        "could not record %s for job %s (its lease will expire and it will run again): %s",
                        what,
                        job.id,
                        _describe(exc),
                        extra={"job_id": job.id, "kind": job.kind},
                    )
                    return
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX_SECONDS)

    async def _write(self, write: Callable[[AsyncSession], Awaitable[None]]) -> None:
        async with self.sessionmaker() as db:
            await write(db)
            await db.commit()

    async def _renew_lease(self, job_id: str) -> None:
        interval = max(self.settings.job_lease_seconds / 3, 0.2)
        lease = self.settings.job_lease_seconds
        while True:
            await asyncio.sleep(interval)
            try:
                async with self.sessionmaker() as db:
                    await repository.renew(db, job_id, self.id, lease)
                    await db.commit()
            except Exception as exc:
                logger.warning("could not renew the lease of job %s: %s", job_id, _describe(exc))

    async def _housekeeping(self) -> None:
        now = time.monotonic()
        if now - self._last_housekeeping < HOUSEKEEPING_SECONDS:
            return
        self._last_housekeeping = now
        async with self.sessionmaker() as db:
            counts = await repository.status_counts(db)
            await repository.prune_done(db)
            await db.commit()
        for status in ("queued", "running", "failed"):
            JOBS.labels(status).set(counts.get(status, 0))
        # Again on every round: the activity counters of a job's last rows may have lagged the idle check.
        await self._refresh_statistics()

    async def _refresh_statistics(self) -> None:
        """ANALYZE the tables whose rows changed past autovacuum's threshold since their last analysis."""
        self._finished_since_statistics = False
        async with self.sessionmaker() as db:
            stale = await repository.stale_tables(db, ANALYSED_TABLES)
            await db.commit()
        for table in stale:
            started = time.perf_counter()
            async with self.sessionmaker() as db:
                await repository.analyse(db, table)
                await db.commit()
            logger.info("analysed %s in %.3fs", table, time.perf_counter() - started, extra={"table": table})

    # -- LISTEN -----------------------------------------------------------------------------------

    async def _listen(self) -> None:
        await self._close_listener()
        try:
            self._listener = await asyncpg.connect(
                to_plain_url(self.database_url), timeout=self.settings.db_connect_timeout_seconds
            )
            for channel in [repository.NOTIFY_CHANNEL, *self.registry.wake_channels()]:
                await self._listener.add_listener(channel, lambda *_: self._wake.set())
        except Exception as exc:
            # Polling still finds every job; LISTEN only makes it prompt.
            logger.warning("LISTEN unavailable, polling only: %s", _describe(exc))
            await self._close_listener()

    async def _close_listener(self) -> None:
        if self._listener is not None and not self._listener.is_closed():
            with contextlib.suppress(Exception):
                await self._listener.close()
        self._listener = None
