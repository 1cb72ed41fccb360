"""HTTP route of recall."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.core.auth import CurrentPrincipal
from app.core.consistency import ReplicaRead, read_engine
from app.core.errors import error_responses
from app.core.names import NamespacePath, ProfilePath
from app.profiles.service import Named
from app.recall import service
from app.recall.schemas import RecallRequest, RecallResult

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles/{profile}",
    tags=["memory"],
    responses=error_responses(401, 404, 422),
)


@router.post("/recall", dependencies=[ReplicaRead])
async def recall(
    body: RecallRequest,
    namespace: NamespacePath,
    profile: ProfilePath,
    principal: CurrentPrincipal,
    request: Request,
) -> RecallResult:
    """Find the memories that answer a question and synthesise an answer ("" when nothing matches)."""
    # The app's parts are read off its state, not solved as dependencies: each dependency costs the hot
    # path its solving on every request.
    return await service.recall_and_answer(
        service.RecallApp.of(request.app.state, read_engine(request)),
        Named(principal, namespace, profile),
        body,
    )
