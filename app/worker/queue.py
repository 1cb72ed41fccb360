"""Enqueueing jobs in the caller's transaction (outbox), with a NOTIFY that wakes workers at commit.

`enqueue(db, payload, …)` takes any kind's typed payload (app.worker.kinds); the helpers below are the
product's usual jobs with their dedupe keys.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession
from ulid import ULID

from app.worker import repository
from app.worker.kinds import CompactPayload, ExtractPayload, JobPayload, PurgePayload
from app.worker.registry import registry

NOTIFY_CHANNEL = repository.NOTIFY_CHANNEL
JobStatus = repository.JobStatus
# A deleted session's queued jobs are dropped with it, in the caller's transaction.
drop_queued_for_session = repository.drop_queued_for_session


async def job_status(db: AsyncSession, profile_id: int, job_id: str) -> JobStatus | None:
    """A job of this profile as its status endpoint shows it (None: no such job in the profile)."""
    return await repository.status(db, profile_id, job_id)


async def profile_jobs(
    db: AsyncSession, profile_id: int, *, status: str | None, before_id: str | None, limit: int
) -> list[JobStatus]:
    """The profile's jobs, newest first, optionally of one status, from before `before_id` (keyset)."""
    return await repository.list_for_profile(db, profile_id, status=status, before_id=before_id, limit=limit)


async def retry_failed(db: AsyncSession, profile_id: int, job_id: str) -> JobStatus | None:
    """Queue a failed job of the profile again (attempts from zero); None when it has no such failed job."""
    return await repository.requeue_failed(db, profile_id, job_id)


async def undelayed_jobs_due(db: AsyncSession) -> bool:
    """Whether jobs of the kinds claimed without delay are queued and due. A job of a delayed kind that works
    in rounds (embedding) stops between two rounds for them and queues the rest of its work, so a backlog of
    it never holds up theirs (`JobPayload.claim_delay_seconds`)."""
    return await repository.undelayed_due(db, list(registry.claim_delays()))


async def enqueue(
    db: AsyncSession,
    payload: JobPayload,
    *,
    profile_id: int | None,
    session_id: str | None = None,
    dedupe_key: str | None = None,
    max_attempts: int | None = None,
) -> str:
    """Add a job in the current transaction; returns its id (an existing queued job's when coalesced)."""
    return await repository.enqueue(
        db,
        job_id=str(ULID()),
        kind=payload.kind,
        profile_id=profile_id,
        session_id=session_id,
        payload=payload.to_json(),
        dedupe_key=dedupe_key,
        max_attempts=max_attempts,
    )


async def enqueue_purge_profile(db: AsyncSession, profile_id: int) -> str:
    return await enqueue(db, PurgePayload(), profile_id=profile_id, dedupe_key=f"purge:{profile_id}")


async def enqueue_coalesced(
    db: AsyncSession, payload: JobPayload, profile_id: int, session_id: str | None = None
) -> str:
    """Queue `payload` for the profile (or one of its sessions) unless a job of its kind is already queued
    for the same: the dedupe key is the kind and the scope, so repeated triggers add no second job."""
    scope = f"{profile_id}:{session_id}" if session_id is not None else str(profile_id)
    return await enqueue(
        db, payload, profile_id=profile_id, session_id=session_id, dedupe_key=f"{payload.kind}:{scope}"
    )


async def enqueue_extraction(
    db: AsyncSession, profile_id: int, session_id: str, message_ids: list[str]
) -> str:
    """Queue extraction of these messages of one session; queued jobs of a session coalesce into one."""
    return await enqueue_coalesced(db, ExtractPayload(message_ids=message_ids), profile_id, session_id)


async def enqueue_compaction(
    db: AsyncSession, profile_id: int, session_id: str, tail_token_budget: int
) -> str:
    """Queue automatic compaction of a session; appends while one is queued add no second job."""
    return await enqueue_coalesced(
        db, CompactPayload(tail_token_budget=tail_token_budget), profile_id, session_id
    )
