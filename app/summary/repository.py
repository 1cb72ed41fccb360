"""The reads the profile summary is made of, from the tables' own repositories: the profile's sessions
by recency, and the active memories and last messages each section draws from (each read bounded by
its `limit`, see `app.memories.repository`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.memories import repository as memories
from app.memories.repository import (
    MemoryLine,
    dated_since,
    newest_of_type,
    session_memories,
    topic_keyed_first,
)
from app.sessions import repository as sessions
from app.sessions.repository import MessageLine
from app.sessions.repository import last_text_messages as last_messages

__all__ = [
    "MemoryLine",
    "MessageLine",
    "SessionActivity",
    "dated_since",
    "last_messages",
    "newest_of_type",
    "session_memories",
    "sessions_by_recency",
    "topic_keyed_first",
]


@dataclass(frozen=True)
class SessionActivity:
    id: str
    last_at: datetime


async def sessions_by_recency(db: AsyncSession, profile_id: int) -> list[SessionActivity]:
    """Every session of the profile, most recent first: a session by its last message (else its row's
    last change); a session known only from remembered memories by the newest of them. Ties: the later
    row change, then the id, descending."""
    rows = await sessions.session_activity(db, profile_id)
    known = {r.id for r in rows}
    ranked = [(r.last_at, r.updated_at, r.id) for r in rows]
    ranked += [
        (at, at, sid) for sid, at in await memories.memory_sessions(db, profile_id) if sid not in known
    ]
    ranked.sort(reverse=True)
    return [SessionActivity(id=sid, last_at=last_at) for last_at, _, sid in ranked]
