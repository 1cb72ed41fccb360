"""The `compact` job: automatic compaction of a session that an append pushed past its `compactAfter`.

Queued by the append (which commits and answers at once); here the estimate is checked again (another
compaction may have run meanwhile), the range planned in one short transaction, the summary written with
no connection held (it may be the LLM's), and the overlay stored in a new transaction after re-checking
the range. The overlay shows in the session's history once the job is done.
"""

from __future__ import annotations

from app.profiles.repository import get_live_by_id
from app.sessions import compaction, repository, service
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import CompactPayload, CompactResult
from app.worker.registry import registry


@registry.job(CompactPayload)
async def run_compaction(ctx: JobContext, job: JobInfo, payload: CompactPayload) -> CompactResult:
    profile_id, session_id = job.require_session()
    async with ctx.transaction() as db:
        profile = await get_live_by_id(db, profile_id)
        session = await repository.get_session(db, profile_id, session_id) if profile else None
        if profile is None or session is None or session.compact_after is None:
            return CompactResult()  # deleted, or auto-compaction turned off, since the append
        messages, _ = await service.history_messages(db, profile, session_id)
        if await service.token_estimate(db, profile, session, messages) <= session.compact_after:
            return CompactResult()
        plan = await compaction.plan_compaction(
            db, profile, session_id, tail_token_budget=payload.tail_token_budget
        )
    if plan is None:
        return CompactResult()
    summary = await compaction.summarise_plan(ctx.llm(), plan)
    async with ctx.transaction() as db:
        out = await compaction.apply(db, profile, plan, summary)
    return CompactResult(compaction_id=out.id if out is not None else None)
