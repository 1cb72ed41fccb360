"""SQL of the profile summary: sessions by recency and the active memories each section draws from.

Every query is profile-scoped, reads only active memories (`superseded_by IS NULL`) and is capped at
`limit` rows: a summary never needs more lines than its token budget can hold, so a profile with a
hundred thousand memories costs the same bounded reads as one with fifty.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.memory_types import DATED_TYPES, MemoryType, sql_list


@dataclass(frozen=True)
class SessionActivity:
    id: str
    last_at: datetime


@dataclass(frozen=True)
class MemoryLine:
    id: str
    type: str
    summary: str
    session_id: str | None
    # When the event happened: its event time, else when its first source message was said, else when it
    # was stored. Only filled for the dated types (events).
    at: datetime | None


@dataclass(frozen=True)
class MessageLine:
    role: str
    text: str


# A session's recency is the time of its last message (the conversation's own clock, so an imported
# history keeps its order); a session known only from remembered memories counts from the newest of
# them. The last message by `seq` is one index probe per session.
_SESSIONS = text(
    """
    SELECT s.id,
           COALESCE((SELECT m.created_at FROM messages m
                     WHERE m.profile_id = s.profile_id AND m.session_id = s.id
                     ORDER BY m.seq DESC LIMIT 1), s.updated_at) AS last_at,
           s.updated_at AS tie
    FROM sessions s
    WHERE s.profile_id = :p
    UNION ALL
    SELECT mem.session_id, max(mem.created_at), max(mem.created_at)
    FROM memories mem
    WHERE mem.profile_id = :p AND mem.superseded_by IS NULL AND mem.session_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM sessions s2 WHERE s2.profile_id = :p AND s2.id = mem.session_id)
    GROUP BY mem.session_id
    ORDER BY last_at DESC, tie DESC, id DESC
    """
)

_BY_TYPE = text(
    """
    SELECT id, type, summary, session_id, NULL::timestamptz AS at
    FROM memories
    WHERE profile_id = :p AND superseded_by IS NULL AND type = :type
    ORDER BY id DESC
    LIMIT :limit
    """
)

# Facts (or another type summarised topic-keyed first) about lasting attributes (a topic key such as user.home_city) outrank loose remarks, so the
# profile's identity survives a flood of newer small facts; among the rest, statements with substance
# (six or more distinct words) come before one-liners like "Classic." from a chat.
_FACTS = text(
    """
    (SELECT id, type, summary, session_id, NULL::timestamptz AS at, 0 AS rank
     FROM memories
     WHERE profile_id = :p AND superseded_by IS NULL AND topic_key IS NOT NULL AND type = :type
     ORDER BY id DESC LIMIT :limit)
    UNION ALL
    (SELECT id, type, summary, session_id, NULL::timestamptz AS at,
            CASE WHEN length(tsv) >= 6 THEN 1 ELSE 2 END AS rank
     FROM memories
     WHERE profile_id = :p AND superseded_by IS NULL AND topic_key IS NULL AND type = :type
     ORDER BY id DESC LIMIT :limit)
    ORDER BY rank, id DESC
    LIMIT :limit
    """
)

_EVENTS = text(
    """
    SELECT * FROM (
        SELECT m.id, m.type, m.summary, m.session_id,
               COALESCE(m.event_time,
                        (SELECT min(msg.created_at) FROM memory_sources src
                         JOIN messages msg ON msg.profile_id = src.profile_id AND msg.session_id = src.session_id
                              AND msg.id = src.message_id
                         WHERE src.profile_id = m.profile_id AND src.memory_id = m.id),
                        m.created_at) AS at
        FROM memories m
        WHERE m.profile_id = :p AND m.superseded_by IS NULL AND m.type = :type
    ) e
    WHERE e.at >= :since
    ORDER BY e.at DESC, e.id DESC
    LIMIT :limit
    """
)

_SESSION_MEMORIES = text(
    f"""
    SELECT m.id, m.type, m.summary, m.session_id,
           CASE WHEN m.type IN {sql_list(DATED_TYPES)} THEN
               COALESCE(m.event_time,
                        (SELECT min(msg.created_at) FROM memory_sources src
                         JOIN messages msg ON msg.profile_id = src.profile_id AND msg.session_id = src.session_id
                              AND msg.id = src.message_id
                         WHERE src.profile_id = m.profile_id AND src.memory_id = m.id),
                        m.created_at)
           END AS at
    FROM memories m
    WHERE m.profile_id = :p AND m.session_id = :sid AND m.superseded_by IS NULL
    ORDER BY m.id DESC
    LIMIT :limit
    """
)

_LAST_MESSAGES = text(
    """
    SELECT role, text_content AS text FROM messages
    WHERE profile_id = :p AND session_id = :sid AND text_content <> ''
    ORDER BY seq DESC
    LIMIT :limit
    """
)


def _lines(rows: Any) -> list[MemoryLine]:
    return [
        MemoryLine(id=r["id"], type=r["type"], summary=r["summary"], session_id=r["session_id"], at=r["at"])
        for r in rows.mappings()
    ]


async def sessions_by_recency(db: AsyncSession, profile_id: int) -> list[SessionActivity]:
    """Every session of the profile, most recent first."""
    rows = await db.execute(_SESSIONS, {"p": profile_id})
    return [SessionActivity(id=r["id"], last_at=r["last_at"]) for r in rows.mappings()]


async def topic_keyed_first(
    db: AsyncSession, profile_id: int, memory_type: MemoryType, limit: int
) -> list[MemoryLine]:
    """Active memories of one type (facts), topic-keyed ones first, each group newest first."""
    return _lines(await db.execute(_FACTS, {"p": profile_id, "type": memory_type.value, "limit": limit}))


async def dated_since(
    db: AsyncSession, profile_id: int, memory_type: MemoryType, since: datetime, limit: int
) -> list[MemoryLine]:
    """Active memories of one dated type (events) dated at or after `since` (upcoming ones included),
    latest first."""
    params = {"p": profile_id, "type": memory_type.value, "since": since, "limit": limit}
    return _lines(await db.execute(_EVENTS, params))


async def newest_of_type(
    db: AsyncSession, profile_id: int, memory_type: MemoryType, limit: int
) -> list[MemoryLine]:
    """Active memories of one type, newest first."""
    return _lines(await db.execute(_BY_TYPE, {"p": profile_id, "type": memory_type.value, "limit": limit}))


async def session_memories(
    db: AsyncSession, profile_id: int, session_id: str, limit: int
) -> list[MemoryLine]:
    """Active memories of one session (any type), newest first."""
    return _lines(await db.execute(_SESSION_MEMORIES, {"p": profile_id, "sid": session_id, "limit": limit}))


async def last_messages(db: AsyncSession, profile_id: int, session_id: str, limit: int) -> list[MessageLine]:
    """The session's last messages that carry text, newest first."""
    rows = await db.execute(_LAST_MESSAGES, {"p": profile_id, "sid": session_id, "limit": limit})
    return [MessageLine(role=r["role"], text=r["text"]) for r in rows.mappings()]
