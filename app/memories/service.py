"""Rules of memories: remember (dedup → existing), list/get/delete, deleteSession, storing extraction output."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from ulid import ULID

from app.core.errors import NotFound
from app.core.metrics import MEMORIES_CREATED
from app.core.pagination import decode_cursor, encode_cursor
from app.extraction.types import ExtractedMemory, content_hash
from app.memories import repository
from app.memories.repository import NewMemory
from app.memories.schemas import MemoryDetail, MemoryList, MemoryOut, MemorySource, MemorySummary
from app.models import Profile


class MemoryNotFound(NotFound):
    code = "memory_not_found"


def new_memories(extracted: list[ExtractedMemory], session_id: str | None) -> list[NewMemory]:
    return [
        NewMemory(
            id=str(ULID()),
            type=e.type,
            summary=e.summary,
            content=e.content,
            session_id=session_id,
            topic_key=e.topic_key,
            event_time=e.event_time,
            content_hash=content_hash(e.content),
            source_message_ids=e.source_message_ids,
        )
        for e in extracted
    ]


async def store(db: AsyncSession, profile_id: int, memories: list[NewMemory]) -> int:
    created = await repository.insert_memories(db, profile_id, memories)
    for memory in created:
        MEMORIES_CREATED.labels(memory.type).inc()
    return len(created)


async def remember(
    db: AsyncSession, profile: Profile, content: str, session_id: str | None
) -> tuple[MemoryOut, bool]:
    """One statement → one memory, classified by the extractor. Returns (memory, created)."""
    from app.extraction.default import classify_one

    # The extractor classifies and summarises; the memory keeps the statement exactly as given.
    extracted = replace(
        classify_one(content, role="user", timestamp=datetime.now(UTC)), content=content.strip()
    )
    [memory] = new_memories([extracted], session_id)
    row = await repository.insert_one(db, profile.id, memory)
    if row is not None:
        MEMORIES_CREATED.labels(memory.type).inc()
        return MemoryOut.model_validate(row), True
    # Already stored (perhaps by a concurrent remember): answer that memory, current again if it was replaced.
    existing = await repository.get_by_hash(db, profile.id, memory.content_hash)
    assert existing is not None
    if existing.pop("superseded_by") is not None:
        await repository.revive(db, profile.id, existing["id"])
    return MemoryOut.model_validate(existing), False


async def list_memories(
    db: AsyncSession,
    profile: Profile,
    *,
    limit: int,
    cursor: str | None,
    session_id: str | None,
    memory_type: str | None,
) -> MemoryList:
    before = str(decode_cursor(cursor, 1)[0]) if cursor else None
    rows = await repository.list_active(
        db, profile.id, before_id=before, session_id=session_id, memory_type=memory_type, limit=limit + 1
    )
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1]["id"]) if len(rows) > limit else None
    return MemoryList(memories=[MemorySummary.model_validate(r) for r in page], cursor=next_cursor)


async def _active_or_404(db: AsyncSession, profile: Profile, memory_id: str) -> dict[str, Any]:
    row = await repository.get_active(db, profile.id, memory_id)
    if row is None:
        raise MemoryNotFound(f"memory '{memory_id}' not found")
    return row


async def get_memory(db: AsyncSession, profile: Profile, memory_id: str) -> MemoryDetail:
    row = await _active_or_404(db, profile, memory_id)
    sources = [MemorySource.model_validate(s) for s in await repository.sources(db, profile.id, memory_id)]
    return MemoryDetail(**MemoryOut.model_validate(row).model_dump(), sources=sources)


async def delete_memory(db: AsyncSession, profile: Profile, memory_id: str) -> MemoryOut:
    """The memory and the messages it was extracted from; those messages' children are re-linked to their
    parents, so each session's history stays one walkable path."""
    from app.sessions import repository as sessions

    row = await _active_or_404(db, profile, memory_id)
    by_session: dict[str, list[str]] = {}
    for session_id, message_id in await repository.source_keys(db, profile.id, memory_id):
        by_session.setdefault(session_id, []).append(message_id)
    for session_id, message_ids in by_session.items():
        await sessions.delete_messages(db, profile.id, session_id, message_ids)
    await repository.delete_memory(db, profile.id, memory_id)
    return MemoryOut.model_validate(row)


async def delete_session(db: AsyncSession, profile: Profile, session_id: str) -> None:
    await repository.delete_session(db, profile.id, session_id)
