"""Rules of memories: remember (dedup → existing, forgotten → refused unless restored), list/get (now or as
of an instant), edit, history, delete (leaving a tombstone), tombstones, deleteSession, storing extraction
output."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from ulid import ULID

from app.core.auth import Principal
from app.core.errors import Conflict, NotFound
from app.core.metrics import MEMORIES_CREATED
from app.core.pagination import decode_cursor, encode_cursor
from app.events import repository as events
from app.events.types import EventType
from app.extraction.text import parse_message
from app.extraction.types import ExtractedMemory, content_hash
from app.memories import repository
from app.memories.batching import RememberBatcher
from app.memories.repository import NewMemory, RememberItem, Speaker
from app.memories.schemas import (
    EditRequest,
    MemoryDetail,
    MemoryHistory,
    MemoryList,
    MemoryOut,
    MemorySource,
    MemorySummary,
    MemoryVersion,
    Tombstone,
    TombstoneList,
)
from app.models import Profile
from app.namespaces.service import NamespaceNotFound
from app.profiles import service as profiles
from app.quotas import service as quotas
from app.sessions import repository as sessions_repository

# Classified on the event loop up to this length (well under a millisecond); longer texts in a thread.
INLINE_CLASSIFY_CHARS = 2048


class MemoryNotFound(NotFound, code="memory_not_found"): ...


class MemorySuperseded(Conflict, code="memory_superseded"): ...


class DuplicateContent(Conflict, code="memory_content_exists"): ...


class MemoryForgotten(Conflict, code="memory_forgotten"):
    """remember of content the profile deleted: its tombstone stands until lifted."""

    def __init__(self, tombstone_id: str) -> None:
        super().__init__(
            f"this content was deleted from the profile (tombstone '{tombstone_id}') and is not stored "
            'again: remember it with "restore": true, or lift the tombstone (DELETE …/tombstones/'
            f"{tombstone_id}), to keep it again"
        )
        self.tombstone_id = tombstone_id

    def extra(self) -> dict[str, Any]:
        return {"tombstoneId": self.tombstone_id}


def inherited_metadata(
    source_ids: tuple[str, ...], by_message: dict[str, dict[str, Any] | None]
) -> dict[str, Any] | None:
    """A memory's metadata from the messages it came from, the later message winning a shared key."""
    merged: dict[str, Any] = {}
    for message_id in source_ids:
        merged.update(by_message.get(message_id) or {})
    return merged or None


def new_memories(
    extracted: list[ExtractedMemory],
    session_id: str | None,
    metadata_by_message: dict[str, dict[str, Any] | None] | None = None,
    speakers_by_message: dict[str, Speaker] | None = None,
) -> list[NewMemory]:
    """The rows to store for extracted memories: each inherits its source messages' metadata, and the
    speaker of its first source message (whoever the extractor was: the default rules or an LLM)."""
    by_message = metadata_by_message or {}
    speakers = speakers_by_message or {}
    said = [next((speakers[i] for i in e.source_message_ids if i in speakers), Speaker()) for e in extracted]
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
            metadata=inherited_metadata(e.source_message_ids, by_message),
            context=e.context,
            language=e.language,
            speaker=by.name,
            speaker_role=by.role,
        )
        for e, by in zip(extracted, said, strict=True)
    ]


@dataclass(frozen=True)
class Stored:
    """What storing extraction output did: memories created, memories they superseded, and those skipped
    (already held by the profile, or forgotten: a tombstone holds their content)."""

    created: int
    superseded: int
    skipped: int


async def store(db: AsyncSession, profile_id: int, memories: list[NewMemory]) -> Stored:
    created, superseded = await repository.insert_memories(db, profile_id, memories)
    for memory in created:
        MEMORIES_CREATED.labels(memory.type).inc()
    return Stored(len(created), superseded, len(memories) - len(created))


async def attribute(db: AsyncSession, profile_id: int, memory_ids: list[str]) -> None:
    """Give memories stored without a speaker (imported from an export written before speakers were
    stored) the one ingest gives: their first source message's name, else its `Name:` prefix, else their
    own content's, and that message's role (as migration 0020 did for the memories it found)."""
    found = await repository.first_sources(db, profile_id, memory_ids)
    await repository.set_speakers(
        db,
        profile_id,
        [
            (
                m.id,
                m.name or (m.said and parse_message(m.said).speaker) or parse_message(m.content).speaker,
                m.role,
            )
            for m in found
        ],
    )


async def remember(
    batcher: RememberBatcher,
    sessionmaker: async_sessionmaker[AsyncSession],
    principal: Principal,
    namespace: str,
    profile_name: str,
    content: str,
    session_id: str | None,
    metadata: dict[str, Any] | None = None,
    *,
    restore: bool = False,
) -> tuple[MemoryOut, bool]:
    """One statement → one memory, classified by the extractor. Returns (memory, created); content the
    profile forgot (a tombstone holds it) is `MemoryForgotten` unless `restore` lifts the tombstone.

    The usual case (new content) is one autocommit statement on the driver's connection, the profile
    resolved (or created) inside it, shared with the process's concurrent remembers (`batching`); its
    `memory.created` event, written with it, has the worker embed it. The rarer cases (content already
    stored, a profile created concurrently, a restore) take a unit of work of their own, committed before
    this returns.
    """
    memory = await _classified(content, session_id, metadata)
    # A namespace with a limit on memories or bytes takes the unit of work, where its quotas are checked.
    if not restore and not await quotas.limited_by_name(sessionmaker, namespace, "memories", "bytes"):
        done = await batcher.remember(RememberItem(principal.namespace_id, namespace, profile_name, memory))
        if done.namespace_id is None:
            raise NamespaceNotFound(f"namespace '{namespace}' not found")
        if done.memory is not None:
            MEMORIES_CREATED.labels(memory.type).inc()
            return MemoryOut.model_validate(done.memory), True
    async with sessionmaker.begin() as db:
        profile, _ = await profiles.for_write(db, principal, namespace, profile_name)
        return await _remember_in_transaction(db, profile, memory, restore=restore)


async def remember_in_profile(
    db: AsyncSession,
    profile: Profile,
    content: str,
    session_id: str | None,
    metadata: dict[str, Any] | None = None,
    *,
    restore: bool = False,
) -> tuple[MemoryOut, bool]:
    """remember into a profile already resolved in the caller's transaction (the MCP tool)."""
    return await _remember_in_transaction(
        db, profile, await _classified(content, session_id, metadata), restore=restore
    )


async def classified_text(text: str) -> ExtractedMemory:
    """`text` typed and summarised as /remember stores it. CPU-bound: a long text is classified in a
    thread, so the event loop keeps answering (/healthz) meanwhile; a short one costs less than the hop."""
    from app.extraction.default import classify_one

    if len(text) <= INLINE_CLASSIFY_CHARS:
        return classify_one(text, role="user", timestamp=datetime.now(UTC))
    return await asyncio.to_thread(classify_one, text, role="user", timestamp=datetime.now(UTC))


async def _classified(content: str, session_id: str | None, metadata: dict[str, Any] | None) -> NewMemory:
    # The extractor classifies and summarises; the memory keeps the statement exactly as given, and the
    # speaker a `Name:` prefix names (read here, once; no message said it, so it has no role).
    extracted = replace(await classified_text(content), content=content.strip())
    [memory] = new_memories([extracted], session_id)
    memory.metadata = metadata
    memory.speaker = parse_message(content).speaker
    return memory


async def _remember_in_transaction(
    db: AsyncSession, profile: Profile, memory: NewMemory, *, restore: bool = False
) -> tuple[MemoryOut, bool]:
    if restore:  # the explicit way back for forgotten content: its tombstones are lifted first
        await repository.lift_tombstones_of(db, profile.id, memory.content_hash)
    async with quotas.held_to_quotas(db, profile.namespace_id, "memories", "bytes"):
        row = await repository.insert_one(db, profile.id, memory)
        if row is None:
            # Already stored (perhaps by a concurrent remember): that memory, current again if it was replaced.
            existing = await repository.get_by_hash(db, profile.id, memory.content_hash)
            if existing is None:
                forgotten = await repository.tombstone_of(db, profile.id, memory.content_hash)
                assert forgotten is not None
                raise MemoryForgotten(forgotten)
            if existing.superseded_by is not None:
                await repository.revive(db, profile.id, existing.id)
                existing = await repository.get(db, profile.id, existing.id)
                assert existing is not None
    if row is not None:
        MEMORIES_CREATED.labels(memory.type).inc()
        return MemoryOut.model_validate(row), True
    assert existing is not None
    return MemoryOut.model_validate(existing), False


async def list_memories(
    db: AsyncSession,
    profile: Profile,
    *,
    limit: int,
    cursor: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None = None,
    include_superseded: bool = False,
    as_of: datetime | None = None,
    contains: str | None = None,
) -> MemoryList:
    before = str(decode_cursor(cursor, 1)[0]) if cursor else None
    if as_of is not None:
        states = await repository.list_as_of(
            db,
            profile.id,
            as_of,
            before_id=before,
            session_id=session_id,
            memory_type=memory_type,
            metadata=metadata,
            limit=limit + 1,
            contains=contains,
        )
        rows: list[repository.ListedMemory] = [_as_it_was(r) for r in states]
    else:
        rows = await repository.list_memories(
            db,
            profile.id,
            before_id=before,
            session_id=session_id,
            memory_type=memory_type,
            metadata=metadata,
            include_superseded=include_superseded,
            limit=limit + 1,
            contains=contains,
        )
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1].id) if len(rows) > limit else None
    return MemoryList(memories=[MemorySummary.model_validate(r) for r in page], cursor=next_cursor)


def _as_it_was(row: repository.MemoryRow) -> repository.MemoryRow:
    """A state read as of an instant inside its validity: nothing had superseded it yet."""
    return replace(row, superseded_by=None)


async def _active_or_404(db: AsyncSession, profile: Profile, memory_id: str) -> repository.MemoryRow:
    row = await repository.get_active(db, profile.id, memory_id)
    if row is None:
        raise MemoryNotFound(f"memory '{memory_id}' not found")
    return row


async def get_memory(
    db: AsyncSession, profile: Profile, memory_id: str, as_of: datetime | None = None
) -> MemoryDetail:
    if as_of is not None:
        found = await repository.get_as_of(db, profile.id, memory_id, as_of)
        if found is None:
            raise MemoryNotFound(
                f"memory '{memory_id}' did not exist or was not valid at {as_of.isoformat()}"
            )
        row = _as_it_was(found)
    else:
        row = await _active_or_404(db, profile, memory_id)
    sources = [MemorySource.model_validate(s) for s in await repository.sources(db, profile.id, memory_id)]
    return MemoryDetail(**MemoryOut.model_validate(row).model_dump(), sources=sources)


async def edit_memory(db: AsyncSession, profile: Profile, memory_id: str, edit: EditRequest) -> MemoryOut:
    """Correct a memory: the current state is archived, the new one becomes version + 1."""
    # A new statement is summarised and typed again, unless the client said what those are; classified
    # first, so that the topic it may move to is locked with the memory's own (repository.get_for_edit).
    classified = await classified_text(edit.content.strip()) if edit.content is not None else None
    new_topic = classified.topic_key if classified is not None else None
    current = await repository.get_for_edit(db, profile.id, memory_id, new_topic)
    if current is None:
        raise MemoryNotFound(f"memory '{memory_id}' not found")
    if current.superseded_by is not None:
        raise MemorySuperseded(
            f"memory '{memory_id}' was superseded by '{current.superseded_by}': edit that one instead"
        )
    content = current.content
    summary = edit.summary or current.summary
    memory_type: str = edit.type or current.type
    topic_key = current.topic_key
    event_time = current.event_time
    if edit.content is not None and classified is not None and edit.content.strip() != content:
        # A new statement is dated again too: its summary says the new date, its eventTime must agree.
        content = edit.content.strip()
        summary = edit.summary or classified.summary
        memory_type = edit.type or classified.type
        topic_key = classified.topic_key
        event_time = classified.event_time
    new_hash = content_hash(content)
    other = await repository.content_taken(db, profile.id, memory_id, new_hash)
    if other is not None:
        raise DuplicateContent(f"memory '{other}' already holds this content")
    row = await repository.edit(
        db,
        profile.id,
        memory_id,
        type=memory_type,
        summary=summary,
        content=content,
        topic_key=topic_key,
        event_time=event_time,
        content_hash=new_hash,
        metadata=edit.metadata if edit.metadata is not None else current.metadata,
    )
    if content != current.content:
        # Its vectors describe the old statement: dropped; its `memory.updated` event has the worker embed
        # the new one.
        from app.embeddings import repository as embeddings

        await embeddings.forget(db, profile.id, memory_id)
    return MemoryOut.model_validate(row)


async def memory_history(db: AsyncSession, profile: Profile, memory_id: str) -> MemoryHistory:
    """The version chain: each state as it began (created / edited / restored), then how the last ended."""
    states = await repository.history(db, profile.id, memory_id)
    if not states:
        raise MemoryNotFound(f"memory '{memory_id}' not found")
    versions: list[MemoryVersion] = []
    for state in states:
        snapshot = {
            "type": state.type,
            "summary": state.summary,
            "content": state.content,
            "metadata": state.metadata,
        }
        versions.append(
            MemoryVersion(version=state.version, change=state.change, at=state.valid_from, **snapshot)
        )
        if state.superseded_by is not None:
            versions.append(
                MemoryVersion(
                    version=state.version,
                    change="superseded",
                    at=state.valid_to,
                    superseded_by=state.superseded_by,
                    **snapshot,
                )
            )
        if state.deleted_at is not None:
            kept = await repository.kept_sources_of_deleted(db, profile.id, memory_id)
            versions.append(
                MemoryVersion(
                    version=state.version,
                    change="deleted",
                    at=state.deleted_at,
                    kept_message_ids=kept or None,
                    **snapshot,
                )
            )
    return MemoryHistory(memory_id=memory_id, versions=versions)


async def delete_memory(db: AsyncSession, profile: Profile, memory_id: str) -> MemoryOut:
    """The memory and the messages it was extracted from that no other memory cites (a shared source stays
    with the memory that still cites it); the deleted messages' children are re-linked to their parents, so
    each session's history stays one walkable path. The memory leaves a tombstone (its content fingerprint
    and its sources' identities), so that the same messages or content do not bring it back. Deleting it
    again answers as the first delete did (api.md: deletes are idempotent): the same memory, from the
    archive."""
    row = await repository.get_active(db, profile.id, memory_id)
    if row is None:
        gone = await repository.deleted_state(db, profile.id, memory_id)
        if gone is None:
            raise MemoryNotFound(f"memory '{memory_id}' not found")
        return MemoryOut.model_validate(gone)
    keys = await repository.source_keys(db, profile.id, memory_id)  # sessions locked first
    shared = await repository.shared_sources(db, profile.id, memory_id) if keys else set()
    await repository.tombstone(
        db, profile.id, memory_id, [(sid, mid, (sid, mid) not in shared) for sid, mid in keys]
    )
    by_session: dict[str, list[str]] = {}
    for session_id, message_id in keys:
        if (session_id, message_id) not in shared:
            by_session.setdefault(session_id, []).append(message_id)
    for session_id, message_ids in by_session.items():
        await sessions_repository.delete_messages(db, profile.id, session_id, message_ids)
    await repository.delete_memory(db, profile.id, memory_id)
    return MemoryOut.model_validate(row)


async def list_tombstones(
    db: AsyncSession, profile: Profile, *, limit: int, cursor: str | None
) -> TombstoneList:
    before = str(decode_cursor(cursor, 1)[0]) if cursor else None
    rows = await repository.list_tombstones(db, profile.id, before_id=before, limit=limit + 1)
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1].id) if len(rows) > limit else None
    return TombstoneList(tombstones=[Tombstone.model_validate(r) for r in page], cursor=next_cursor)


async def lift_tombstone(db: AsyncSession, profile: Profile, tombstone_id: str) -> None:
    """Lift a tombstone: the content and the messages it held may be stored again (re-ingested,
    remembered, imported). Idempotent: lifting one that is not there does nothing."""
    await repository.lift_tombstone(db, profile.id, tombstone_id)


async def delete_session(db: AsyncSession, profile: Profile, session_id: str) -> None:
    """The session and everything of it; `session.deleted` (after a `memory.deleted` per memory) when there
    was anything to delete (a repeated delete changes nothing and says nothing)."""
    if await repository.delete_session(db, profile.id, session_id):
        await events.record(db, profile.id, EventType.SESSION_DELETED, session_id=session_id)
