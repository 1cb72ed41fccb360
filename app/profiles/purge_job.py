"""The `purge_profile` job: physically remove a soft-deleted profile, in short batches."""

from __future__ import annotations

from app.profiles import repository
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import PurgePayload, PurgeResult
from app.worker.registry import registry


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
