"""HTTP route of recall."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.core.db import DbSession, read_only, release
from app.core.errors import error_responses
from app.core.settings import Settings
from app.embeddings.service import semantic_of
from app.llm.client import llm_of
from app.profiles.access import ExistingProfile
from app.recall import service
from app.recall.schemas import RecallRequest, RecallResult

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles/{profile}",
    tags=["memory"],
    responses=error_responses(401, 404, 422),
)


@router.post("/recall")
@read_only
async def recall(
    body: RecallRequest,
    profile: ExistingProfile,
    db: DbSession,
    request: Request,
) -> RecallResult:
    """Find the memories that answer a question and synthesise an answer ("" when nothing matches)."""
    # The LLM and the semantic channel are read off the app's state, not solved as dependencies: each
    # dependency costs the hot path its solving on every request.
    state = request.app.state
    settings: Settings = state.settings
    llm = llm_of(state)
    ranked = await service.recall(
        db,
        profile,
        body,
        semantic=semantic_of(state),
        exact_rows=settings.recall_exact_rows,
        timeout=settings.recall_timeout_seconds,
    )
    if llm is None:
        return ranked.result
    await release(db)  # the reads are done: no connection waits on the LLM
    return await service.answer_with_llm(llm, body, ranked)
