"""The bounded reads of active memories the profile summary draws from: by type, facts topic-keyed first,
events since an instant, a session's memories and the sessions memories came from."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.memory_types import DATED_TYPES, MemoryType, sql_list
from app.memories.repository.speakers import agent_words

# ---------------------------------------------------------------- lines of the profile summary
# Every read is capped at `limit` rows and reads only active memories: a summary never needs more lines
# than its token budget holds, so a profile with a hundred thousand memories costs the same bounded reads.


@dataclass(frozen=True)
class MemoryLine:
    id: str
    type: str
    summary: str
    session_id: str | None
    # When the event happened: its event time, else when its first source message was said, else when it
    # was stored. Only filled for the dated types (events).
    at: datetime | None
    # The full-text configuration of its language (`app.language.detect.search_config`).
    language: str = "english"
    speaker: str | None = None  # who said it (stored at ingest)


_BY_TYPE = text(
    """
    SELECT id, type, summary, session_id, NULL::timestamptz AS at, language::text AS language, speaker
    FROM memories
    WHERE profile_id = :p AND superseded_by IS NULL AND type = :type
    ORDER BY id DESC
    LIMIT :limit
    """
)

# Of the newest facts this many times the section's lines are weighed, so that the agent's own words
# (`agent_words`, listed last) do not push the people's facts out of a bounded read.
FACTS_WALK = 4
# Facts (or another type summarised topic-keyed first) about lasting attributes (a topic key such as user.home_city) outrank loose remarks, so the
# profile's identity survives a flood of newer small facts; among the rest, statements with substance
# (six or more distinct words) come before one-liners like "Classic." from a chat.
_FACTS = text(
    f"""
    (SELECT id, type, summary, session_id, NULL::timestamptz AS at, language::text AS language, speaker,
            0 AS rank
     FROM memories
     WHERE profile_id = :p AND superseded_by IS NULL AND topic_key IS NOT NULL AND type = :type
     ORDER BY id DESC LIMIT :limit)
    UNION ALL
    (SELECT id, type, summary, session_id, NULL::timestamptz AS at, language::text AS language, speaker,
            CASE WHEN agent THEN 3 WHEN length(tsv) >= 6 THEN 1 ELSE 2 END AS rank
     FROM (SELECT m.*, {agent_words("m")} AS agent FROM memories m
           WHERE m.profile_id = :p AND m.superseded_by IS NULL AND m.topic_key IS NULL AND m.type = :type
           ORDER BY m.id DESC LIMIT :limit * {FACTS_WALK}) f
     ORDER BY rank, id DESC LIMIT :limit)
    ORDER BY rank, id DESC
    LIMIT :limit
    """
)

_EVENTS = text(
    """
    SELECT * FROM (
        SELECT m.id, m.type, m.summary, m.session_id, m.language::text AS language, m.speaker,
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
    SELECT m.id, m.type, m.summary, m.session_id, m.language::text AS language, m.speaker,
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

# Sessions that memories name, by their newest memory: a session known only from remembered memories
# (no session row) is recent by them.
_MEMORY_SESSIONS = text(
    """
    SELECT session_id, max(created_at) AS last_at
    FROM memories
    WHERE profile_id = :p AND superseded_by IS NULL AND session_id IS NOT NULL
    GROUP BY session_id
    """
)


def _lines(rows: Any) -> list[MemoryLine]:
    return [
        MemoryLine(
            id=r["id"],
            type=r["type"],
            summary=r["summary"],
            session_id=r["session_id"],
            at=r["at"],
            language=r["language"],
            speaker=r["speaker"],
        )
        for r in rows.mappings()
    ]


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


async def memory_sessions(db: AsyncSession, profile_id: int) -> list[tuple[str, datetime]]:
    """(session id, its newest active memory's time) for every session active memories name."""
    return [(r.session_id, r.last_at) for r in await db.execute(_MEMORY_SESSIONS, {"p": profile_id})]
