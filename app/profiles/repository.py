"""SQL of profiles: get-or-create under concurrency, listing, counts, soft deletion."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.core.db import Reads, driver_fetch
from app.models import Profile


async def get_live(db: AsyncSession, namespace_id: int, name: str) -> Profile | None:
    stmt = select(Profile).where(
        Profile.namespace_id == namespace_id, Profile.name == name, Profile.deleted_at.is_(None)
    )
    return (await db.execute(stmt)).scalar_one_or_none()


# The hot path of every per-profile request, as plain SQL sent on the driver's connection: an ORM select
# costs more to compile and load (cache key, column processing) than the round trip itself, and even a
# `text()` statement goes through SQLAlchemy's execution and result layers (greenlet hops included).
def _find_sql(columns: str, scoped: bool = False) -> str:
    scope = " AND (CAST(:scope AS bigint) IS NULL OR n.id = :scope)" if scoped else ""
    return f"""
    SELECT n.id AS namespace_id, {columns}
    FROM namespaces n
    LEFT JOIN profiles p ON p.namespace_id = n.id AND p.name = :name AND p.deleted_at IS NULL
    WHERE n.name = :namespace AND n.deleted_at IS NULL{scope}
"""


_FIND_WITH_NAMESPACE = _find_sql("p.id, p.name, p.created_at")

# The same look-up as a CTE `target` (namespace_id, id) for a statement that resolves the profile itself,
# one round trip fewer (recall's first statement): parameters `:namespace`, `:name` and `:scope`, the only
# namespace id the caller may use (NULL: any), so a key never reads another namespace's rows even inside
# the statement that finds out it may not.
TARGET_CTE = f"target AS ({_find_sql('p.id', scoped=True)})"


async def find_with_namespace(db: Reads, namespace: str, name: str) -> tuple[int | None, Profile | None]:
    """The live namespace's id and its live profile of that name, in one round trip (hot path of every
    per-profile request). The profile is a detached row object: callers read it, never change it.

    A read at READ COMMITTED: sent before the request's transaction has begun (its BEGIN goes with its
    first SQLAlchemy statement) it runs on its own, which sees what the transaction's first statement
    would have seen."""
    rows = await driver_fetch(db, _FIND_WITH_NAMESPACE, {"namespace": namespace, "name": name})
    if not rows:
        return None, None
    row = rows[0]
    if row["id"] is None:
        return row["namespace_id"], None
    return row["namespace_id"], Profile(
        id=row["id"], namespace_id=row["namespace_id"], name=row["name"], created_at=row["created_at"]
    )


async def get_or_create(
    db: AsyncSession, namespace_id: int, name: str, *, created_at: datetime | None = None
) -> tuple[Profile, bool]:
    """The live profile with this name, inserting it if absent; safe under concurrent callers.
    `created_at`: a new row's creation time (an import keeps the exported one); else now."""
    existing = await get_live(db, namespace_id, name)
    if existing is not None:
        return existing, False
    stmt = (
        insert(Profile)
        .values(
            namespace_id=namespace_id, name=name, **({} if created_at is None else {"created_at": created_at})
        )
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


# Profiles read per round trip while an export streams a namespace.
LIVE_BATCH = 500


async def live_in_namespace(
    conn: AsyncConnection, namespace_id: int, only: str | None
) -> AsyncIterator[tuple[int, str, datetime]]:
    """The namespace's live profiles (or only the one named): (id, name, created_at) by id, in keyset
    batches, on a connection an export streams from."""
    last = 0
    while True:
        stmt = select(Profile.id, Profile.name, Profile.created_at).where(
            Profile.namespace_id == namespace_id, Profile.deleted_at.is_(None), Profile.id > last
        )
        if only is not None:
            stmt = stmt.where(Profile.name == only)
        rows = (await conn.execute(stmt.order_by(Profile.id).limit(LIVE_BATCH))).all()
        for row in rows:
            yield row.id, row.name, row.created_at
        if len(rows) < LIVE_BATCH:
            return
        last = rows[-1].id


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


@dataclass(frozen=True)
class ProfileTotals:
    """A profile's counts: active memories per type (types without any left out), messages, sessions, and
    jobs queued or running."""

    memories_by_type: dict[str, int]
    messages: int
    sessions: int
    pending_jobs: int


# One statement over the four tables (a profile page is one round trip); each count is narrowed to the
# profile by its leading `profile_id` index column.
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


async def counts(db: AsyncSession, profile_id: int) -> ProfileTotals:
    row = (await db.execute(_COUNTS, {"p": profile_id})).one()
    return ProfileTotals(
        memories_by_type={str(k): int(v) for k, v in dict(row.memories).items()},
        messages=int(row.messages),
        sessions=int(row.sessions),
        pending_jobs=int(row.pending_jobs),
    )


PURGE_BATCH = 5000

# A deleted profile's rows, children first and in batches, so purging a huge profile never holds one
# giant transaction.
_PURGE_STEPS = (
    text(
        "DELETE FROM memory_sources WHERE ctid IN "
        "(SELECT ctid FROM memory_sources WHERE profile_id = :p LIMIT :n)"
    ),
    text("DELETE FROM memories WHERE ctid IN (SELECT ctid FROM memories WHERE profile_id = :p LIMIT :n)"),
    text("DELETE FROM messages WHERE ctid IN (SELECT ctid FROM messages WHERE profile_id = :p LIMIT :n)"),
    text(
        "DELETE FROM tombstone_messages WHERE ctid IN "
        "(SELECT ctid FROM tombstone_messages WHERE profile_id = :p LIMIT :n)"
    ),
    text(
        "DELETE FROM memory_tombstones WHERE ctid IN "
        "(SELECT ctid FROM memory_tombstones WHERE profile_id = :p LIMIT :n)"
    ),
)
PURGE_STEP_COUNT = len(_PURGE_STEPS)


async def purge_batch(db: AsyncSession, profile_id: int, step: int) -> int:
    """Delete up to PURGE_BATCH rows of purge step `step`; the number deleted (< PURGE_BATCH: step done)."""
    result = await db.execute(_PURGE_STEPS[step], {"p": profile_id, "n": PURGE_BATCH})
    return int(getattr(result, "rowcount", 0))


async def purge_profile_row(db: AsyncSession, profile_id: int, keep_kind: str) -> None:
    """The profile row last: its foreign keys cascade whatever small per-profile rows remain. Its
    finished and queued jobs go too, except the running purge (`keep_kind`) itself."""
    await db.execute(
        text(
            "DELETE FROM jobs WHERE profile_id = :p AND status IN ('queued', 'failed', 'done') "
            "AND kind <> :kind"
        ),
        {"p": profile_id, "kind": keep_kind},
    )
    await db.execute(text("DELETE FROM profiles WHERE id = :p AND deleted_at IS NOT NULL"), {"p": profile_id})


async def get_live_by_id(db: AsyncSession, profile_id: int) -> Profile | None:
    """A live profile by id (jobs know their profile by id only)."""
    stmt = select(Profile).where(Profile.id == profile_id, Profile.deleted_at.is_(None))
    return (await db.execute(stmt)).scalar_one_or_none()
