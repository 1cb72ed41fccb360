"""HTTP routes of a namespace's quotas."""

from __future__ import annotations

from fastapi import APIRouter

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.names import NamespacePath
from app.quotas import service
from app.quotas.schemas import NamespaceQuotas, QuotaSettings

router = APIRouter(prefix="/v1/namespaces", tags=["namespaces"], responses=error_responses(401, 404, 422))


@router.get("/{namespace}/quotas")
async def get_quotas(namespace: NamespacePath, db: DbSession, principal: CurrentPrincipal) -> NamespaceQuotas:
    """The namespace's quotas: each limit in force (null: none), where it comes from, and the usage now."""
    return await service.get_quotas(db, principal, namespace)


@router.put("/{namespace}/quotas", responses=error_responses(403, 413))
async def set_quotas(
    namespace: NamespacePath, body: QuotaSettings, db: DbSession, principal: CurrentPrincipal
) -> NamespaceQuotas:
    """Set the namespace's own limits (the server's admin key only); a limit left null takes the server's
    default, 0 is no limit. Other API processes apply a change within 5 seconds."""
    return await service.set_quotas(db, principal, namespace, body)
