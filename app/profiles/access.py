"""Dependencies that resolve `{namespace}/{profile}` path parameters for the per-profile routers.

`ReadableProfile` answers 404 `profile_not_found` for a missing profile; `WritableProfile` creates it,
as getProfile would (write operations create a missing profile).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.names import NamespacePath, ProfilePath
from app.models import Profile
from app.profiles import service


async def _readable(
    namespace: NamespacePath, profile: ProfilePath, db: DbSession, principal: CurrentPrincipal
) -> Profile:
    return await service.for_read(db, principal, namespace, profile)


async def _writable(
    namespace: NamespacePath, profile: ProfilePath, db: DbSession, principal: CurrentPrincipal
) -> Profile:
    row, _ = await service.for_write(db, principal, namespace, profile)
    return row


ReadableProfile = Annotated[Profile, Depends(_readable)]
WritableProfile = Annotated[Profile, Depends(_writable)]
