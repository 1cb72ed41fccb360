"""SQL of namespaces and API keys."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import ApiKey, Namespace, Profile


async def insert_namespace(db: AsyncSession, name: str) -> Namespace | None:
    """Insert a live namespace; None when a live one already has the name."""
    stmt = (
        insert(Namespace)
        .values(name=name)
        .on_conflict_do_nothing(index_elements=["name"], index_where=Namespace.deleted_at.is_(None))
        .returning(Namespace)
    )
    return (await db.execute(stmt)).scalar_one_or_none()


async def get_live(db: AsyncSession, name: str) -> Namespace | None:
    stmt = select(Namespace).where(Namespace.name == name, Namespace.deleted_at.is_(None))
    return (await db.execute(stmt)).scalar_one_or_none()


async def list_live(db: AsyncSession, after: str | None, limit: int) -> list[Namespace]:
    stmt = select(Namespace).where(Namespace.deleted_at.is_(None)).order_by(Namespace.name).limit(limit)
    if after is not None:
        stmt = stmt.where(Namespace.name > after)
    return list((await db.execute(stmt)).scalars())


async def soft_delete(db: AsyncSession, namespace_id: int) -> list[int]:
    """Mark the namespace and its live profiles deleted; returns the profile ids to purge."""
    await db.execute(update(Namespace).where(Namespace.id == namespace_id).values(deleted_at=func.now()))
    rows = await db.execute(
        update(Profile)
        .where(Profile.namespace_id == namespace_id, Profile.deleted_at.is_(None))
        .values(deleted_at=func.now())
        .returning(Profile.id)
    )
    await db.execute(
        update(ApiKey)
        .where(ApiKey.namespace_id == namespace_id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=func.now())
    )
    return list(rows.scalars())


async def insert_key(
    db: AsyncSession, key_id: str, name: str, namespace_id: int | None, secret_sha256: bytes
) -> ApiKey:
    stmt = (
        insert(ApiKey)
        .values(id=key_id, name=name, namespace_id=namespace_id, secret_sha256=secret_sha256)
        .returning(ApiKey)
    )
    return (await db.execute(stmt)).scalar_one()


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
    return (await db.execute(stmt)).scalar_one_or_none() is not None


async def has_admin_key(db: AsyncSession) -> bool:
    stmt = select(ApiKey.id).where(ApiKey.namespace_id.is_(None), ApiKey.revoked_at.is_(None)).limit(1)
    return (await db.execute(stmt)).scalar_one_or_none() is not None


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
    return (await db.execute(stmt)).scalar_one_or_none()


async def get_live_by_id(db: AsyncSession, namespace_id: int) -> Namespace | None:
    stmt = select(Namespace).where(Namespace.id == namespace_id, Namespace.deleted_at.is_(None))
    return (await db.execute(stmt)).scalar_one_or_none()
