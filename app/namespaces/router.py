"""HTTP routes of namespaces and their keys."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.names import NamespacePath
from app.core.pagination import Cursor, Limit
from app.namespaces import service
from app.namespaces.schemas import (
    CurrentKey,
    KeyCreate,
    KeyCreated,
    KeyList,
    NamespaceCreate,
    NamespaceList,
    NamespaceOut,
)

router = APIRouter(prefix="/v1/namespaces", tags=["namespaces"], responses=error_responses(401, 422))
# The key itself, outside any namespace: what a client (the inspector) can reach with it.
key_router = APIRouter(prefix="/v1/key", tags=["namespaces"], responses=error_responses(401, 422))


@key_router.get("", responses=error_responses(404))
async def get_current_key(db: DbSession, principal: CurrentPrincipal) -> CurrentKey:
    """The key this request carries: admin, or the one namespace it is scoped to (404 once that namespace
    is deleted)."""
    return await service.current_key(db, principal)


@router.post("", status_code=201, responses=error_responses(403, 409, 413))
async def create_namespace(body: NamespaceCreate, db: DbSession, principal: CurrentPrincipal) -> NamespaceOut:
    """Create a namespace (admin)."""
    return await service.create(db, principal, body.name)


@router.get("", responses=error_responses(403))
async def list_namespaces(
    db: DbSession, principal: CurrentPrincipal, limit: Limit = 100, cursor: Cursor = None
) -> NamespaceList:
    """List live namespaces by name (admin)."""
    return await service.list_all(db, principal, limit, cursor)


@router.get("/{namespace}", responses=error_responses(404))
async def get_namespace(namespace: NamespacePath, db: DbSession, principal: CurrentPrincipal) -> NamespaceOut:
    """One namespace."""
    return NamespaceOut.model_validate(await service.resolve(db, principal, namespace))


@router.delete("/{namespace}", status_code=204, responses=error_responses(403, 404))
async def delete_namespace(
    namespace: NamespacePath, db: DbSession, principal: CurrentPrincipal, request: Request
) -> Response:
    """Soft-delete a namespace (an admin key, of the server or of the namespace): invisible at once, its name free again, its data purged in the background.

    Idempotent: deleting a namespace that is already deleted (or was never there) answers 204 as well."""
    await service.delete(db, principal, namespace)
    request.app.state.key_cache.forget()  # its keys die with it
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{namespace}/keys", status_code=201, responses=error_responses(404, 409, 413))
async def create_key(
    namespace: NamespacePath, body: KeyCreate, db: DbSession, principal: CurrentPrincipal, request: Request
) -> KeyCreated:
    """Create a key scoped to the namespace, with a scope there (read, write, or admin: the default); the
    secret is in the answer and nowhere else. Only an admin key, of the server or of the namespace, may. On
    a server running
    open without an admin key: 409 `admin_key_required` (make the admin key first:
    `agent-memory keys create --admin`), since the first key closes the server."""
    server_open: bool = request.app.state.open_mode.active
    return await service.create_key(
        db, principal, namespace, body.name, server_open=server_open, scope=body.scope
    )


@router.get("/{namespace}/keys", responses=error_responses(404))
async def list_keys(namespace: NamespacePath, db: DbSession, principal: CurrentPrincipal) -> KeyList:
    """List the namespace's keys, without secrets."""
    return KeyList(keys=await service.list_keys(db, principal, namespace))


@router.delete("/{namespace}/keys/{key_id}", status_code=204, responses=error_responses(404))
async def revoke_key(
    namespace: NamespacePath, key_id: str, db: DbSession, principal: CurrentPrincipal, request: Request
) -> Response:
    """Revoke a key: it is refused from the next request on. Idempotent: 204 for a key already revoked
    (or unknown)."""
    await service.revoke_key(db, principal, namespace, key_id)
    request.app.state.key_cache.forget(key_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
