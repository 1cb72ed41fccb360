"""Rules of namespaces and keys: who may see which namespace, creation, soft deletion, key minting."""

from __future__ import annotations

from typing import cast

from sqlalchemy.ext.asyncio import AsyncSession

from app.core import keys
from app.core.auth import Principal, mint_key
from app.core.errors import Conflict, NotFound
from app.core.pagination import decode_cursor, encode_cursor
from app.core.scopes import DEFAULT_SCOPE, Scope
from app.core.settings import Settings
from app.models import ApiKey, Namespace
from app.namespaces import repository
from app.namespaces.schemas import CurrentKey, KeyCreated, KeyOut, NamespaceList, NamespaceOut
from app.worker import queue


class NamespaceNotFound(NotFound, code="namespace_not_found"): ...


class NamespaceExists(Conflict, code="namespace_exists"): ...


class KeyNotFound(NotFound, code="key_not_found"): ...


class AdminKeyRequired(Conflict, code="admin_key_required"):
    """A namespace key asked for while no admin key exists: made, it would close the server (`keys.starts_open`
    turns false with any key) and leave nobody able to reach the rest of it."""

    title = "Admin key required"


# How an operator gets the first admin key: only the CLI (or AGENT_MEMORY_ADMIN_KEY) makes one, no route does.
ADMIN_KEY_HINT = (
    "create the admin key first with `agent-memory keys create --admin` (run where the server runs, with its "
    "settings; or set AGENT_MEMORY_ADMIN_KEY), then create namespace keys with it"
)
FIRST_KEY_REFUSED = (
    "a namespace key cannot be the first key: this server runs open (no admin key), and a namespace key would "
    "close it (every request then needs a key, at once and after a restart) with no admin key to get back in; "
    + ADMIN_KEY_HINT
)


async def resolve(db: AsyncSession, principal: Principal, name: str) -> Namespace:
    """The live namespace the principal may use; another namespace's key sees 404, never its data."""
    namespace = await repository.get_live(db, name)
    if namespace is None or (not principal.is_admin and principal.namespace_id != namespace.id):
        raise NamespaceNotFound(f"namespace '{name}' not found")
    return namespace


async def create(db: AsyncSession, principal: Principal, name: str) -> NamespaceOut:
    principal.require_admin()
    namespace = await repository.insert_namespace(db, name)
    if namespace is None:
        raise NamespaceExists(f"namespace '{name}' already exists")
    return NamespaceOut.model_validate(namespace)


async def list_all(db: AsyncSession, principal: Principal, limit: int, cursor: str | None) -> NamespaceList:
    principal.require_admin()
    after = str(decode_cursor(cursor, 1)[0]) if cursor else None
    rows = await repository.list_live(db, after, limit + 1)
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1].name) if len(rows) > limit else None
    return NamespaceList(namespaces=[NamespaceOut.model_validate(r) for r in page], cursor=next_cursor)


async def delete(db: AsyncSession, principal: Principal, name: str) -> None:
    # Another namespace's key gets the 404 every other route gives it; the namespace's own admin key (the
    # route checked its scope, app.core.scopes) may delete it.
    if not principal.is_admin:
        await resolve(db, principal, name)
    namespace = await repository.get_live(db, name)
    if namespace is None:
        return  # deleted already (or never there): deletes are idempotent, a repeat answers as the first
    profile_ids = await repository.soft_delete(db, namespace.id)
    await keys.announce(db, keys.EVERY_KEY)  # its keys die with it, in every API process
    # Queued here, not from events: a deleted namespace has no feed left to say it (a deleted profile's
    # purge is queued from its `profile.deleted` event, app.profiles.purge_job).
    for profile_id in profile_ids:
        await queue.enqueue_purge_profile(db, profile_id)


def _key_out(key: ApiKey, namespace: str | None) -> KeyOut:
    return KeyOut(
        id=key.id,
        name=key.name,
        namespace=namespace,
        scope=cast(Scope, key.scope),
        created_at=key.created_at,
        revoked_at=key.revoked_at,
    )


async def create_key(
    db: AsyncSession,
    principal: Principal,
    name: str,
    key_name: str,
    *,
    server_open: bool,
    scope: Scope = DEFAULT_SCOPE,
) -> KeyCreated:
    """A key scoped to the namespace; refused while the server runs open without an admin key
    (`server_open`: the request's process serves open)."""
    namespace = await resolve(db, principal, name)
    if server_open and not await keys.has_admin_key(db):
        raise AdminKeyRequired(FIRST_KEY_REFUSED)
    minted = mint_key()
    key = await keys.insert_key(db, minted.key_id, key_name, namespace.id, minted.secret_sha256, scope)
    return KeyCreated(**_key_out(key, namespace.name).model_dump(), key=minted.token)


async def list_keys(db: AsyncSession, principal: Principal, name: str) -> list[KeyOut]:
    namespace = await resolve(db, principal, name)
    return [_key_out(k, namespace.name) for k in await keys.list_keys(db, namespace.id)]


async def revoke_key(db: AsyncSession, principal: Principal, name: str, key_id: str) -> None:
    namespace = await resolve(db, principal, name)
    # Idempotent: revoking a revoked (or unknown) key answers as revoking it did.
    await keys.revoke_key(db, namespace.id, key_id)


async def create_admin_key(db: AsyncSession, key_name: str) -> str:
    minted = mint_key()
    await keys.insert_key(db, minted.key_id, key_name, None, minted.secret_sha256)
    return minted.token


async def create_scoped_key(db: AsyncSession, settings: Settings, namespace_name: str, key_name: str) -> str:
    """A namespace key for the operator's CLI; refused as the first key of a server that would start open."""
    namespace = await repository.get_live(db, namespace_name)
    if namespace is None:
        raise NamespaceNotFound(f"namespace '{namespace_name}' not found")
    if await keys.starts_open(db, settings):
        raise AdminKeyRequired(FIRST_KEY_REFUSED)
    minted = mint_key()
    await keys.insert_key(db, minted.key_id, key_name, namespace.id, minted.secret_sha256)
    return minted.token


async def list_all_keys(db: AsyncSession, namespace_name: str | None = None) -> list[KeyOut]:
    """Keys for the operator's CLI: all of them, or one namespace's (no secrets)."""
    namespace_id = None
    if namespace_name is not None:
        namespace = await repository.get_live(db, namespace_name)
        if namespace is None:
            raise NamespaceNotFound(f"namespace '{namespace_name}' not found")
        namespace_id = namespace.id
    return [_key_out(key, name) for key, name in await keys.list_all_keys(db, namespace_id)]


async def revoke_any_key(db: AsyncSession, key_id: str) -> KeyOut:
    """Revoke any key by id (the operator's CLI); idempotent, 404-style error for an unknown id."""
    key = await keys.revoke_any_key(db, key_id)
    if key is None:
        raise KeyNotFound(f"key '{key_id}' not found")
    return _key_out(key, None)


async def implied_name(db: AsyncSession, principal: Principal) -> str | None:
    """The namespace a scoped key implies (None for an admin key, which must name one)."""
    if principal.namespace_id is None:
        return None
    namespace = await repository.get_live_by_id(db, principal.namespace_id)
    if namespace is None:
        raise NamespaceNotFound("the key's namespace was deleted")
    return namespace.name


async def current_key(db: AsyncSession, principal: Principal) -> CurrentKey:
    return CurrentKey(
        key_id=principal.key_id,
        admin=principal.is_admin,
        namespace=await implied_name(db, principal),
        scope=principal.scope,
    )
