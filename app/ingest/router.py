"""HTTP routes of ingest and job status."""

from __future__ import annotations

from fastapi import APIRouter

from app.core.db import DbSession
from app.core.errors import error_responses
from app.ingest import service
from app.ingest.schemas import IngestRequest, IngestResult, JobOut
from app.profiles.access import ExistingProfile, ProfileForWrite

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles/{profile}",
    tags=["memory"],
    responses=error_responses(401, 404, 422),
)


@router.post("/ingest", status_code=202, responses=error_responses(413))
async def ingest(body: IngestRequest, profile: ProfileForWrite, db: DbSession) -> IngestResult:
    """Store a conversation (idempotent per message) and queue extraction; 202 once committed."""
    return await service.ingest(db, profile, body)


@router.get("/jobs/{job_id}")
async def get_job(job_id: str, profile: ExistingProfile, db: DbSession) -> JobOut:
    """Status of a background job of this profile."""
    return await service.get_job(db, profile, job_id)
