"""SQL of the `api_keys` table: looking a key up (auth), minting, listing and revoking keys (namespaces).

It lives in `core`, beside `core.auth`, because authentication reads it on every request and `core` imports
no domain package; the namespaces service writes keys through it too, so the table has one repository.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.scopes import DEFAULT_SCOPE
from app.core.settings import Settings
from app.models import ApiKey, Namespace

# Every API process LISTENs here (core.auth.KeyChangeListener) and drops what it cached of a key named in a
# notification; "*" drops everything (a namespace's keys died with it), "admin" says an admin key exists.
KEYS_CHANNEL = "agent_memory_keys"
EVERY_KEY = "*"
ADMIN_KEY_EXISTS = "admin"

_ANNOUNCE = text("SELECT pg_notify(:channel, :payload)")


async def announce(db: AsyncSession, payload: str) -> None:
    """Tell every API process, at commit, that a key changed (its id), that many did (`EVERY_KEY`) or that
    an admin key now exists (`ADMIN_KEY_EXISTS`)."""
    await db.execute(_ANNOUNCE, {"channel": KEYS_CHANNEL, "payload": payload})


@dataclass(frozen=True)
class KeyLookup:
    """What auth needs of a key: its secret's hash, its scope, and whether it (or its namespace) is gone."""

    secret_sha256: bytes
    namespace_id: int | None
    scope: str
    revoked_at: datetime | None
    namespace_deleted_at: datetime | None

    @property
    def live(self) -> bool:
        return self.revoked_at is None and self.namespace_deleted_at is None


async def lookup(db: AsyncSession, key_id: str) -> KeyLookup | None:
    """One key with its namespace's deletion time (None for an admin key's), or None if no such key."""
    stmt = (
        select(
            ApiKey.secret_sha256, ApiKey.namespace_id, ApiKey.scope, ApiKey.revoked_at, Namespace.deleted_at
        )
        .outerjoin(Namespace, Namespace.id == ApiKey.namespace_id)
        .where(ApiKey.id == key_id)
    )
    row = (await db.execute(stmt)).one_or_none()
    if row is None:
        return None
    return KeyLookup(
        secret_sha256=row.secret_sha256,
        namespace_id=row.namespace_id,
        scope=row.scope,
        revoked_at=row.revoked_at,
        namespace_deleted_at=row.deleted_at,
    )


async def insert_key(
    db: AsyncSession,
    key_id: str,
    name: str,
    namespace_id: int | None,
    secret_sha256: bytes,
    scope: str = DEFAULT_SCOPE,
) -> ApiKey:
    stmt = (
        insert(ApiKey)
        .values(id=key_id, name=name, namespace_id=namespace_id, secret_sha256=secret_sha256, scope=scope)
        .returning(ApiKey)
    )
    key = (await db.execute(stmt)).scalar_one()
    # Every process forgets it as an unknown id (one may have been asked for it before it existed).
    await announce(db, key_id)
    if namespace_id is None:
        await announce(db, ADMIN_KEY_EXISTS)
    return key


async def list_keys(db: AsyncSession, namespace_id: int) -> list[ApiKey]:
    stmt = select(ApiKey).where(ApiKey.namespace_id == namespace_id).order_by(ApiKey.created_at, ApiKey.id)
    return list((await db.execute(stmt)).scalars())


async def revoke_key(db: AsyncSession, namespace_id: int, key_id: str) -> bool:
    stmt = (
        update(ApiKey)
        .where(ApiKey.id == key_id, ApiKey.namespace_id == namespace_id)
        .values(revoked_at=func.coalesce(ApiKey.revoked_at, func.now()))
        .returning(ApiKey.id)
    )
    revoked = (await db.execute(stmt)).scalar_one_or_none() is not None
    if revoked:
        await announce(db, key_id)
    return revoked


async def has_admin_key(db: AsyncSession) -> bool:
    stmt = select(ApiKey.id).where(ApiKey.namespace_id.is_(None), ApiKey.revoked_at.is_(None)).limit(1)
    return (await db.execute(stmt)).scalar_one_or_none() is not None


async def has_any_key(db: AsyncSession) -> bool:
    """Whether any key was ever made (revoked ones included): a server that had keys never runs open again."""
    return (await db.execute(select(ApiKey.id).limit(1))).scalar_one_or_none() is not None


async def starts_open(db: AsyncSession, settings: Settings) -> bool:
    """Whether a server starting now runs open: no AGENT_MEMORY_ADMIN_KEY and no key ever made, of any kind
    (revoking the last admin key must not reopen a server that had keys)."""
    return settings.admin_key is None and not await has_any_key(db)


async def list_all_keys(db: AsyncSession, namespace_id: int | None = None) -> list[tuple[ApiKey, str | None]]:
    """Every key (admin keys first), or one namespace's, each with its namespace's name (None: admin)."""
    stmt = (
        select(ApiKey, Namespace.name)
        .outerjoin(Namespace, Namespace.id == ApiKey.namespace_id)
        .order_by(ApiKey.namespace_id.is_not(None), Namespace.name, ApiKey.created_at, ApiKey.id)
    )
    if namespace_id is not None:
        stmt = stmt.where(ApiKey.namespace_id == namespace_id)
    return [(key, name) for key, name in (await db.execute(stmt)).all()]


async def revoke_any_key(db: AsyncSession, key_id: str) -> ApiKey | None:
    """Revoke a key of any namespace, or an admin key; revoking a revoked key keeps its first time."""
    stmt = (
        update(ApiKey)
        .where(ApiKey.id == key_id)
        .values(revoked_at=func.coalesce(ApiKey.revoked_at, func.now()))
        .returning(ApiKey)
    )
    key = (await db.execute(stmt)).scalar_one_or_none()
    if key is not None:
        await announce(db, key_id)
    return key
