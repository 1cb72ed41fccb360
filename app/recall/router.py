"""HTTP route of recall."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.core.auth import CurrentPrincipal
from app.core.db import read_connection
from app.core.errors import error_responses
from app.core.names import NamespacePath, ProfilePath
from app.core.settings import Settings
from app.embeddings.service import semantic_of
from app.llm.client import llm_of
from app.profiles.service import Named
from app.recall import service
from app.recall.schemas import RecallRequest, RecallResult

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles/{profile}",
    tags=["memory"],
    responses=error_responses(401, 404, 422),
)


@router.post("/recall")
async def recall(
    body: RecallRequest,
    namespace: NamespacePath,
    profile: ProfilePath,
    principal: CurrentPrincipal,
    request: Request,
) -> RecallResult:
    """Find the memories that answer a question and synthesise an answer ("" when nothing matches)."""
    # The LLM and the semantic channel are read off the app's state, not solved as dependencies: each
    # dependency costs the hot path its solving on every request. No request session either: recall only
    # reads, each statement in autocommit on one connection (`read_connection`).
    state = request.app.state
    settings: Settings = state.settings
    llm = llm_of(state)
    semantic = semantic_of(state)
    # Embedded before a connection is checked out: none waits on the embedder.
    question = await semantic.embed_question(body.query) if semantic is not None else None
    async with read_connection(state.engine) as db:
        ranked = await service.recall(
            db,
            Named(principal, namespace, profile),
            body,
            semantic=question,
            exact_rows=settings.recall_exact_rows,
            timeout=settings.recall_timeout_seconds,
        )
    if llm is None:
        return ranked.result
    # The reads are done and the connection back in the pool: none waits on the LLM.
    return await service.answer_with_llm(llm, body, ranked)
