"""Rules of a profile's jobs: what a job shows, the newest-first list, and which jobs can be retried."""

from __future__ import annotations

from typing import cast

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.errors import Conflict, NotFound
from app.core.pagination import decode_cursor, encode_cursor
from app.jobs.schemas import JobList, JobOut, JobState
from app.models import Profile
from app.worker import queue


class JobNotFound(NotFound):
    code = "job_not_found"


class JobNotFailed(Conflict):
    code = "job_not_failed"


def _job_out(job: queue.JobStatus) -> JobOut:
    return JobOut(
        id=job.id,
        kind=job.kind,
        status=cast(JobState, job.status),  # the worker writes no other state; the model checks it
        attempts=job.attempts,
        memories_created=int((job.result or {}).get("memoriesCreated", 0)),
        memories_over_bound=int((job.result or {}).get("memoriesOverBound", 0)),
        memories_over_quota=int((job.result or {}).get("memoriesOverQuota", 0)),
        error=job.last_error if job.status == "failed" else None,
        created_at=job.created_at,
        finished_at=job.finished_at,
    )


async def get_job(db: AsyncSession, profile: Profile, job_id: str) -> JobOut:
    job = await queue.job_status(db, profile.id, job_id)
    if job is None:
        raise JobNotFound(f"job '{job_id}' not found")
    return _job_out(job)


async def list_jobs(
    db: AsyncSession, profile: Profile, *, status: JobState | None, limit: int, cursor: str | None
) -> JobList:
    before = decode_cursor(cursor, 1)[0] if cursor else None
    jobs = await queue.profile_jobs(db, profile.id, status=status, before_id=before, limit=limit + 1)
    page = jobs[:limit]
    next_cursor = encode_cursor(page[-1].id) if len(jobs) > limit else None
    return JobList(jobs=[_job_out(j) for j in page], cursor=next_cursor)


async def retry_job(db: AsyncSession, profile: Profile, job_id: str) -> JobOut:
    """A failed job runs again from its first attempt; any other state → 409, an unknown id → 404."""
    job = await queue.retry_failed(db, profile.id, job_id)
    if job is not None:
        return _job_out(job)
    current = await queue.job_status(db, profile.id, job_id)
    if current is None:
        raise JobNotFound(f"job '{job_id}' not found")
    raise JobNotFailed(f"job '{job_id}' is {current.status}: only a failed job can be retried")
