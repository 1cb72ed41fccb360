"""HTTP route of the profile summary (getSummary)."""

from __future__ import annotations

from app.core.consistency import ReplicaRead
from app.core.db import DbSession
from app.profiles.access import ExistingProfile, profile_router
from app.summary import service
from app.summary.schemas import SummaryOut, SummaryRequest

router = profile_router("memory")


@router.post("/summary", dependencies=[ReplicaRead])
async def get_summary(
    profile: ExistingProfile, db: DbSession, body: SummaryRequest | None = None
) -> SummaryOut:
    """Markdown summary of the profile's active memories, written to sit at the top of an agent's system
    prompt: instructions, key facts, recent events, tasks, last session; about 2,000 tokens."""
    body = body or SummaryRequest()
    summary = await service.build_summary(db, profile, body.session_id, body.response_length)
    return SummaryOut(summary=summary)
