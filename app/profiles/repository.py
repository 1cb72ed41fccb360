"""SQL of profiles: get-or-create under concurrency, listing, counts, soft deletion."""

from __future__ import annotations

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Namespace, Profile


async def get_live(db: AsyncSession, namespace_id: int, name: str) -> Profile | None:
    stmt = select(Profile).where(
        Profile.namespace_id == namespace_id, Profile.name == name, Profile.deleted_at.is_(None)
    )
    return (await db.execute(stmt)).scalar_one_or_none()


async def find_with_namespace(
    db: AsyncSession, namespace: str, name: str
) -> tuple[int | None, Profile | None]:
    """The live namespace's id and its live profile of that name, in one round trip (hot path of every
    per-profile request)."""
    row = (
        await db.execute(
            select(Namespace.id, Profile)
            .outerjoin(
                Profile,
                (Profile.namespace_id == Namespace.id)
                & (Profile.name == name)
                & Profile.deleted_at.is_(None),
            )
            .where(Namespace.name == namespace, Namespace.deleted_at.is_(None))
        )
    ).one_or_none()
    if row is None:
        return None, None
    return row[0], row[1]


async def get_or_create(db: AsyncSession, namespace_id: int, name: str) -> tuple[Profile, bool]:
    """The live profile with this name, inserting it if absent; safe under concurrent callers."""
    existing = await get_live(db, namespace_id, name)
    if existing is not None:
        return existing, False
    stmt = (
        insert(Profile)
        .values(namespace_id=namespace_id, name=name)
        .on_conflict_do_nothing(
            index_elements=["namespace_id", "name"], index_where=Profile.deleted_at.is_(None)
        )
        .returning(Profile)
    )
    created = (await db.execute(stmt)).scalar_one_or_none()
    if created is not None:
        return created, True
    # Lost the race: the winner's row is committed (ON CONFLICT waited for it), so it is visible now.
    winner = await get_live(db, namespace_id, name)
    assert winner is not None
    return winner, False


async def list_live(db: AsyncSession, namespace_id: int, after: str | None, limit: int) -> list[Profile]:
    stmt = (
        select(Profile)
        .where(Profile.namespace_id == namespace_id, Profile.deleted_at.is_(None))
        .order_by(Profile.name)
        .limit(limit)
    )
    if after is not None:
        stmt = stmt.where(Profile.name > after)
    return list((await db.execute(stmt)).scalars())


async def soft_delete(db: AsyncSession, profile_id: int) -> None:
    await db.execute(update(Profile).where(Profile.id == profile_id).values(deleted_at=func.now()))


_COUNTS = text(
    """
    SELECT
      (SELECT coalesce(jsonb_object_agg(type, n), '{}'::jsonb) FROM (
          SELECT type, count(*) AS n FROM memories
          WHERE profile_id = :p AND superseded_by IS NULL GROUP BY type) t) AS memories,
      (SELECT count(*) FROM messages WHERE profile_id = :p) AS messages,
      (SELECT count(*) FROM sessions WHERE profile_id = :p) AS sessions,
      (SELECT count(*) FROM jobs WHERE profile_id = :p AND status IN ('queued', 'running')) AS pending_jobs
    """
)


async def counts(db: AsyncSession, profile_id: int) -> dict[str, object]:
    row = (await db.execute(_COUNTS, {"p": profile_id})).mappings().one()
    return dict(row)
