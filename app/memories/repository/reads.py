"""Reads of memories: one memory (current, active, deleted or as of an instant), its sources and history,
the filtered keyset lists (current or as of an instant), and the source keys a delete weighs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.metadata import filter_sql
from app.memories.repository.inserts import _LOCK_TOPICS_OF
from app.memories.repository.records import (
    _COLUMNS,
    EditableMemory,
    ListedMemory,
    MemoryRow,
    MemoryState,
    SourceMessage,
)


async def _one_memory(db: AsyncSession, sql: str, params: dict[str, Any]) -> MemoryRow | None:
    found = (await db.execute(text(sql), params)).mappings().one_or_none()
    return MemoryRow.of(found) if found else None


async def get_by_hash(db: AsyncSession, profile_id: int, content_hash: str) -> MemoryRow | None:
    sql = f"SELECT {_COLUMNS} FROM memories WHERE profile_id = :p AND content_hash = :h"
    return await _one_memory(db, sql, {"p": profile_id, "h": content_hash})


async def get(db: AsyncSession, profile_id: int, memory_id: str) -> MemoryRow | None:
    """The memory's current state, superseded or not (None when absent or deleted)."""
    return await _one_memory(db, _GET, {"p": profile_id, "id": memory_id})


async def get_for_edit(
    db: AsyncSession, profile_id: int, memory_id: str, new_topic_key: str | None
) -> EditableMemory | None:
    """`get`, the row locked for an edit that may move the memory to `new_topic_key`; the locks of both
    topics are taken first."""
    await db.execute(_LOCK_TOPICS_OF, {"p": profile_id, "id": memory_id, "topic": new_topic_key})
    row = await db.execute(text(_GET + " FOR UPDATE"), {"p": profile_id, "id": memory_id})
    found = row.mappings().one_or_none()
    return EditableMemory.of(found) if found else None


_GET = f"SELECT {_COLUMNS}, topic_key FROM memories WHERE profile_id = :p AND id = :id"


async def get_active(db: AsyncSession, profile_id: int, memory_id: str) -> MemoryRow | None:
    sql = f"SELECT {_COLUMNS} FROM memories WHERE profile_id = :p AND id = :id AND superseded_by IS NULL"
    return await _one_memory(db, sql, {"p": profile_id, "id": memory_id})


async def deleted_state(db: AsyncSession, profile_id: int, memory_id: str) -> MemoryRow | None:
    """The state a memory had when `DELETE /memories/{id}` removed it (its archived last version), so a
    repeated delete can answer as the first did; None if it was never deleted that way."""
    row = await db.execute(
        text(
            "SELECT memory_id AS id, type, summary, content, session_id, event_time, created_at, "
            "valid_from AS updated_at, metadata, superseded_by, version, valid_from, valid_to, speaker, "
            "speaker_role FROM memory_versions WHERE profile_id = :p AND memory_id = :id AND deleted_at IS NOT NULL "
            "ORDER BY version DESC LIMIT 1"
        ),
        {"p": profile_id, "id": memory_id},
    )
    found = row.mappings().one_or_none()
    return MemoryRow.of(found) if found else None


async def sources(db: AsyncSession, profile_id: int, memory_id: str) -> list[SourceMessage]:
    rows = await db.execute(
        text(
            """
            SELECT m.id AS message_id, m.role, m.text_content AS content, m.created_at AS timestamp
            FROM memory_sources s
            JOIN messages m ON m.profile_id = s.profile_id AND m.session_id = s.session_id AND m.id = s.message_id
            WHERE s.profile_id = :p AND s.memory_id = :id
            ORDER BY m.created_at, m.seq
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return [SourceMessage(**r) for r in rows.mappings()]


_LISTED = (
    "id, type, summary, session_id, event_time, created_at, updated_at, metadata, superseded_by, version, "
    "valid_from, valid_to, speaker, speaker_role"
)


def _list_filters(
    params: dict[str, Any],
    before_id: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None,
    contains: str | None = None,
) -> list[str]:
    """The list's optional filters as SQL conditions (their values put in `params`): a page's keyset
    start, one session, one type, metadata keys, a text its summary or content contains."""
    clauses: list[str] = []
    if before_id is not None:
        clauses.append("id < :before")
        params["before"] = before_id
    if session_id is not None:
        clauses.append("session_id = :sid")
        params["sid"] = session_id
    if memory_type is not None:
        clauses.append("type = :type")
        params["type"] = memory_type
    if metadata:
        clauses.append(filter_sql("metadata", metadata, params))
    if contains:
        # A substring, case folded by the database's lower() (every script it knows, not English alone);
        # strpos, not LIKE, so `%` and `_` in the text are plain characters.
        clauses.append(
            "(strpos(lower(summary), lower(:contains)) > 0 OR strpos(lower(content), lower(:contains)) > 0)"
        )
        params["contains"] = contains
    return clauses


async def list_memories(
    db: AsyncSession,
    profile_id: int,
    *,
    before_id: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None,
    include_superseded: bool,
    limit: int,
    contains: str | None = None,
) -> list[ListedMemory]:
    """Newest first by ULID, keyset on id: any page costs the same."""
    params: dict[str, Any] = {"p": profile_id, "limit": limit}
    filters = _list_filters(params, before_id, session_id, memory_type, metadata, contains)
    clauses = ["profile_id = :p", *filters]
    if not include_superseded:
        clauses.append("superseded_by IS NULL")
    sql = f"SELECT {_LISTED} FROM memories WHERE {' AND '.join(clauses)} ORDER BY id DESC LIMIT :limit"
    return [ListedMemory.of(r) for r in (await db.execute(text(sql), params)).mappings()]


# A memory's state at an instant: its current row if that state had begun and not ended, else the archived
# state whose validity covers the instant. A memory created after the instant has neither.
_STATES_AT = f"""
    SELECT {_COLUMNS} FROM memories
    WHERE profile_id = :p AND valid_from <= :at AND (valid_to IS NULL OR valid_to > :at) {{extra}}
    UNION ALL
    SELECT memory_id AS id, type, summary, content, session_id, event_time, created_at,
           coalesce(deleted_at, valid_to) AS updated_at, metadata, NULL AS superseded_by, version, valid_from,
           valid_to, speaker, speaker_role
    FROM memory_versions
    WHERE profile_id = :p AND valid_from <= :at AND valid_to > :at {{extra_v}}
"""


async def list_as_of(
    db: AsyncSession,
    profile_id: int,
    at: datetime,
    *,
    before_id: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None,
    limit: int,
    contains: str | None = None,
) -> list[MemoryRow]:
    """What the profile held at `at`: every memory valid then, as it read then, newest first."""
    params: dict[str, Any] = {"p": profile_id, "at": at, "limit": limit}
    clauses = _list_filters(params, before_id, session_id, memory_type, metadata, contains)
    extra = "".join(f" AND {c}" for c in clauses)
    extra_v = extra.replace("id < :before", "memory_id < :before")
    sql = f"SELECT * FROM ({_STATES_AT.format(extra=extra, extra_v=extra_v)}) s ORDER BY id DESC LIMIT :limit"
    return [MemoryRow.of(r) for r in (await db.execute(text(sql), params)).mappings()]


async def get_as_of(db: AsyncSession, profile_id: int, memory_id: str, at: datetime) -> MemoryRow | None:
    sql = _STATES_AT.format(extra="AND id = :id", extra_v="AND memory_id = :id")
    row = (await db.execute(text(sql), {"p": profile_id, "at": at, "id": memory_id})).mappings().first()
    return MemoryRow.of(row) if row else None


async def history(db: AsyncSession, profile_id: int, memory_id: str) -> list[MemoryState]:
    """Every state the memory has had, oldest first: the archived ones, then the current one if it lives."""
    rows = await db.execute(
        text(
            """
            SELECT version, change, type, summary, content, metadata, valid_from, valid_to, superseded_by,
                   deleted_at
            FROM memory_versions WHERE profile_id = :p AND memory_id = :id
            UNION ALL
            SELECT version, change, type, summary, content, metadata, valid_from, valid_to, superseded_by,
                   NULL
            FROM memories WHERE profile_id = :p AND id = :id
            ORDER BY version
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return [MemoryState(**r) for r in rows.mappings()]


async def source_keys(db: AsyncSession, profile_id: int, memory_id: str) -> list[tuple[str, str]]:
    """(session id, message id) of each message the memory was extracted from, sessions' rows locked first
    (every writer of a session takes its row before its messages, so deleting in that order never deadlocks)."""
    rows = await db.execute(
        text(
            """
            SELECT s.session_id, s.message_id FROM memory_sources s
            JOIN sessions ss ON ss.profile_id = s.profile_id AND ss.id = s.session_id
            WHERE s.profile_id = :p AND s.memory_id = :id
            ORDER BY s.session_id, s.message_id
            FOR UPDATE OF ss
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return [(r[0], r[1]) for r in rows]


async def shared_sources(db: AsyncSession, profile_id: int, memory_id: str) -> set[tuple[str, str]]:
    """(session id, message id) of the memory's sources that another memory (current or superseded) cites
    too: those stay when the memory is deleted."""
    rows = await db.execute(
        text(
            """
            SELECT s.session_id, s.message_id FROM memory_sources s
            WHERE s.profile_id = :p AND s.memory_id = :id
              AND EXISTS (SELECT 1 FROM memory_sources o
                          WHERE o.profile_id = s.profile_id AND o.session_id = s.session_id
                            AND o.message_id = s.message_id AND o.memory_id <> s.memory_id)
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return {(r[0], r[1]) for r in rows}
