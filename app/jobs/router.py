"""HTTP routes of a profile's background jobs (extraction, compaction, embedding): one, the list, retry."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.pagination import Cursor, Limit
from app.jobs import service
from app.jobs.schemas import JobList, JobOut, JobState
from app.profiles.access import ExistingProfile, profile_router

router = profile_router("memory")


@router.get("/jobs")
async def list_jobs(
    profile: ExistingProfile,
    db: DbSession,
    status: Annotated[JobState | None, Query(description="Only jobs in this state.")] = None,
    limit: Limit = 20,
    cursor: Cursor = None,
) -> JobList:
    """The profile's jobs, newest first, keyset paginated; `error` is set on failed ones."""
    return await service.list_jobs(db, profile, status=status, limit=limit, cursor=cursor)


@router.get("/jobs/{job_id}")
async def get_job(job_id: str, profile: ExistingProfile, db: DbSession) -> JobOut:
    """Status of a background job of this profile."""
    return await service.get_job(db, profile, job_id)


@router.post("/jobs/{job_id}/retry", responses=error_responses(409))
async def retry_job(job_id: str, profile: ExistingProfile, db: DbSession) -> JobOut:
    """Queue a failed job again, its attempts counted from zero; a job in any other state → 409
    `job_not_failed`."""
    return await service.retry_job(db, profile, job_id)
