"""SQL of ingest: session upsert, bulk message insert (idempotent on message identity). Its jobs' SQL is
the worker's (app.worker.queue)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

_UPSERT_SESSION = text(
    """
    INSERT INTO sessions (profile_id, id, name) VALUES (:p, :sid, :name)
    ON CONFLICT (profile_id, id) DO UPDATE SET updated_at = now()
    """
)
_LAST_MESSAGE = text(
    "SELECT id FROM messages WHERE profile_id = :p AND session_id = :sid ORDER BY seq DESC LIMIT 1"
)
# One statement for the whole batch; WITH ORDINALITY keeps the batch order in `seq`.
_INSERT_MESSAGES = text(
    """
    INSERT INTO messages (profile_id, id, session_id, parent_id, role, parts, text_content, created_at, metadata)
    SELECT :p, m.id, :sid, m.parent_id, m.role,
           jsonb_build_array(jsonb_build_object('type', 'text', 'text', m.content)), m.content, m.created_at,
           CAST(m.metadata AS jsonb)
    FROM unnest(CAST(:ids AS text[]), CAST(:parents AS text[]), CAST(:roles AS text[]),
                CAST(:contents AS text[]), CAST(:times AS timestamptz[]), CAST(:metadata AS text[]))
         WITH ORDINALITY AS m(id, parent_id, role, content, created_at, metadata, ord)
    ORDER BY m.ord
    ON CONFLICT (profile_id, session_id, id) DO NOTHING
    RETURNING id
    """
)


async def upsert_session(db: AsyncSession, profile_id: int, session_id: str) -> None:
    await db.execute(_UPSERT_SESSION, {"p": profile_id, "sid": session_id, "name": session_id})


async def last_message_id(db: AsyncSession, profile_id: int, session_id: str) -> str | None:
    return (await db.execute(_LAST_MESSAGE, {"p": profile_id, "sid": session_id})).scalar_one_or_none()


async def insert_messages(
    db: AsyncSession,
    profile_id: int,
    session_id: str,
    ids: list[str],
    parents: list[str | None],
    roles: list[str],
    contents: list[str],
    times: list[datetime],
    metadata: list[str | None] | None = None,
) -> set[str]:
    """Insert the messages not stored yet; returns the ids actually inserted."""
    rows = await db.execute(
        _INSERT_MESSAGES,
        {
            "p": profile_id,
            "sid": session_id,
            "ids": ids,
            "parents": parents,
            "roles": roles,
            "contents": contents,
            "times": times,
            "metadata": metadata if metadata is not None else [None] * len(ids),
        },
    )
    return set(rows.scalars())
