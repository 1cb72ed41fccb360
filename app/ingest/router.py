"""HTTP route of ingest."""

from __future__ import annotations

from fastapi import APIRouter

from app.core.db import DbSession
from app.core.errors import error_responses
from app.ingest import service
from app.ingest.schemas import IngestRequest, IngestResult
from app.profiles.access import ProfileForWrite

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles/{profile}",
    tags=["memory"],
    responses=error_responses(401, 404, 422),
)


@router.post("/ingest", status_code=202, responses=error_responses(413))
async def ingest(body: IngestRequest, profile: ProfileForWrite, db: DbSession) -> IngestResult:
    """Store a conversation (idempotent per message) and queue extraction; 202 once committed."""
    return await service.ingest(db, profile, body)
