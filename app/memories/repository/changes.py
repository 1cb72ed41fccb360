"""Changes to one memory that archive the state they end into `memory_versions`: archive, revive, edit,
delete, and the delete of a whole session with its memories."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.language.detect import search_config
from app.memories.repository.inserts import _LOCK_TOPICS_OF, _supersede
from app.memories.repository.records import _COLUMNS, MemoryRow, _supersedes
from app.sessions import repository as sessions_repository
from app.worker import queue

# The state a memory is leaving, copied into the archive; `deleted_at` is set when it leaves for good.
_ARCHIVE = text(
    """
    INSERT INTO memory_versions (profile_id, memory_id, version, change, type, summary, content, metadata,
                                 session_id, topic_key, event_time, created_at, valid_from, valid_to,
                                 superseded_by, deleted_at, speaker, speaker_role)
    SELECT profile_id, id, version, change, type, summary, content, metadata, session_id, topic_key,
           event_time, created_at, valid_from, coalesce(valid_to, now()), superseded_by,
           CASE WHEN :deleted THEN now() END, speaker, speaker_role
    FROM memories WHERE profile_id = :p AND id = :id
    ON CONFLICT DO NOTHING
    """
)


async def archive(db: AsyncSession, profile_id: int, memory_id: str, *, deleted: bool) -> None:
    await db.execute(_ARCHIVE, {"p": profile_id, "id": memory_id, "deleted": deleted})


async def revive(db: AsyncSession, profile_id: int, memory_id: str) -> None:
    """Make a superseded memory current again (remembered anew), superseding what replaced it."""
    await db.execute(_LOCK_TOPICS_OF, {"p": profile_id, "id": memory_id, "topic": None})
    await archive(db, profile_id, memory_id, deleted=False)
    topic = (
        await db.execute(
            text(
                "UPDATE memories SET superseded_by = NULL, updated_at = now(), valid_from = now(), "
                "valid_to = NULL, version = version + 1, change = 'restored' "
                "WHERE profile_id = :p AND id = :id RETURNING topic_key"
            ),
            {"p": profile_id, "id": memory_id},
        )
    ).scalar_one_or_none()
    if topic:
        await _supersede(db, profile_id, topic, memory_id)


_EDIT = text(
    f"""
    UPDATE memories SET type = :type, summary = :summary, content = :content, topic_key = :topic_key,
           language = CAST(CAST(:language AS text) AS regconfig), event_time = :event_time,
           content_hash = :content_hash, metadata = CAST(:metadata AS jsonb), updated_at = now(),
           valid_from = now(), version = version + 1, change = 'edited'
    WHERE profile_id = :p AND id = :id
    RETURNING {_COLUMNS}
    """
)


async def content_taken(db: AsyncSession, profile_id: int, memory_id: str, content_hash: str) -> str | None:
    """The id of another memory of the profile already holding this content, if any."""
    return (
        await db.execute(
            text("SELECT id FROM memories WHERE profile_id = :p AND content_hash = :h AND id <> :id"),
            {"p": profile_id, "h": content_hash, "id": memory_id},
        )
    ).scalar_one_or_none()


async def edit(
    db: AsyncSession,
    profile_id: int,
    memory_id: str,
    *,
    type: str,
    summary: str,
    content: str,
    topic_key: str | None,
    event_time: datetime | None,
    content_hash: str,
    metadata: dict[str, Any],
) -> MemoryRow:
    """Archive the current state, write the new one (version + 1) and let it supersede its topic."""
    await archive(db, profile_id, memory_id, deleted=False)
    row = (
        (
            await db.execute(
                _EDIT,
                {
                    "p": profile_id,
                    "id": memory_id,
                    "type": type,
                    "summary": summary,
                    "content": content,
                    "topic_key": topic_key,
                    "event_time": event_time,
                    "content_hash": content_hash,
                    "metadata": json.dumps(metadata),
                    "language": search_config(content),
                },
            )
        )
        .mappings()
        .one()
    )
    if _supersedes(topic_key, type):
        await _supersede(db, profile_id, topic_key, memory_id)
    return MemoryRow.of(row)


async def delete_memory(db: AsyncSession, profile_id: int, memory_id: str) -> None:
    """Delete the memory (its source messages are deleted by the caller, re-linking their children); its
    last state stays in the archive for its history."""
    await archive(db, profile_id, memory_id, deleted=True)
    await db.execute(
        text("DELETE FROM memories WHERE profile_id = :p AND id = :id"), {"p": profile_id, "id": memory_id}
    )


async def delete_session(db: AsyncSession, profile_id: int, session_id: str) -> bool:
    """Everything of one session: its memories and their tombstones, queued jobs, messages (sources cascade)
    and the session row. Whether the session or any memory of it was there."""
    params = {"p": profile_id, "sid": session_id}
    # The session row first, as every writer of a session takes it: deleting in another order deadlocks.
    await sessions_repository.lock_session(db, profile_id, session_id)
    memories = await db.execute(
        text("DELETE FROM memories WHERE profile_id = :p AND session_id = :sid"), params
    )
    # Its tombstones too: a deleted session leaves nothing of itself, and its id may be used afresh.
    await db.execute(
        text("DELETE FROM memory_tombstones WHERE profile_id = :p AND session_id = :sid"), params
    )
    await db.execute(
        text("DELETE FROM tombstone_messages WHERE profile_id = :p AND session_id = :sid"), params
    )
    await queue.drop_queued_for_session(db, profile_id, session_id)
    had_session = await sessions_repository.delete_session(db, profile_id, session_id)
    return had_session or bool(memories.rowcount)  # type: ignore[attr-defined]
