"""Tombstones: what a forgotten memory leaves so that extraction does not bring it back (its content
fingerprint and source messages), their lifting and listing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

# ---------------------------------------------------------------- tombstones
# What a deleted memory leaves: its content fingerprint and its source messages' identities, no text. The
# inserts of memories above skip a content a tombstone holds; ingest skips a message a tombstone deleted.


@dataclass(frozen=True)
class TombstoneRow:
    id: str
    type: str
    session_id: str | None
    content_hash: str
    created_at: datetime
    message_ids: list[str]
    kept_message_ids: list[str]


_TOMBSTONE = text(
    """
    INSERT INTO memory_tombstones (profile_id, id, content_hash, session_id, type)
    SELECT profile_id, id, content_hash, session_id, type FROM memories WHERE profile_id = :p AND id = :id
    ON CONFLICT DO NOTHING
    """
)
_TOMBSTONE_MESSAGES = text(
    """
    INSERT INTO tombstone_messages (profile_id, tombstone_id, session_id, message_id, deleted)
    SELECT :p, :id, s.session_id, s.message_id, s.deleted
    FROM unnest(CAST(:sessions AS text[]), CAST(:messages AS text[]), CAST(:deleted AS boolean[]))
         AS s(session_id, message_id, deleted)
    ON CONFLICT DO NOTHING
    """
)


async def tombstone(
    db: AsyncSession, profile_id: int, memory_id: str, sources: list[tuple[str, str, bool]]
) -> None:
    """Leave the tombstone of a memory about to be deleted: its content fingerprint, and each source
    (session id, message id, whether it is deleted with the memory)."""
    await db.execute(_TOMBSTONE, {"p": profile_id, "id": memory_id})
    if sources:
        await db.execute(
            _TOMBSTONE_MESSAGES,
            {
                "p": profile_id,
                "id": memory_id,
                "sessions": [sid for sid, _, _ in sources],
                "messages": [mid for _, mid, _ in sources],
                "deleted": [deleted for _, _, deleted in sources],
            },
        )


async def tombstone_of(db: AsyncSession, profile_id: int, content_hash: str) -> str | None:
    """The id of a tombstone holding this content fingerprint, if the profile forgot it."""
    found = await db.execute(
        text(
            "SELECT id FROM memory_tombstones WHERE profile_id = :p AND content_hash = :h "
            "ORDER BY id DESC LIMIT 1"
        ),
        {"p": profile_id, "h": content_hash},
    )
    return found.scalar_one_or_none()


async def lift_tombstone(db: AsyncSession, profile_id: int, tombstone_id: str) -> bool:
    """Remove a tombstone (its messages cascade); whether there was one."""
    result = await db.execute(
        text("DELETE FROM memory_tombstones WHERE profile_id = :p AND id = :id RETURNING id"),
        {"p": profile_id, "id": tombstone_id},
    )
    return result.scalar_one_or_none() is not None


async def lift_tombstones_of(db: AsyncSession, profile_id: int, content_hash: str) -> list[str]:
    """Remove every tombstone holding this content fingerprint; their ids."""
    result = await db.execute(
        text("DELETE FROM memory_tombstones WHERE profile_id = :p AND content_hash = :h RETURNING id"),
        {"p": profile_id, "h": content_hash},
    )
    return list(result.scalars())


async def list_tombstones(
    db: AsyncSession, profile_id: int, *, before_id: str | None, limit: int
) -> list[TombstoneRow]:
    """The profile's tombstones, newest first (keyset on id), each with its messages."""
    rows = await db.execute(
        text(
            """
            SELECT t.id, t.type, t.session_id, t.content_hash, t.created_at,
                   coalesce(array_agg(m.message_id ORDER BY m.message_id) FILTER (WHERE m.deleted), '{}')
                       AS message_ids,
                   coalesce(array_agg(m.message_id ORDER BY m.message_id) FILTER (WHERE NOT m.deleted), '{}')
                       AS kept_message_ids
            FROM memory_tombstones t
            LEFT JOIN tombstone_messages m ON m.profile_id = t.profile_id AND m.tombstone_id = t.id
            WHERE t.profile_id = :p AND (CAST(:before AS text) IS NULL OR t.id < :before)
            GROUP BY t.profile_id, t.id
            ORDER BY t.id DESC
            LIMIT :n
            """
        ),
        {"p": profile_id, "before": before_id, "n": limit},
    )
    return [TombstoneRow(**r) for r in rows.mappings()]


async def kept_sources_of_deleted(db: AsyncSession, profile_id: int, memory_id: str) -> list[str]:
    """The source messages a deleted memory left in place because another memory cited them (while its
    tombstone stands)."""
    rows = await db.execute(
        text(
            "SELECT message_id FROM tombstone_messages WHERE profile_id = :p AND tombstone_id = :id "
            "AND NOT deleted ORDER BY message_id"
        ),
        {"p": profile_id, "id": memory_id},
    )
    return list(rows.scalars())
