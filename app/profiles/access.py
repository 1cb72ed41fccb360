"""Dependencies that resolve `{namespace}/{profile}` path parameters for the per-profile routers.

The names say what the profile must be, not a permission: `ExistingProfile` must exist (404
`profile_not_found` otherwise, for reads); `ProfileForWrite` is got or created, as getProfile would (write
operations create a missing profile). What a caller may do is the principal's business (`core.auth`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.names import NamespacePath, ProfilePath
from app.models import Profile
from app.profiles import service

PROFILE_PREFIX = "/v1/namespaces/{namespace}/profiles/{profile}"


def profile_router(tag: str) -> APIRouter:
    """A router for routes under one profile: its path prefix, and the errors every such route may answer
    (no key, no such namespace or profile, a malformed name)."""
    return APIRouter(prefix=PROFILE_PREFIX, tags=[tag], responses=error_responses(401, 404, 422, 429))


async def _existing(
    namespace: NamespacePath, profile: ProfilePath, db: DbSession, principal: CurrentPrincipal
) -> Profile:
    return await service.for_read(db, principal, namespace, profile)


async def _got_or_created(
    namespace: NamespacePath, profile: ProfilePath, db: DbSession, principal: CurrentPrincipal
) -> Profile:
    row, _ = await service.for_write(db, principal, namespace, profile)
    return row


ExistingProfile = Annotated[Profile, Depends(_existing)]
ProfileForWrite = Annotated[Profile, Depends(_got_or_created)]
