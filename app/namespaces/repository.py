"""SQL of namespaces (the API keys' is in `app.core.keys`, beside the auth that reads it)."""

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


async def get_live_by_id(db: AsyncSession, namespace_id: int) -> Namespace | None:
    stmt = select(Namespace).where(Namespace.id == namespace_id, Namespace.deleted_at.is_(None))
    return (await db.execute(stmt)).scalar_one_or_none()
