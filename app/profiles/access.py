"""Dependencies that resolve `{namespace}/{profile}` path parameters for the per-profile routers.

The names say what the profile must be, not a permission: `ExistingProfile` must exist (404
`profile_not_found` otherwise, for reads); `ProfileForWrite` is got or created, as getProfile would (write
operations create a missing profile). What a caller may do is the principal's business (`core.auth`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.names import NamespacePath, ProfilePath
from app.models import Profile
from app.profiles import service


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
