"""HTTP routes of profiles (getProfile, list, get with counts, deleteProfile)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.names import NamespacePath, ProfilePath
from app.core.pagination import Cursor, Limit
from app.profiles import service
from app.profiles.schemas import ProfileDetail, ProfileList, ProfileOut

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles", tags=["profiles"], responses=error_responses(401, 404, 422)
)


@router.put("/{profile}", responses={201: {"model": ProfileOut, "description": "Created"}})
async def put_profile(
    namespace: NamespacePath,
    profile: ProfilePath,
    db: DbSession,
    principal: CurrentPrincipal,
    response: Response,
) -> ProfileOut:
    """getProfile: the profile, created if absent (201 created, 200 existed)."""
    row, created = await service.for_write(db, principal, namespace, profile)
    response.status_code = 201 if created else 200
    return service.to_out(row, namespace)


@router.get("")
async def list_profiles(
    namespace: NamespacePath,
    db: DbSession,
    principal: CurrentPrincipal,
    limit: Limit = 20,
    cursor: Cursor = None,
) -> ProfileList:
    """List live profiles by name, keyset paginated."""
    return await service.list_profiles(db, principal, namespace, limit, cursor)


@router.get("/{profile}")
async def get_profile(
    namespace: NamespacePath, profile: ProfilePath, db: DbSession, principal: CurrentPrincipal
) -> ProfileDetail:
    """One profile with its counts (memories by type, messages, sessions, pending jobs)."""
    row = await service.for_read(db, principal, namespace, profile)
    return await service.detail(db, row, namespace)


@router.delete("/{profile}", status_code=202)
async def delete_profile(
    namespace: NamespacePath, profile: ProfilePath, db: DbSession, principal: CurrentPrincipal
) -> Response:
    """deleteProfile: invisible at once, name reusable at once, everything purged by the worker.

    Idempotent: deleting a profile that is already deleted (or was never there) answers 202 as well."""
    await service.delete(db, principal, namespace, profile)
    return Response(status_code=202)
