"""The `purge_profile` job: physically remove a soft-deleted profile, in short batches; queued from the
profile's `profile.deleted` event."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.events.dispatch import subscriber
from app.events.types import EventRow, EventType
from app.profiles import repository
from app.worker import queue
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import PurgePayload, PurgeResult
from app.worker.registry import registry


@subscriber("purge", [EventType.PROFILE_DELETED])
async def purge_deleted_profiles(_ctx: JobContext, db: AsyncSession, events: list[EventRow]) -> None:
    """A deleted profile's rows are removed by a purge job, queued from its `profile.deleted` event."""
    for profile_id in sorted({e.profile_id for e in events if e.profile_id is not None}):
        await queue.enqueue_purge_profile(db, profile_id)


@registry.job(PurgePayload)
async def purge_profile(ctx: JobContext, job: JobInfo, payload: PurgePayload) -> PurgeResult:
    profile_id = job.require_profile()
    deleted = 0
    for step in range(repository.PURGE_STEP_COUNT):
        while True:
            async with ctx.transaction() as db:
                n = await repository.purge_batch(db, profile_id, step)
            deleted += n
            if n < repository.PURGE_BATCH:
                break
    async with ctx.transaction() as db:
        await repository.purge_profile_row(db, profile_id, keep_kind=job.kind)
    return PurgeResult(rows_deleted=deleted)
