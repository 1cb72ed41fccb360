"""Enqueueing jobs in the caller's transaction (outbox) with a NOTIFY that wakes workers at commit."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession
from ulid import ULID

NOTIFY_CHANNEL = "agent_memory_jobs"

EXTRACT = "extract"
PURGE_PROFILE = "purge_profile"
COMPACT = "compact"

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
            ELSE jobs.payload END,
        updated_at = now()
    RETURNING id
    """
)


async def enqueue(
    db: AsyncSession,
    kind: str,
    *,
    profile_id: int | None,
    session_id: str | None = None,
    payload: dict[str, Any] | None = None,
    dedupe_key: str | None = None,
    max_attempts: int | None = None,
) -> str:
    """Add a job in the current transaction; returns its id (an existing queued job's when coalesced)."""
    row = await db.execute(
        _ENQUEUE,
        {
            "id": str(ULID()),
            "kind": kind,
            "profile_id": profile_id,
            "session_id": session_id,
            "payload": json.dumps(payload or {}),
            "max_attempts": max_attempts,
            "dedupe_key": dedupe_key,
        },
    )
    job_id: str = row.scalar_one()
    await db.execute(text("SELECT pg_notify(:channel, :kind)"), {"channel": NOTIFY_CHANNEL, "kind": kind})
    return job_id


async def enqueue_purge_profile(db: AsyncSession, profile_id: int) -> str:
    return await enqueue(db, PURGE_PROFILE, profile_id=profile_id, dedupe_key=f"purge:{profile_id}")


async def enqueue_extraction(
    db: AsyncSession, profile_id: int, session_id: str, message_ids: list[str]
) -> str:
    """Queue extraction of these messages of one session; queued jobs of a session coalesce into one."""
    return await enqueue(
        db,
        EXTRACT,
        profile_id=profile_id,
        session_id=session_id,
        payload={"messageIds": message_ids},
        dedupe_key=f"extract:{profile_id}:{session_id}",
    )
