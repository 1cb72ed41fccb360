"""All SQL of the `jobs` table: enqueue (outbox), claim, renew, finish, retry, fail, release, reclaim; and
the worker's upkeep of the planner statistics of the tables it writes.

Every statement that changes a claimed job is guarded by `locked_by = :me`: a worker whose lease expired
(and whose job another worker took over) can no longer change it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

NOTIFY_CHANNEL = "agent_memory_jobs"


@dataclass(frozen=True)
class ClaimedJob:
    id: str
    kind: str
    profile_id: int | None
    session_id: str | None
    payload: dict[str, Any]
    attempts: int
    max_attempts: int | None
    namespace_id: int | None = None  # its profile's (None: a job of no profile)


@dataclass
class Turns:
    """When this worker last took a job of each namespace (a counter, not a clock): among namespaces
    whose next job has the same turn, the one served longest ago (or never) goes first, so namespaces
    with jobs waiting take turns even when every job runs alone (turns count running jobs only)."""

    last: dict[str, int] = field(default_factory=dict)  # namespace id → when last served
    profiles: dict[str, int] = field(default_factory=dict)  # profile id → when last served
    count: int = 0

    def took(self, jobs: list[ClaimedJob]) -> None:
        for job in jobs:
            self.count += 1
            for table, key in ((self.last, job.namespace_id), (self.profiles, job.profile_id)):
                if key is not None:
                    if len(table) > 10_000:  # bounded: forgetting only makes one look new
                        table.clear()
                    table[str(key)] = self.count


# Coalescing: a queued job with the same dedupe key absorbs the new one; message ids accumulate.
_ENQUEUE = text(
    """
    INSERT INTO jobs (id, kind, profile_id, session_id, payload, max_attempts, dedupe_key)
    VALUES (:id, :kind, :profile_id, :session_id, CAST(:payload AS jsonb), :max_attempts, :dedupe_key)
    ON CONFLICT (dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL
    DO UPDATE SET
        payload = CASE
            WHEN jobs.payload ? 'messageIds' AND EXCLUDED.payload ? 'messageIds'
            THEN jsonb_set(jobs.payload, '{messageIds}',
                           (jobs.payload -> 'messageIds') || (EXCLUDED.payload -> 'messageIds'))
            ELSE EXCLUDED.payload END,
        updated_at = now()
    RETURNING id
    """
)
# The job and its wake-up in one round trip; the NOTIFY is delivered at commit, as the outbox needs.
_ENQUEUE_AND_NOTIFY = text(
    f"""
    WITH job AS ({_ENQUEUE.text})
    SELECT job.id, pg_notify(:channel, :kind) FROM job
    """
)

# Claim takes queued jobs whose time has come and reclaims running jobs whose lease expired (their
# worker died or stalled), in one statement; oldest first, a kind with a claim delay (`:delays`, seconds by
# kind) as if queued that much later.
# Jobs are taken in turns between namespaces, and between profiles within one: each eligible job's turn is
# its place in its namespace's queue plus the jobs that namespace has running, so one namespace's backlog
# (a thousand ingests) cannot hold another's one job back; among equal turns the namespace (or profile) this
# worker served longest ago (`Turns`) goes first, then the oldest due job.
_CLAIM = text(
    """
    WITH served_ns AS (
        SELECT CAST(key AS bigint) AS namespace_id, CAST(value AS bigint) AS at
        FROM jsonb_each_text(CAST(:served AS jsonb))
    ), served_profile AS (
        SELECT CAST(key AS bigint) AS profile_id, CAST(value AS bigint) AS at
        FROM jsonb_each_text(CAST(:served_profiles AS jsonb))
    ), busy_ns AS (
        SELECT p.namespace_id, count(*) AS n
        FROM jobs r JOIN profiles p ON p.id = r.profile_id
        WHERE r.status = 'running' AND r.locked_until >= now()
        GROUP BY p.namespace_id
    ), busy AS (
        SELECT p.namespace_id, r.profile_id, count(*) AS n
        FROM jobs r JOIN profiles p ON p.id = r.profile_id
        WHERE r.status = 'running' AND r.locked_until >= now()
        GROUP BY p.namespace_id, r.profile_id
    ), eligible AS (
        SELECT j.id, j.profile_id, p.namespace_id,
               j.run_after + make_interval(secs => coalesce(CAST(CAST(:delays AS jsonb) ->> j.kind AS float8), 0))
                   AS due
        FROM jobs j LEFT JOIN profiles p ON p.id = j.profile_id
        WHERE ((j.status = 'queued' AND j.run_after <= now())
               OR (j.status = 'running' AND j.locked_until < now()))
          -- jobs of one session run in order: never while an older one of it is pending; a profile's job
          -- of a kind (vectors for its new memories) never beside an older one of that kind, which would
          -- redo the same work (a second is queued while the first runs, and coalescing joins only queued
          -- jobs)
          AND NOT EXISTS (
              SELECT 1 FROM jobs e
              WHERE j.session_id IS NOT NULL AND e.profile_id = j.profile_id
                AND e.session_id = j.session_id AND e.id < j.id AND e.status IN ('queued', 'running'))
          AND NOT EXISTS (
              SELECT 1 FROM jobs e
              WHERE j.session_id IS NULL AND e.profile_id = j.profile_id AND e.session_id IS NULL
                AND e.kind = j.kind AND e.id < j.id AND e.status IN ('queued', 'running'))
    ), by_profile AS (
        SELECT e.*, e.due > now() AS delayed, coalesce(sp.at, 0) AS profile_served,
               coalesce(b.n, 0)
                   + row_number() OVER (PARTITION BY e.profile_id, e.due > now() ORDER BY e.due, e.id) AS profile_turn
        FROM eligible e
        LEFT JOIN busy b ON b.profile_id = e.profile_id
        LEFT JOIN served_profile sp ON sp.profile_id = e.profile_id
    ), ranked AS (
        -- a namespace's jobs in turns between its profiles, then the namespaces in turns
        SELECT e.id, e.due, e.profile_turn, e.delayed, coalesce(sn.at, 0) AS served,
               coalesce(bn.n, 0)
                   + row_number() OVER (
                       PARTITION BY e.namespace_id, e.delayed ORDER BY e.profile_turn, e.profile_served, e.due, e.id)
                   AS namespace_turn
        FROM by_profile e
        LEFT JOIN busy_ns bn ON bn.namespace_id = e.namespace_id
        LEFT JOIN served_ns sn ON sn.namespace_id = e.namespace_id
    )
    UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = :me,
                    locked_until = now() + make_interval(secs => :lease), updated_at = now()
    WHERE id IN (
        SELECT j.id FROM jobs j JOIN ranked r ON r.id = j.id
        -- checked again on the row as locked: another worker may have taken it since the snapshot
        WHERE (j.status = 'queued' AND j.run_after <= now()) OR (j.status = 'running' AND j.locked_until < now())
        -- a job of a kind claimed behind the others (embedding) stays behind every due job until it has
        -- waited its delay, then takes its turn like any other (never starved)
        ORDER BY r.delayed, r.namespace_turn, r.served, r.profile_turn, r.due, r.id
        FOR UPDATE OF j SKIP LOCKED
        LIMIT :n)
    RETURNING id, kind, profile_id, session_id, payload, attempts, max_attempts,
              (SELECT p.namespace_id FROM profiles p WHERE p.id = jobs.profile_id) AS namespace_id
    """
)
# Queued jobs whose time has come, of the kinds claimed without delay.
_UNDELAYED_DUE = text(
    "SELECT EXISTS (SELECT 1 FROM jobs WHERE status = 'queued' AND run_after <= now() "
    "AND kind <> ALL(CAST(:delayed AS text[])))"
)
_RENEW = text(
    "UPDATE jobs SET locked_until = now() + make_interval(secs => :lease) "
    "WHERE id = :id AND locked_by = :me AND status = 'running'"
)
_DONE = text(
    "UPDATE jobs SET status = 'done', finished_at = now(), updated_at = now(), locked_by = NULL, "
    "locked_until = NULL, result = CAST(:result AS jsonb), last_error = NULL "
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
# On a clean stop: the attempt did not happen, so it is given back.
_RELEASE = text(
    "UPDATE jobs SET status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = NULL, "
    "locked_until = NULL, updated_at = now() WHERE id = :id AND locked_by = :me AND status = 'running'"
)
_GAUGE = text(
    "SELECT status, count(*) FROM jobs WHERE status IN ('queued', 'running', 'failed') GROUP BY status"
)
_PENDING = text("SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')")
_PRUNE = text("DELETE FROM jobs WHERE status = 'done' AND finished_at < now() - interval '7 days'")


async def enqueue(
    db: AsyncSession,
    *,
    job_id: str,
    kind: str,
    profile_id: int | None,
    session_id: str | None,
    payload: dict[str, Any],
    dedupe_key: str | None,
    max_attempts: int | None,
) -> str:
    """Insert (or coalesce into a queued one) and NOTIFY at commit; the id of the job that will run."""
    row = await db.execute(
        _ENQUEUE_AND_NOTIFY,
        {
            "channel": NOTIFY_CHANNEL,
            "id": job_id,
            "kind": kind,
            "profile_id": profile_id,
            "session_id": session_id,
            "payload": json.dumps(payload),
            "max_attempts": max_attempts,
            "dedupe_key": dedupe_key,
        },
    )
    queued_id: str = row.scalar_one()
    return queued_id


@dataclass(frozen=True)
class JobStatus:
    """A job as its status endpoint shows it."""

    id: str
    kind: str
    status: str
    attempts: int
    result: dict[str, Any] | None
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None


_STATUS = text(
    "SELECT id, kind, status, attempts, result, last_error, created_at, finished_at FROM jobs "
    "WHERE id = :id AND profile_id = :p"
)


async def status(db: AsyncSession, profile_id: int, job_id: str) -> JobStatus | None:
    row = (await db.execute(_STATUS, {"id": job_id, "p": profile_id})).mappings().one_or_none()
    return JobStatus(**row) if row is not None else None


# A profile's jobs, newest first, keyset on the id (a ULID: creation order).
_PROFILE_JOBS = (
    "SELECT id, kind, status, attempts, result, last_error, created_at, finished_at FROM jobs "
    "WHERE profile_id = :p AND (CAST(:status AS text) IS NULL OR status = :status) "
    "AND (CAST(:before AS text) IS NULL OR id < :before) ORDER BY id DESC LIMIT :limit"
)


async def list_for_profile(
    db: AsyncSession, profile_id: int, *, status: str | None, before_id: str | None, limit: int
) -> list[JobStatus]:
    params = {"p": profile_id, "status": status, "before": before_id, "limit": limit}
    rows = (await db.execute(text(_PROFILE_JOBS), params)).mappings()
    return [JobStatus(**row) for row in rows]


# A failed job queued again from scratch: its attempts start over and its error stays until it runs. Its
# dedupe key is dropped: a queued job of the same scope may already hold that key (the unique index allows
# one), and the retried job must run as it was rather than merge into another. The NOTIFY wakes a worker at
# commit.
_REQUEUE_FAILED = text(
    f"""
    WITH job AS (
        UPDATE jobs SET status = 'queued', attempts = 0, run_after = now(), finished_at = NULL,
                        dedupe_key = NULL, updated_at = now()
        WHERE id = :id AND profile_id = :p AND status = 'failed'
        RETURNING id, kind, status, attempts, result, last_error, created_at, finished_at)
    SELECT job.*, pg_notify('{NOTIFY_CHANNEL}', job.kind) FROM job
    """
)


async def requeue_failed(db: AsyncSession, profile_id: int, job_id: str) -> JobStatus | None:
    """Queue a failed job of the profile again; None when the profile has no failed job of that id."""
    row = (await db.execute(_REQUEUE_FAILED, {"id": job_id, "p": profile_id})).mappings().one_or_none()
    if row is None:
        return None
    return JobStatus(**{k: v for k, v in row.items() if k != "pg_notify"})


async def claim(
    db: AsyncSession,
    me: str,
    lease_seconds: float,
    n: int,
    delays: dict[str, float] | None = None,
    turns: Turns | None = None,
) -> list[ClaimedJob]:
    """Up to `n` jobs for this worker, in turns between namespaces (`turns`: whom this worker served
    last); `delays`: the kinds claimed behind the others, in seconds."""
    params = {
        "me": me,
        "lease": lease_seconds,
        "n": n,
        "delays": json.dumps(delays or {}),
        "served": json.dumps(turns.last if turns is not None else {}),
        "served_profiles": json.dumps(turns.profiles if turns is not None else {}),
    }
    rows = (await db.execute(_CLAIM, params)).mappings().all()
    jobs = [ClaimedJob(**dict(row)) for row in rows]
    if turns is not None:
        turns.took(jobs)
    return jobs


async def undelayed_due(db: AsyncSession, delayed: list[str]) -> bool:
    """Whether a queued job whose time has come is of a kind other than `delayed`."""
    found: bool = (await db.execute(_UNDELAYED_DUE, {"delayed": delayed})).scalar_one()
    return found


async def renew(db: AsyncSession, job_id: str, me: str, lease_seconds: float) -> bool:
    """Extend the lease; False when the job is no longer this worker's."""
    result = await db.execute(_RENEW, {"id": job_id, "me": me, "lease": lease_seconds})
    return bool(getattr(result, "rowcount", 0))


async def finish(db: AsyncSession, job_id: str, me: str, result: dict[str, Any]) -> None:
    await db.execute(_DONE, {"id": job_id, "me": me, "result": json.dumps(result)})


async def retry(db: AsyncSession, job_id: str, me: str, error: str, delay: float) -> None:
    await db.execute(_RETRY, {"id": job_id, "me": me, "error": error, "delay": delay})


async def fail(db: AsyncSession, job_id: str, me: str, error: str) -> None:
    await db.execute(_FAIL, {"id": job_id, "me": me, "error": error})


async def release(db: AsyncSession, job_id: str, me: str) -> None:
    await db.execute(_RELEASE, {"id": job_id, "me": me})


async def drop_queued_for_session(db: AsyncSession, profile_id: int, session_id: str) -> None:
    """Forget the session's jobs that have not started (it is being deleted); running ones finish on
    their own and find nothing left to do."""
    await db.execute(
        text("DELETE FROM jobs WHERE profile_id = :p AND session_id = :sid AND status = 'queued'"),
        {"p": profile_id, "sid": session_id},
    )


# Tables to analyse: those whose rows changed, since they were last analysed, past autovacuum's own
# threshold (its base threshold plus its scale factor times the rows the planner believes the table has;
# none if never analysed); and, once a few rows changed, those whose statistics saw too few profiles: their
# most common profiles cover (nearly) every row, so the planner believes any other profile empty, while the
# profiles table holds more than they name (one added since) — a profile believed empty gets plans that
# read all its rows for each row wanted. PostgreSQL's activity counters reach this view within about a
# second of a commit.
_STALE = text(
    """
    SELECT s.relname FROM pg_stat_user_tables s
    JOIN pg_class c ON c.oid = s.relid
    LEFT JOIN pg_stats p ON p.schemaname = s.schemaname AND p.tablename = s.relname AND p.attname = 'profile_id'
    CROSS JOIN (SELECT current_setting('autovacuum_analyze_threshold')::float8 AS base,
                       current_setting('autovacuum_analyze_scale_factor')::float8 AS scale) a
    WHERE s.schemaname = current_schema() AND s.relname = ANY(CAST(:tables AS text[]))
      AND (s.n_mod_since_analyze > a.base + a.scale * greatest(c.reltuples, 0)
           OR (s.n_mod_since_analyze > a.base
               AND coalesce((SELECT sum(f) FROM unnest(p.most_common_freqs) f), 1) > :covered
               -- counted only as far as a most-common list can reach (10,000, PostgreSQL's largest target)
               AND (SELECT count(*) FROM (SELECT 1 FROM profiles WHERE deleted_at IS NULL LIMIT 10001) x)
                   > coalesce(cardinality(p.most_common_vals::text::bigint[]), 0)))
    ORDER BY s.relname
    """
)
# The share of rows a table's most common profiles may cover before any other profile looks empty.
PROFILES_COVERED = 0.95


async def stale_tables(db: AsyncSession, tables: list[str]) -> list[str]:
    """Which of `tables` need an ANALYZE: changed past autovacuum's threshold, or blind to a profile (`_STALE`)."""
    return list((await db.execute(_STALE, {"tables": tables, "covered": PROFILES_COVERED})).scalars())


async def analyse(db: AsyncSession, table: str) -> None:
    """ANALYZE one table (a name from our own list: an identifier, never user input)."""
    await db.execute(text(f'ANALYZE "{table}"'))


async def pending_count(db: AsyncSession) -> int:
    count: int = (await db.execute(_PENDING)).scalar_one()
    return count


async def status_counts(db: AsyncSession) -> dict[str, int]:
    return {row[0]: row[1] for row in await db.execute(_GAUGE)}


async def prune_done(db: AsyncSession) -> None:
    await db.execute(_PRUNE)
