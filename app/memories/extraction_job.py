"""The `extract` job: turn newly stored messages of a session into memories with the configured extractor.

Three steps, so no connection is held while the extractor works (it may call an LLM, and the default
one is CPU-bound): read the window in one short transaction (with, when the window opens its session, the
other sessions' messages of the year before, for the plans its opening may report on), extract with no
connection, store in a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.timestamps import earlier_by
from app.events import repository as events
from app.events.types import EventType
from app.extraction.text import parse_message
from app.extraction.types import Extractor, InputMessage
from app.language.detect import Language, detect_conversation
from app.memories import service
from app.memories.repository import NewMemory, Speaker
from app.profiles import repository as profiles_repository
from app.quotas import service as quotas
from app.sessions import repository as sessions_repository
from app.sessions.repository import MessageText
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import ExtractPayload, ExtractResult
from app.worker.registry import registry

# Earlier messages given to the extractor as context (e.g. the question a short answer replies to).
CONTEXT_MESSAGES = 6
# Memories one extraction job stores at most: a 500-message ingest of ordinary conversation makes a few
# hundred; 500 hostile 32 KiB messages made 208,913 before the bound.
MEMORIES_PER_JOB = 2000
# Other sessions' messages given with a session's opening, for the plans it may report on: the newest of
# the year before it. Read from the messages, stored at ingest, not from memories, so the link does not
# depend on which session's job runs first.
EARLIER_PERIOD = timedelta(days=365)
EARLIER_MESSAGES = 500


def _input(row: MessageText, language: Language | None = None) -> InputMessage:
    return InputMessage(
        id=row.id,
        role=row.role,
        content=row.text,
        timestamp=row.created_at.astimezone(UTC),
        speaker=row.name,
        language=language,
    )


def _speaker(row: MessageText) -> Speaker:
    """Who said a message: its `name`, else the `Name:` prefix of its text (any script), read here once and
    stored on the memories drawn from it."""
    return Speaker(row.name or parse_message(row.text).speaker, row.role)


def _languages(rows: Sequence[MessageText], new_from: int) -> dict[str, Language]:
    """The language of what the speaker said in each new message (a `Name:` prefix is not part of it):
    detected once, for the extractor to read the message in and the index to store (detection costs up
    to a millisecond); where a message's words do not say, the window's (`detect_conversation`)."""
    found = detect_conversation([parse_message(row.text).body for row in rows])
    return {row.id: language for row, language in zip(rows[new_from:], found[new_from:], strict=True)}


def extractor_for(ctx: JobContext) -> Extractor:
    """One extractor per worker, built on first use: the LLM one when an endpoint is configured."""
    extractor: Extractor | None = ctx.cache.get("extractor")
    if extractor is None:
        client = ctx.llm()
        if client is not None:
            from app.extraction.llm import LlmExtractor

            extractor = LlmExtractor(client)
        else:
            from app.extraction.default import DefaultExtractor

            extractor = DefaultExtractor()
        ctx.cache["extractor"] = extractor
    return extractor


@registry.job(ExtractPayload)
async def run_extraction(ctx: JobContext, job: JobInfo, payload: ExtractPayload) -> ExtractResult:
    profile_id, session_id = job.require_session()
    async with ctx.transaction() as db:
        profile = await profiles_repository.get_live_by_id(db, profile_id)
        if profile is None:
            return ExtractResult()  # deleted meanwhile: the purge job removes everything
        namespace_id = profile.namespace_id
        rows, new_from = await sessions_repository.window_messages(
            db, profile_id, session_id, payload.message_ids, CONTEXT_MESSAGES
        )
        earlier_rows = None
        if rows and new_from < CONTEXT_MESSAGES:
            # Fewer earlier messages than asked for: the window opens the session.
            start = rows[0].created_at
            earlier_rows = await sessions_repository.other_sessions_messages(
                db, profile_id, session_id, earlier_by(start, EARLIER_PERIOD), start, EARLIER_MESSAGES
            )
    if len(rows) <= new_from:
        return ExtractResult()  # every message was deleted before we got here
    said_in = _languages(rows, new_from)
    inputs = [_input(r, said_in.get(r.id)) for r in rows]
    earlier = [_input(r) for r in earlier_rows] if earlier_rows is not None else None
    extracted = await extractor_for(ctx).extract(inputs, new_from=new_from, earlier=earlier)
    # However hostile the messages, one job stores a bounded number of memories, and says how many it left.
    over_bound = max(len(extracted) - MEMORIES_PER_JOB, 0)
    extracted = extracted[:MEMORIES_PER_JOB]
    metadata: dict[str, dict[str, Any] | None] = {r.id: r.metadata for r in rows}
    # Ingest stores messages as English text (it does not detect): the others are indexed in their language.
    languages = {message_id: lang.config for message_id, lang in said_in.items() if not lang.english}
    async with ctx.transaction() as db:
        # The quota lock first (when the namespace has a limit), before any row lock, as every checked writer.
        room = await quotas.memory_room(db, namespace_id)
        await sessions_repository.set_languages(db, profile_id, session_id, languages)
        speakers = {r.id: _speaker(r) for r in rows}
        stored, over_quota = await _store_within(
            db,
            namespace_id,
            profile_id,
            room,
            service.new_memories(extracted, session_id, metadata, speakers),
        )
        counts = {
            "jobId": job.id,
            "memoriesCreated": stored.created,
            "memoriesSuperseded": stored.superseded,
            "memoriesSkipped": stored.skipped + over_bound,
            "memoriesOverQuota": over_quota,
        }
        await events.record(db, profile_id, EventType.INGEST_COMPLETED, session_id=session_id, data=counts)
    return ExtractResult(
        memories_created=stored.created, memories_over_bound=over_bound, memories_over_quota=over_quota
    )


async def _store_within(
    db: AsyncSession, namespace_id: int, profile_id: int, room: quotas.MemoryRoom, memories: list[NewMemory]
) -> tuple[service.Stored, int]:
    """Store what the namespace's quotas leave room for, in batches that fit (a memory the profile holds
    already takes no room): (what was stored, how many memories were left out). Messages are never touched:
    they were acknowledged when stored."""
    created = superseded = skipped = 0
    while memories:
        # A memory's stored size: its UTF-8 bytes and a header (compression only makes it smaller).
        fit = room.fitting([len(m.content.encode()) + 4 for m in memories])
        if fit == 0:
            break
        stored = await service.store(db, profile_id, memories[:fit])
        created, superseded, skipped = (
            created + stored.created,
            superseded + stored.superseded,
            skipped + stored.skipped,
        )
        memories = memories[fit:]
        if memories:
            room = await quotas.memory_room(db, namespace_id)
    if memories:
        quotas.count_left_out("memories", len(memories))
    return service.Stored(created, superseded, skipped), len(memories)
